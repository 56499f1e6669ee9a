/** The commerce forms show dollars; the API takes integer cents. */

/** cents → the text of a dollars field ("29", "29.50"; "" for null) */
export const centsText = (cents: number | null | undefined) =>
  cents === null || cents === undefined ? '' : cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);

/** a dollars field → cents: NaN when it is not a number (the shared schema then names the field) */
export function toCents(text: string): number {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^-?\d+(\.\d{1,2})?$/.test(t)) return Number.NaN;
  return Math.round(Number(t) * 100);
}

/** a dollars field that may be empty → cents or null */
export const toCentsOrNull = (text: string) => (text.trim() === '' ? null : toCents(text));

/** a whole-number field → number (NaN when not one); empty → null when allowed */
export const toInt = (text: string) => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);
export const toIntOrNull = (text: string) => (text.trim() === '' ? null : toInt(text));
