import { textWriter } from '#server/lib/pdf-text';
import { formatMoney } from '#shared/money';
import type { Receipt } from '#shared/receipts';

const COLORS = { ink: '#1c1917', muted: '#78716c', rule: '#e7e5e4', accent: '#ea580c' };

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/**
 * A receipt or credit note as an A4 PDF: the same facts as its page, in the site's face (names in
 * Cyrillic, Greek, Vietnamese and Latin scripts print as written). pdfkit loads on the first PDF.
 */
export async function receiptPdf(r: Receipt): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const credit = r.kind === 'credit_note';
  const title = credit ? 'Credit note' : 'Receipt';
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${title} ${r.number}`, Author: r.seller.name, Creator: r.seller.name },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const { write } = textWriter(doc);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const half = width / 2 - 12;
  const money = (cents: number) => formatMoney(cents, r.currency);

  // heading: what it is, its number and date
  doc.rect(left, 56, 36, 4).fill(COLORS.accent);
  write(title, left, 70, { width: half, size: 26, weight: 700 });
  write(r.number, left + half + 24, 72, { width: half, size: 14, weight: 700, align: 'right' });
  write(day(r.issued_at), left + half + 24, doc.y + 2, { width: half, size: 11, color: COLORS.muted, align: 'right' });
  let y = 130;
  if (credit && r.refers_to) {
    write(`Refund against receipt ${r.refers_to}`, left, y, { width, size: 11, color: COLORS.muted });
    y = doc.y + 14;
  }

  // who sold and who paid
  const block = (label: string, lines: string[], x: number) => {
    write(label.toUpperCase(), x, y, { width: half, size: 8, weight: 700, color: COLORS.muted });
    let at = doc.y + 4;
    lines.forEach((line, i) => {
      write(line, x, at, { width: half, size: 11, weight: i === 0 ? 700 : 400 });
      at = doc.y + 2;
    });
    return at;
  };
  const sellerLines = [r.seller.name, ...r.seller.address.split(/\r?\n/).filter((l) => l.trim())];
  const bottomA = block('From', sellerLines, left);
  const bottomB = block(credit ? 'Refunded to' : 'Billed to', [r.member.name, r.member.email], left + half + 24);
  y = Math.max(bottomA, bottomB) + 24;

  // the line, the tax it includes, the total
  const amountWidth = 140;
  const itemWidth = width - amountWidth - 12;
  write('ITEM', left, y, { width: itemWidth, size: 8, weight: 700, color: COLORS.muted });
  write('AMOUNT', left + width - amountWidth, y, {
    width: amountWidth,
    size: 8,
    weight: 700,
    color: COLORS.muted,
    align: 'right',
  });
  y += 16;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(1)
    .strokeColor(COLORS.ink)
    .stroke();
  y += 10;
  write(r.item, left, y, { width: itemWidth, size: 12 });
  const itemBottom = doc.y;
  write(money(r.amount_cents), left + width - amountWidth, y, { width: amountWidth, size: 12, align: 'right' });
  y = Math.max(itemBottom, doc.y) + 10;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(0.5)
    .strokeColor(COLORS.rule)
    .stroke();
  y += 10;
  const taxText = r.tax.percent ? `${r.tax.label} (${r.tax.percent}%, included)` : r.tax.label;
  write(taxText, left, y, { width: itemWidth, size: 11, color: COLORS.muted });
  write(money(r.tax.amount_cents), left + width - amountWidth, y, {
    width: amountWidth,
    size: 11,
    color: COLORS.muted,
    align: 'right',
  });
  y = doc.y + 10;
  write(credit ? 'Total refunded' : 'Total paid', left, y, { width: itemWidth, size: 13, weight: 700 });
  write(money(r.amount_cents), left + width - amountWidth, y, {
    width: amountWidth,
    size: 13,
    weight: 700,
    align: 'right',
  });
  y = doc.y + 24;

  write('PAYMENT METHOD', left, y, { width, size: 8, weight: 700, color: COLORS.muted });
  write(credit ? `Refunded to ${r.payment_method}` : r.payment_method, left, doc.y + 4, { width, size: 11 });
  y = doc.y + 28;
  write(`${r.seller.name} · ${title} ${r.number} · ${day(r.issued_at)}`, left, y, {
    width,
    size: 9,
    color: COLORS.muted,
  });
  doc.end();
  return done;
}
