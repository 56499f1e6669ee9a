import { ValidationError } from '#server/lib/errors';

/** a unique index refused the write (PostgreSQL 23505), on the error itself or the driver error it wraps */
export const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } } | null | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * Runs a write whose slug was checked free first: a race lost to another admin (the unique index
 * refuses it) still answers as the slug field's message.
 */
export async function guardSlug<T>(message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ValidationError({ slug: [message] });
    throw err;
  }
}
