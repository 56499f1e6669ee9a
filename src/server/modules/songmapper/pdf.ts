import { fontData, fontRuns, type Subset, type Weight } from '#server/lib/pdf-text';
import { sectionTitle, songLength, SONG, type Song } from '#shared/songmapper';

export { fontRuns };

const COLORS = { ink: '#1c1917', muted: '#78716c', rule: '#e7e5e4', accent: '#ea580c', band: '#fafaf9' };

/**
 * The share link is public, so the PDF names the song, never the member who mapped it. pdfkit (and
 * its font engine, several MB in memory) is loaded on the first PDF, not at start.
 */
export async function songPdf(song: Song, opts: { updatedAt: Date }): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: { Title: song.title || SONG.untitled, Creator: 'Backbeat song mapper' },
  });
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
  const write = (
    text: string,
    x: number,
    y: number,
    o: { width: number; size: number; weight?: Weight; color?: string },
  ) => {
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
      write(c.label.toUpperCase(), x + pad, y, {
        width: c.share * width - 2 * pad,
        size: 8,
        weight: 700,
        color: COLORS.muted,
      });
      x += c.share * width;
    }
    y += 16;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(1)
      .strokeColor(COLORS.ink)
      .stroke();
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
      write(text, x + pad, y, {
        width: c.share * width - 2 * pad,
        size: 11,
        weight: k === 1 ? 700 : 400,
        color: k === 0 ? COLORS.muted : COLORS.ink,
      });
      x += c.share * width;
    });
    y += h;
    doc
      .moveTo(left, y - 4)
      .lineTo(left + width, y - 4)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke();
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
