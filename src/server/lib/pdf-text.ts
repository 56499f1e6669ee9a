import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Text in PDFs (pdfkit) that any member's name can be written in. Text is set in Inter, the site's face, from the
 * @fontsource subsets; each run of characters takes the subset that covers it (Latin, Latin
 * extended, Cyrillic, Greek, Vietnamese). Characters no subset covers (CJK, emoji) print as "?".
 */
const require = createRequire(import.meta.url);
const fontDir = path.join(path.dirname(require.resolve('@fontsource/inter/package.json')), 'files');
const SUBSETS = ['latin', 'latin-ext', 'vietnamese', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext'] as const;
export type Subset = (typeof SUBSETS)[number];
export type Weight = 400 | 700;

const ranges: Array<{ subset: Subset; from: number; to: number }> = (() => {
  const table = JSON.parse(readFileSync(path.join(fontDir, '..', 'unicode.json'), 'utf8')) as Record<string, string>;
  const out: Array<{ subset: Subset; from: number; to: number }> = [];
  for (const subset of SUBSETS) {
    for (const part of (table[subset] ?? '').split(',')) {
      const [a, b] = part.replace('U+', '').split('-');
      if (!a) continue;
      out.push({ subset, from: parseInt(a, 16), to: parseInt(b ?? a, 16) });
    }
  }
  return out;
})();

const fonts = new Map<string, Buffer>();
export function fontData(subset: Subset, weight: Weight): Buffer {
  const key = `${subset}-${weight}`;
  let data = fonts.get(key);
  if (!data) {
    data = readFileSync(path.join(fontDir, `inter-${subset}-${weight}-normal.woff`));
    fonts.set(key, data);
  }
  return data;
}

/** Split text into runs that one subset covers; uncovered characters become "?". */
export function fontRuns(text: string): Array<{ subset: Subset; text: string }> {
  const runs: Array<{ subset: Subset; text: string }> = [];
  for (const raw of text) {
    // control characters (tabs, newlines) print as spaces
    const ch = raw.codePointAt(0)! < 0x20 || raw === '\u007f' ? ' ' : raw;
    const cp = ch.codePointAt(0)!;
    const hit = ranges.find((r) => cp >= r.from && cp <= r.to);
    const subset = hit?.subset ?? 'latin';
    const piece = hit ? ch : '?';
    const last = runs[runs.length - 1];
    if (last && last.subset === subset) last.text += piece;
    else runs.push({ subset, text: piece });
  }
  return runs;
}

type Doc = PDFKit.PDFDocument;

/**
 * Writing on a pdfkit document in Inter: `write` sets text at (x, y) within `width`, switching subsets
 * between runs; `heightOf` measures it. Fonts are registered on the document the first time they are used.
 */
export function textWriter(doc: Doc) {
  const used = new Set<string>();
  const font = (subset: Subset, weight: Weight) => {
    const name = `${subset}-${weight}`;
    if (!used.has(name)) {
      doc.registerFont(name, fontData(subset, weight));
      used.add(name);
    }
    doc.font(name);
  };
  return {
    write(
      text: string,
      x: number,
      y: number,
      o: { width: number; size: number; weight?: Weight; color?: string; align?: 'left' | 'right' },
    ) {
      const runs = fontRuns(text || ' ');
      doc.fontSize(o.size).fillColor(o.color ?? '#1c1917');
      runs.forEach((run, i) => {
        font(run.subset, o.weight ?? 400);
        const continued = i < runs.length - 1;
        if (i === 0) doc.text(run.text, x, y, { width: o.width, continued, align: o.align ?? 'left' });
        else doc.text(run.text, { continued });
      });
    },
    heightOf(text: string, width: number, size: number, weight: Weight = 400) {
      font('latin', weight);
      doc.fontSize(size);
      return doc.heightOfString(text || ' ', { width });
    },
  };
}
