import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';
import { adminListQuerySchema, adminPageSchema, adminUrlSchema } from './admin.ts';
import { LIVE, LIVE_MESSAGES, LIVE_STATUSES, scheduleShowSchema, toEmbedUrl } from './live.ts';

// The admin console's community pages (docs/product/admin-console.md): moderation, forum categories, live shows, and a
// member's community history. Request schemas are shared by the routes and the forms.

// --- Moderation ---------------------------------------------------------------------------------

export const MODERATION_KINDS = ['post', 'topic', 'chat', 'wall'] as const;
export type ModerationKind = (typeof MODERATION_KINDS)[number];
export const MODERATION_KIND_LABELS: Record<ModerationKind, string> = {
  post: 'Posts',
  topic: 'Topics',
  chat: 'Chat messages',
  wall: 'Wall comments',
};
export const MODERATION_STATES = ['visible', 'hidden'] as const;
export type ModerationState = (typeof MODERATION_STATES)[number];
export const MODERATION_ACTIONS = ['hide', 'restore', 'delete'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const moderationQuerySchema = adminListQuerySchema.extend({
  kind: z.enum(MODERATION_KINDS, { error: 'Choose posts, topics, chat messages or wall comments.' }).default('post'),
  state: z.union([z.enum(MODERATION_STATES), z.literal('')], { error: 'Choose visible or hidden.' }).optional(),
});
export type ModerationQuery = z.infer<typeof moderationQuerySchema>;

export const moderationParamsSchema = z.object({
  kind: z.enum(MODERATION_KINDS),
  id: z.coerce.number().int().positive().max(2_147_483_647),
});
export const moderationActionSchema = z.object({
  action: z.enum(MODERATION_ACTIONS, { error: 'Choose hide, restore or delete.' }),
});

export const moderationItemSchema = z.object({
  kind: z.enum(MODERATION_KINDS),
  id: z.number(),
  /** the topic's title (topics) */
  title: z.string().nullable(),
  /** the start of the text */
  excerpt: z.string(),
  author: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** where it is on the site */
  where: z.object({ label: z.string(), url: z.string().nullable() }),
  state: z.enum(MODERATION_STATES),
  created_at: z.string(),
});
export type ModerationItem = z.infer<typeof moderationItemSchema>;
/** GET /api/admin/moderation */
export const moderationPageSchema = adminPageSchema(moderationItemSchema);
/** POST /api/admin/moderation/:kind/:id: the thing's state after the action */
export const moderationResultSchema = z.object({
  data: z.object({
    kind: z.enum(MODERATION_KINDS),
    id: z.number(),
    state: z.enum([...MODERATION_STATES, 'deleted']),
  }),
});

export const MODERATION_MESSAGES = {
  firstPost: "This post holds its topic's text: hide or delete the topic instead.",
  hidden: 'Hidden. Members no longer see it.',
  restored: 'Restored. Members see it again.',
  deleted: 'Deleted for good.',
} as const;

// --- Forum categories ---------------------------------------------------------------------------

export const CATEGORY = { titleMax: 100, slugMax: 60, descriptionMax: 500, positionMax: 10_000 } as const;
export const CATEGORY_MESSAGES = {
  titleRequired: 'The title field is required.',
  titleTooLong: `The title may not be greater than ${CATEGORY.titleMax} characters.`,
  slugRequired: 'The slug field is required.',
  slugFormat: 'The slug may only contain lower-case letters, numbers and dashes.',
  slugTooLong: `The slug may not be greater than ${CATEGORY.slugMax} characters.`,
  slugTaken: 'The slug has already been taken.',
  descriptionTooLong: `The description may not be greater than ${CATEGORY.descriptionMax} characters.`,
  positionInvalid: `The position must be a whole number from 0 to ${CATEGORY.positionMax}.`,
  notEmpty: (n: number) => `This category still holds ${n} ${n === 1 ? 'topic' : 'topics'}: move or delete them first.`,
} as const;

export const categorySchema = z.object({
  title: z
    .string({ error: CATEGORY_MESSAGES.titleRequired })
    .overwrite(cleanDisplayText)
    .trim()
    .min(1, CATEGORY_MESSAGES.titleRequired)
    .max(CATEGORY.titleMax, CATEGORY_MESSAGES.titleTooLong),
  slug: z
    .string({ error: CATEGORY_MESSAGES.slugRequired })
    .trim()
    .min(1, CATEGORY_MESSAGES.slugRequired)
    .max(CATEGORY.slugMax, CATEGORY_MESSAGES.slugTooLong)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, CATEGORY_MESSAGES.slugFormat),
  description: z.string().trim().max(CATEGORY.descriptionMax, CATEGORY_MESSAGES.descriptionTooLong).default(''),
  /** no position: after the last category */
  position: z.coerce
    .number({ error: CATEGORY_MESSAGES.positionInvalid })
    .int(CATEGORY_MESSAGES.positionInvalid)
    .min(0, CATEGORY_MESSAGES.positionInvalid)
    .max(CATEGORY.positionMax, CATEGORY_MESSAGES.positionInvalid)
    .optional(),
});
export type CategoryInput = z.input<typeof categorySchema>;
export const categoryMoveSchema = z.object({ direction: z.enum(['up', 'down'], { error: 'Choose up or down.' }) });

