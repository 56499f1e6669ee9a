import { z } from './zod.ts';
import { siteAddress } from './redirect.ts';

/** Every error answer: `{message}`; validation failures (422) add `errors` (field -> messages). */
export const errorResponseSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** `{redirect}`: where our client goes next (a plain form post hears a 303 there instead: redirectOrJson) */
export const redirectAnswerSchema = z.object({ redirect: z.string() });
export type RedirectAnswer = z.infer<typeof redirectAnswerSchema>;

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

/** `{data, page, pages, total}`: one page of rows, numbered from 1, and how many pages and rows there are */
export const rowsPageSchema = <T extends z.ZodType>(row: T) =>
  z.object({ data: z.array(row), page: z.number(), pages: z.number(), total: z.number() });

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/**
 * A path is stored as the address a browser will follow (`siteAddress`), so what was checked is
 * what members get; a value that is not a site address is left as typed for the check to refuse.
 */
export const asSitePath = (v: string) => (v.startsWith('/') ? (siteAddress(v) ?? v) : v);

/**
 * A stored link that must keep people on the site (a notification's "Open" button, a payment's way
 * back): only a path on this site (`siteAddress`), stored normalised; '' means no link.
 */
export const siteLinkSchema = (field: string, max = 500) =>
  z
    .string({ error: `The ${field} must be text.` })
    .trim()
    .max(max, `The ${field} may not be greater than ${max} characters.`)
    .overwrite(asSitePath)
    .refine(
      (v) => v === '' || siteAddress(v) === v,
      `The ${field} must be an address on this site, starting with a single "/" (for example /lessons/12).`,
    );
