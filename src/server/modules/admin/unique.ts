import { isUniqueViolation } from '#server/lib/db-errors';
import { ValidationError } from '#server/lib/errors';

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
