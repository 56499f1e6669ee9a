/**
 * The SQLSTATE of a database error, or '' (drizzle wraps the driver's error in `cause`, and a
 * service may wrap that again, so the code may sit up to three levels down). Network errors
 * ('ECONNREFUSED'...) are not SQLSTATEs.
 */
export function sqlState(error: unknown): string {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return '';
}

/** a unique index refused the write (PostgreSQL and PGlite both say 23505) */
export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

/** the name of the constraint or unique index a database error names, or '' */
export function violatedConstraint(error: unknown): string {
  for (
    let e = error as { constraint?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.constraint === 'string') return e.constraint;
  }
  return '';
}
