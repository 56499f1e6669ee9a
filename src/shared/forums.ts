import { z } from './zod.ts';
import { flag, idSchema } from './http.ts';
import { COMMUNITY, postDtoSchema } from './community.ts';
import { cleanDisplayText } from './display-text.ts';

// Forums: the forum home, categories and topics; their wording, answers and request bodies.

export const FORUM_MESSAGES = {
  titleRequired: 'The title field is required.',
  titleTooLong: `The title may not be greater than ${COMMUNITY.topicTitleMax} characters.`,
  bodyRequired: 'The body field is required.',
  bodyTooLong: `The body may not be greater than ${COMMUNITY.postBodyMax} characters.`,
  categoryRequired: 'Please choose a category.',
  categoryInvalid: 'The selected category is invalid.',
  noTopics: 'No topics yet. Start the first one!',
  topicCreated: 'Your topic is live.',
  newTopic: 'New topic',
  pinned: 'Pinned',
  locked: 'Locked',
  watch: 'Watch',
  watching: 'Watching',
  openFullTopic: 'Open full topic',
  actionFailed: 'There was an error with your request. Please refresh the page and try again.',
} as const;

export const forumCategoryDtoSchema = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  topicsCount: z.number(),
  /** newest activity among its visible topics */
  lastActivityAt: z.string().nullable(),
  latestTopic: z.object({ id: z.number(), title: z.string() }).nullable(),
});
export type ForumCategoryDto = z.infer<typeof forumCategoryDtoSchema>;
/** GET /api/forums: the forum home */
export const forumCategoriesAnswerSchema = z.object({ data: z.array(forumCategoryDtoSchema) });

export const topicListItemSchema = z.object({
  id: z.number(),
  title: z.string(),
  url: z.string(),
  pinned: z.boolean(),
  locked: z.boolean(),
  hidden: z.boolean(),
  numLikes: z.number(),
  numComments: z.number(),
  createdAt: z.string(),
  lastActivityAt: z.string(),
  user: z.object({ name: z.string(), permalink: z.string().nullable(), avatarUrl: z.string() }),
});
export type TopicListItem = z.infer<typeof topicListItemSchema>;

/** GET /api/forums/{slug}: a category and one page of its topics */
export const categoryPageSchema = z.object({
  category: forumCategoryDtoSchema,
  topics: z.array(topicListItemSchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type CategoryPage = z.infer<typeof categoryPageSchema>;

/** GET /forums/api/topic/{id}: the topic, with what the pages need */
export const topicDtoSchema = z.object({
  id: z.number(),
  title: z.string(),
  url: z.string(),
  createdAt: z.string(),
  authWatching: z.boolean(),
  authLiked: z.boolean(),
  numLikes: z.number(),
  numComments: z.number(),
  pinned: z.boolean(),
  locked: z.boolean(),
  hidden: z.boolean(),
  categoryId: z.number(),
  categorySlug: z.string(),
  categoryTitle: z.string(),
});
export type TopicDto = z.infer<typeof topicDtoSchema>;
export const topicUserDtoSchema = z.object({
  name: z.string(),
  permalink: z.string().nullable(),
  avatarUrl: z.string(),
  admin: z.boolean(),
});
export type TopicUserDto = z.infer<typeof topicUserDtoSchema>;
export const topicAnswerSchema = z.object({
  data: z.tuple([
    z.object({ topic: topicDtoSchema, user: topicUserDtoSchema.nullable(), posts: z.array(postDtoSchema) }),
  ]),
});
export type TopicAnswer = z.infer<typeof topicAnswerSchema>;

/** POST /api/forums/{slug}/topics (201): where the new topic is */
export const newTopicAnswerSchema = z.object({ topic: z.object({ id: z.number(), url: z.string() }) });
export type NewTopicAnswer = z.infer<typeof newTopicAnswerSchema>;

/** the topic buttons: watch, pin, lock (each answers the state it set), move (where the topic is now) */
export const watchAnswerSchema = z.object({ watching: z.boolean() });
export const pinAnswerSchema = z.object({ pinned: z.boolean() });
export const lockAnswerSchema = z.object({ locked: z.boolean() });
export const moveAnswerSchema = z.object({
  category_id: z.number(),
  categorySlug: z.string(),
  categoryTitle: z.string(),
  categoryUrl: z.string(),
});
export type MoveAnswer = z.infer<typeof moveAnswerSchema>;

export const topicUrl = (id: number) => `/forums/topic/${id}`;
export const categoryUrl = (slug: string) => `/forums/${slug}`;

// Request bodies of the forum calls.

/** POST /api/forums/{slug}/topics */
export const newTopicSchema = z.object({
  title: z
    .string({ error: FORUM_MESSAGES.titleRequired })
    .overwrite(cleanDisplayText)
    .trim()
    .min(1, FORUM_MESSAGES.titleRequired)
    .max(COMMUNITY.topicTitleMax, FORUM_MESSAGES.titleTooLong),
  body: z
    .string({ error: FORUM_MESSAGES.bodyRequired })
    .trim()
    .min(1, FORUM_MESSAGES.bodyRequired)
    .max(COMMUNITY.postBodyMax, FORUM_MESSAGES.bodyTooLong),
});
export type NewTopic = z.infer<typeof newTopicSchema>;

export const watchSchema = z.object({ watch: flag });
export const pinSchema = z.object({ pinned: flag });
export const lockSchema = z.object({ locked: flag });
export const moveSchema = z.object({
  category_id: z.coerce
    .number({ error: FORUM_MESSAGES.categoryRequired })
    .int(FORUM_MESSAGES.categoryInvalid)
    .positive(FORUM_MESSAGES.categoryRequired)
    .max(2_147_483_647, FORUM_MESSAGES.categoryInvalid),
});
export const topicLikeSchema = z.object({ model_id: idSchema });
