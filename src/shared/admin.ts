import { z } from './zod.ts';
import { asSitePath } from './http.ts';
import { siteAddress } from './redirect.ts';

// The admin console (docs/product/admin-console.md): what every list call takes and answers, the audit log's entries,
// the image upload the console's forms share, and the console's sections.

export const ADMIN_LIST = { perPage: 25, maxPerPage: 100, searchMax: 200 } as const;

/**
 * Every admin list: `?page=&per_page=&sort=&dir=&q=`. `sort` is checked against the list's own
 * sortable columns by the service (an unknown one falls back to the list's default order).
 */
export const adminListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(ADMIN_LIST.maxPerPage).default(ADMIN_LIST.perPage),
  sort: z.string().trim().max(40).optional(),
  dir: z.enum(['asc', 'desc']).optional(),
  q: z
    .string()
    .trim()
    .max(ADMIN_LIST.searchMax, `The search may not be greater than ${ADMIN_LIST.searchMax} characters.`)
    .optional(),
});
export type AdminListQuery = z.infer<typeof adminListQuerySchema>;

/** Where one page of an admin list stands (every list answers it around its rows). */
const adminPageFields = {
  page: z.number(),
  per_page: z.number(),
  pages: z.number(),
  total: z.number(),
  sort: z.string(),
  dir: z.enum(['asc', 'desc']),
};
/** Every admin list answers one page of rows and where it stands. */
export const adminPageSchema = <T extends z.ZodType>(row: T) => z.object({ data: z.array(row), ...adminPageFields });
export type AdminPage<T> = { data: T[] } & z.infer<z.ZodObject<typeof adminPageFields>>;

/** the answer of a console delete (a category, a live show, a course...) */
export const adminDeletedSchema = z.object({ ok: z.boolean() });

export const auditEntrySchema = z.object({
  id: z.number(),
  actor: z.object({ id: z.number().nullable(), name: z.string() }),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  summary: z.string(),
  /** the changed facts as the change's answer showed them (any JSON) */
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListQuerySchema = adminListQuerySchema.extend({
  target_type: z.string().trim().max(40).optional(),
  target_id: z.string().trim().max(40).optional(),
  actor_id: z.coerce.number().int().positive().optional(),
});

/** POST /api/admin/images (multipart, field "image"): the same content checks as members' uploads. */
export const ADMIN_IMAGE = {
  field: 'image',
  maxBytes: 5 * 1024 * 1024,
  maxSide: 2000,
  invalid: 'The image must be a file of type: jpg, jpeg, png, gif.',
  tooBig: 'The image may not be greater than 5 MB.',
} as const;
export const adminImageResponseSchema = z.object({
  /** the stored image's address, to put in a form's image field */
  url: z.string(),
});
export type AdminImageResponse = z.infer<typeof adminImageResponseSchema>;

/** an absolute https address (no spaces, no user name or password in it) */
const isHttpsAddress = (v: string) => {
  if (!/^https:\/\/[^\s]+$/i.test(v)) return false;
  try {
    const url = new URL(v);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
};

/**
 * An address an admin types into a form (video embed, image, notation, plan link): an https address
 * elsewhere, or a path on this site. A value shaped like a path that a browser would take to another
 * host ("/\\evil.example", "/.//evil.example") is neither, and is refused.
 */
export const adminUrlSchema = (field: string, max = 2000) =>
  z
    .string()
    .trim()
    .max(max, `The ${field} may not be greater than ${max} characters.`)
    .overwrite(asSitePath)
    .refine(
      (v) => v === '' || isHttpsAddress(v) || siteAddress(v) === v,
      `The ${field} must be an https:// address or a path on this site.`,
    );

// (in their own module: the signed-in frame's side menu shows them and must not load this module's schemas)
export { ADMIN_SECTIONS } from './admin-sections.ts';

/** GET /api/admin/overview: the console's front page figures. */
export const adminOverviewSchema = z.object({
  members: z.number(),
  new_members_30d: z.number(),
  active_subscriptions: z.number(),
  mentorship_students: z.number(),
  open_reports: z.number(),
  paid_orders_30d: z.number(),
  revenue_30d_cents: z.number(),
  leads_30d: z.number(),
  recent_changes: z.array(auditEntrySchema),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;