export const adminCategorySchema = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  position: z.number(),
  topics: z.number(),
  url: z.string(),
});
export type AdminCategory = z.infer<typeof adminCategorySchema>;
export const adminCategoryPageSchema = adminPageSchema(adminCategorySchema);
/** a category's create (201), read, edit and move */
export const adminCategoryAnswerSchema = z.object({ data: adminCategorySchema });

// --- Live shows ---------------------------------------------------------------------------------

export const liveShowQuerySchema = adminListQuerySchema.extend({
  status: z.union([z.enum(LIVE_STATUSES), z.literal('')], { error: 'Choose upcoming, live or ended.' }).optional(),
});

/**
 * create and edit: the live module's own show schema (title, description, starts_at), but the video
 * is checked as a console address first (https or a path on this site), then as a YouTube or Vimeo embed (or empty)
 */
export const liveShowSchema = scheduleShowSchema.extend({
  video_url: adminUrlSchema('video address', LIVE.videoUrlMax)
    .refine((s) => s === '' || toEmbedUrl(s) !== null, LIVE_MESSAGES.videoUrlInvalid)
    .default(''),
});
export type LiveShowInput = z.input<typeof liveShowSchema>;
export const liveShowStatusSchema = z.object({
  status: z.enum(LIVE_STATUSES, { error: 'Choose upcoming, live or ended.' }),
});
export const liveShowChatSchema = z.object({ open: z.boolean({ error: 'Choose open or closed.' }) });
export const LIVE_TOPIC_MAX = 500;
export const liveShowTopicSchema = z.object({
  topic: z
    .string()
    .trim()
    .max(LIVE_TOPIC_MAX, `The topic may not be greater than ${LIVE_TOPIC_MAX} characters.`)
    .default(''),
});

export const adminLiveShowSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  starts_at: z.string(),
  status: z.enum(LIVE_STATUSES),
  video_url: z.string().nullable(),
  chat_open: z.boolean(),
  topic: z.string().nullable(),
  messages: z.number(),
  url: z.string(),
});
export type AdminLiveShow = z.infer<typeof adminLiveShowSchema>;
export const adminLiveShowPageSchema = adminPageSchema(adminLiveShowSchema);
/** a show's create (201), read, edit, status, chat and topic */
export const adminLiveShowAnswerSchema = z.object({ data: adminLiveShowSchema });

// --- A member's community history (for the People pages) ---------------------------------------

export const memberCommunitySchema = z.object({
  counts: z.object({
    posts: z.number(),
    topics: z.number(),
    chat: z.number(),
    wall: z.number(),
    reports_against: z.number(),
  }),
  posts: z.array(moderationItemSchema),
  topics: z.array(moderationItemSchema),
  chat: z.array(moderationItemSchema),
  wall: z.array(moderationItemSchema),
  reports_against: z.array(
    z.object({
      id: z.number(),
      kind: z.enum(['post', 'chat', 'wall']),
      target_id: z.number(),
      reason: z.string(),
      status: z.string(),
      created_at: z.string(),
    }),
  ),
});
export type MemberCommunity = z.infer<typeof memberCommunitySchema>;
/** GET /api/admin/members/:id/community */
export const memberCommunityAnswerSchema = z.object({ data: memberCommunitySchema });
