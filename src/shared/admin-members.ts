import { z } from './zod.ts';
import { adminListQuerySchema, adminPageSchema } from './admin.ts';
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

export const adminMemberRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  slug: z.string(),
  avatar_url: z.string(),
  role: z.enum(['member', 'admin']),
  is_mentor: z.boolean(),
  suspended_at: z.string().nullable(),
  entitlements: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminMemberRow = z.infer<typeof adminMemberRowSchema>;
/** GET /api/admin/members */
export const adminMemberPageSchema = adminPageSchema(adminMemberRowSchema);
/** POST /api/admin/members/:id/role, /suspend, /unsuspend: the member as the list shows them */
export const adminMemberAnswerSchema = z.object({ data: adminMemberRowSchema });

export const adminEntitlementSchema = z.object({
  id: z.number(),
  kind: z.string(),
  source: z.string(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  active: z.boolean(),
});
export type AdminEntitlement = z.infer<typeof adminEntitlementSchema>;
/** POST /api/admin/members/:id/entitlements (201) and .../revoke */
export const adminEntitlementAnswerSchema = z.object({ data: adminEntitlementSchema });

export const historyFactSchema = z.object({
  count: z.number(),
  /** when the latest one happened */
  latest: z.string().nullable(),
});
export type HistoryFact = z.infer<typeof historyFactSchema>;

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

/** GET /api/admin/members/:id */
export const adminMemberDetailSchema = z.object({
  member: adminMemberRowSchema.extend({
    profile_url: z.string(),
    timezone: z.string().nullable(),
    stage: z.string().nullable(),
    signup_source: z.string().nullable(),
    suspended_reason: z.string().nullable(),
  }),
  history: z.object(
    Object.fromEntries(Object.keys(HISTORY_LABELS).map((key) => [key, historyFactSchema])) as Record<
      HistoryKey,
      typeof historyFactSchema
    >,
  ),
  entitlement_rows: z.array(adminEntitlementSchema),
});
export type AdminMemberDetail = z.infer<typeof adminMemberDetailSchema>;

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

export const adminMentorStudentSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  status: z.string().nullable(),
});
export type AdminMentorStudent = z.infer<typeof adminMentorStudentSchema>;
export const adminMentorSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  avatar_url: z.string(),
  is_mentor: z.boolean(),
  students: z.array(adminMentorStudentSchema),
});
export type AdminMentor = z.infer<typeof adminMentorSchema>;
/** GET /api/admin/mentors */
export const adminMentorsOverviewSchema = z.object({
  mentors: z.array(adminMentorSchema),
  unassigned: z.array(adminMentorStudentSchema),
});
export type AdminMentorsOverview = z.infer<typeof adminMentorsOverviewSchema>;

// ---- leads & reviews ----

export const adminLeadRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  skill: z.string(),
  pedal: z.string(),
  tempo: z.number().nullable(),
  scores: z.record(z.string(), z.number()),
  primary: z.string(),
  answers: z.string(),
  created_at: z.string(),
});
export type AdminLeadRow = z.infer<typeof adminLeadRowSchema>;
export const LEAD_SORTS = ['created_at', 'name', 'email', 'skill', 'pedal', 'primary'] as const;

export const adminReviewRowSchema = z.object({
  id: z.number(),
  subject: z.string(),
  body: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  user_id: z.number().nullable(),
  created_at: z.string(),
});
export type AdminReviewRow = z.infer<typeof adminReviewRowSchema>;
export const REVIEW_SORTS = ['created_at', 'name', 'email'] as const;
