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

/** Every admin list answers one page of rows and where it stands. */
export interface AdminPage<T> {
  data: T[];
  page: number;
  per_page: number;
  pages: number;
  total: number;
  sort: string;
  dir: 'asc' | 'desc';
}

export interface AuditEntry {
  id: number;
  actor: { id: number | null; name: string };
  action: string;
  target_type: string;
  target_id: string | null;
  summary: string;
  before: unknown;
  after: unknown;
  ip: string | null;
  created_at: string;
}

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
export interface AdminImageResponse {
  /** the stored image's address, to put in a form's image field */
  url: string;
}

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
export interface AdminOverview {
  members: number;
  new_members_30d: number;
  active_subscriptions: number;
  mentorship_students: number;
  open_reports: number;
  paid_orders_30d: number;
  revenue_30d_cents: number;
  leads_30d: number;
  recent_changes: AuditEntry[];
}
