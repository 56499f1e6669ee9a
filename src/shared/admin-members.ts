import { z } from './zod.ts';
import { adminListQuerySchema } from './admin.ts';
import { siteLinkSchema } from './http.ts';

// The admin console's people pages (docs/product/admin-console.md): members, mentors, leads, reviews. The routes
// validate with these schemas and the pages check the same schemas before sending.

const optionalEnum = <T extends [string, ...string[]]>(values: T) =>
  z
    .union([z.enum(values), z.literal('')])
    .optional()
    .transform((v) => (v === '' ? undefined : v));

/** GET /api/admin/members: search in name, email and profile slug; filters; sort. */
export const memberListQuerySchema = adminListQuerySchema.extend({
  role: optionalEnum(['member', 'admin']),
  mentor: optionalEnum(['yes', 'no']),
  suspended: optionalEnum(['yes', 'no']),
  /** members holding this active entitlement kind ('membership', 'mentorship', 'course:...') */
  entitlement: z.string().trim().max(80).optional(),
});
export type MemberListQuery = z.infer<typeof memberListQuerySchema>;
export const MEMBER_SORTS = ['name', 'email', 'joined', 'updated'] as const;

export interface AdminMemberRow {
  id: number;
  name: string;
  email: string;
  slug: string;
  avatar_url: string;
  role: 'member' | 'admin';
  is_mentor: boolean;
  suspended_at: string | null;
  entitlements: string[];
  created_at: string;
  updated_at: string;
}

export interface AdminEntitlement {
  id: number;
  kind: string;
  source: string;
  starts_at: string;
  ends_at: string | null;
  revoked_at: string | null;
  active: boolean;
}

export interface HistoryFact {
  count: number;
  /** when the latest one happened */
  latest: string | null;
}

export const HISTORY_LABELS = {
  orders: 'Orders',
  subscriptions: 'Subscriptions',
  lessons_completed: 'Lessons completed',
  quiz_attempts: 'Quiz attempts',
  journal_entries: 'Journal entries',
  forum_topics: 'Forum topics',
  forum_posts: 'Forum posts',
  chat_messages: 'Chat messages',
  wall_comments: 'Wall comments',
  reports_made: 'Reports made',
  reports_against: 'Reports against them',
} as const;
export type HistoryKey = keyof typeof HISTORY_LABELS;

export interface AdminMemberDetail {
  member: AdminMemberRow & {
    profile_url: string;
    timezone: string | null;
    stage: string | null;
    signup_source: string | null;
    suspended_reason: string | null;
  };
  history: Record<HistoryKey, HistoryFact>;
  entitlement_rows: AdminEntitlement[];
}

export const MEMBER_TEXT = {
  kindInvalid: 'The kind must be membership, mentorship or course:<id or slug>.',
  kindRequired: 'The kind field is required.',
  endsInvalid: 'The end date must be a date in the future.',
  reasonRequired: 'The reason field is required.',
  reasonMax: 'The reason may not be greater than 500 characters.',
  ownAdmin: 'You cannot remove your own admin role.',
  ownSuspend: 'You cannot suspend your own account.',
  alreadySuspended: 'This member is already suspended.',
  notSuspended: 'This member is not suspended.',
  alreadyRevoked: 'This entitlement is already revoked.',
} as const;

/** POST /api/admin/members/:id/entitlements */
export const grantEntitlementSchema = z.object({
  kind: z
    .string({ error: MEMBER_TEXT.kindRequired })
    .trim()
    .min(1, MEMBER_TEXT.kindRequired)
    .max(80)
    .regex(/^(membership|mentorship|course:[a-z0-9][a-z0-9-]*)$/, MEMBER_TEXT.kindInvalid),
  /** YYYY-MM-DD (end of that day, UTC) or empty for no end */
  ends_at: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine(
      (v) =>
        v === undefined ||
        (/^\d{4}-\d{2}-\d{2}$/.test(v) &&
          !Number.isNaN(Date.parse(`${v}T23:59:59Z`)) &&
          Date.parse(`${v}T23:59:59Z`) > Date.now()),
      MEMBER_TEXT.endsInvalid,
    ),
});
export type GrantEntitlementInput = z.input<typeof grantEntitlementSchema>;

/** POST /api/admin/members/:id/role: either or both of role and mentor flag */
export const memberRoleSchema = z.object({
  role: z.enum(['member', 'admin'], { error: 'The selected role is invalid.' }).optional(),
  is_mentor: z.boolean().optional(),
});

/** POST /api/admin/members/:id/suspend */
export const suspendSchema = z.object({
  reason: z
    .string({ error: MEMBER_TEXT.reasonRequired })
    .trim()
    .min(1, MEMBER_TEXT.reasonRequired)
    .max(500, MEMBER_TEXT.reasonMax),
});

/** POST /api/admin/notifications (existing route; the member page's "send a notification") */
export const adminNotificationSchema = z.object({
  body: z
    .string({ error: 'The body field is required.' })
    .trim()
    .min(1, 'The body field is required.')
    .max(1000, 'The body may not be greater than 1000 characters.'),
  url: siteLinkSchema('link')
    .optional()
    .transform((v) => (v ? v : undefined)),
});

// ---- mentors ----

export interface AdminMentorStudent {
  id: number;
  name: string;
  email: string;
  status: string | null;
}
export interface AdminMentor {
  id: number;
  name: string;
  email: string;
  avatar_url: string;
  is_mentor: boolean;
  students: AdminMentorStudent[];
}
/** GET /api/admin/mentors */
export interface AdminMentorsOverview {
  mentors: AdminMentor[];
  unassigned: AdminMentorStudent[];
}

// ---- leads & reviews ----

export interface AdminLeadRow {
  id: number;
  name: string;
  email: string;
  skill: string;
  pedal: string;
  tempo: number | null;
  scores: Record<string, number>;
  primary: string;
  answers: string;
  created_at: string;
}
export const LEAD_SORTS = ['created_at', 'name', 'email', 'skill', 'pedal', 'primary'] as const;

export interface AdminReviewRow {
  id: number;
  subject: string;
  body: string;
  name: string | null;
  email: string | null;
  user_id: number | null;
  created_at: string;
}
export const REVIEW_SORTS = ['created_at', 'name', 'email'] as const;
