import { z } from 'zod';

/** Every error answer: `{message}`; validation failures (422) add `errors` (field -> messages). */
export const errorResponseSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const HTTP = {
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  csrf: 419,
  validation: 422,
  rateLimited: 429,
} as const;

/** A checkbox or flag sent as JSON boolean, "1"/"0", "true"/"false" or "on" by a form. */
export const flag = z
  .union([z.boolean(), z.literal(1), z.literal(0), z.enum(['1', '0', 'true', 'false', 'on', 'off', ''])])
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on');

/** A positive integer id, from JSON numbers or form strings. */
export const idSchema = z.coerce.number().int().positive().max(2_147_483_647);

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
