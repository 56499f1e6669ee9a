import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { sectionTitle, songLength, SONG, type Song } from '#shared/songmapper';

/**
 * The song map as a PDF (the share link). Text is set in Inter, the site's face, from the
 * @fontsource subsets; each run of characters takes the subset that covers it (Latin, Latin
 * extended, Cyrillic, Greek, Vietnamese). Characters no subset covers (CJK, emoji) print as "?".
 */
const require = createRequire(import.meta.url);
const fontDir = path.join(path.dirname(require.resolve('@fontsource/inter/package.json')), 'files');
const SUBSETS = ['latin', 'latin-ext', 'vietnamese', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext'] as const;
type Subset = (typeof SUBSETS)[number];
type Weight = 400 | 700;

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
function fontData(subset: Subset, weight: Weight): Buffer {
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

const COLORS = { ink: '#1c1917', muted: '#78716c', rule: '#e7e5e4', accent: '#ea580c', band: '#fafaf9' };

/**
 * The share link is public, so the PDF names the song, never the member who mapped it. pdfkit (and
 * its font engine, several MB in memory) is loaded on the first PDF, not at start (issue 9, memory).
 */
export async function songPdf(song: Song, opts: { updatedAt: Date }): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: song.title || SONG.untitled, Creator: 'Backbeat song mapper' } });
  const used = new Set<string>();
  const font = (subset: Subset, weight: Weight) => {
    const name = `${subset}-${weight}`;
    if (!used.has(name)) {
      doc.registerFont(name, fontData(subset, weight));
      used.add(name);
    }
    doc.font(name);
  };
  /** write text at (x, y) within width, switching subsets between runs */
  const write = (text: string, x: number, y: number, o: { width: number; size: number; weight?: Weight; color?: string }) => {
    const runs = fontRuns(text || ' ');
    doc.fontSize(o.size).fillColor(o.color ?? COLORS.ink);
    runs.forEach((run, i) => {
      font(run.subset, o.weight ?? 400);
      const continued = i < runs.length - 1;
      if (i === 0) doc.text(run.text, x, y, { width: o.width, continued });
      else doc.text(run.text, { continued });
    });
  };
  const heightOf = (text: string, width: number, size: number) => {
    font('latin', 400);
    doc.fontSize(size);
    return doc.heightOfString(text || ' ', { width });
  };

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  // heading
  doc.rect(left, 48, 36, 4).fill(COLORS.accent);
  write(song.title || SONG.untitled, left, 62, { width, size: 24, weight: 700 });
  let y = doc.y + 4;
  const { measures, seconds } = songLength(song);
  const facts = [
    song.bpm ? `${song.bpm} bpm` : null,
    `${song.sections.length} ${song.sections.length === 1 ? 'section' : 'sections'}`,
    `${measures} ${measures === 1 ? 'measure' : 'measures'}`,
    seconds !== null ? `about ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')} in 4/4` : null,
  ].filter(Boolean);
  write(facts.join('  ·  '), left, y, { width, size: 11, color: COLORS.muted });
  y = doc.y + 18;

  // the table
  const columns: Array<{ label: string; share: number; value: (s: Song['sections'][number], i: number) => string }> = [
    { label: '#', share: 0.06, value: (_s, i) => String(i + 1) },
    { label: 'Section', share: song.expandFields ? 0.24 : 0.44, value: (s) => sectionTitle(s) },
    { label: 'Measures', share: 0.14, value: (s) => s.measures },
    { label: 'Division', share: song.expandFields ? 0.16 : 0.36, value: (s) => s.division },
  ];
  if (song.expandFields) {
    columns.push({ label: 'Surface', share: 0.2, value: (s) => s.surface });
    columns.push({ label: 'Snare', share: 0.2, value: (s) => s.snare });
  }
  const pad = 6;
  const header = () => {
    let x = left;
    for (const c of columns) {
      write(c.label.toUpperCase(), x + pad, y, { width: c.share * width - 2 * pad, size: 8, weight: 700, color: COLORS.muted });
      x += c.share * width;
    }
    y += 16;
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(1).strokeColor(COLORS.ink).stroke();
    y += 6;
  };
  header();
  song.sections.forEach((s, i) => {
    const cells = columns.map((c) => c.value(s, i));
    const h = Math.max(...cells.map((text, k) => heightOf(text, columns[k]!.share * width - 2 * pad, 11))) + 10;
    if (y + h > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
      header();
    }
    if (i % 2 === 1) doc.rect(left, y - 4, width, h).fill(COLORS.band);
    let x = left;
    cells.forEach((text, k) => {
      const c = columns[k]!;
      write(text, x + pad, y, { width: c.share * width - 2 * pad, size: 11, weight: k === 1 ? 700 : 400, color: k === 0 ? COLORS.muted : COLORS.ink });
      x += c.share * width;
    });
    y += h;
    doc.moveTo(left, y - 4).lineTo(left + width, y - 4).lineWidth(0.5).strokeColor(COLORS.rule).stroke();
  });

  const stamp = `Mapped with the Backbeat song mapper · updated ${opts.updatedAt.toISOString().slice(0, 10)}`;
  if (y + 30 > bottom()) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  write(stamp, left, y + 14, { width, size: 9, color: COLORS.muted });
  doc.end();
  return done;
}
