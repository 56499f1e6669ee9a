/**
 * One byte range of an HTTP Range header (RFC 9110 §14): `bytes=start-end`, `bytes=start-` or
 * `bytes=-suffix`. Several ranges are answered with the first (browsers' video players ask for one).
 * Returns null when there is no usable Range header (send the whole file), 'unsatisfiable' for a
 * range outside the file (416).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*(?:,.*)?$/i.exec(header.trim());
  if (!m) return null;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return null;
  if (size === 0) return 'unsatisfiable';
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
