import { z } from './zod.ts';
import { flag, idSchema } from './http.ts';
import { COMMUNITY, type PostDto } from './community.ts';
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

export interface ForumCategoryDto {
  id: number;
  slug: string;
  title: string;
  description: string;
  topicsCount: number;
  /** newest activity among its visible topics */
  lastActivityAt: string | null;
  latestTopic: { id: number; title: string } | null;
}

export interface TopicListItem {
  id: number;
  title: string;
  url: string;
  pinned: boolean;
  locked: boolean;
  hidden: boolean;
  numLikes: number;
  numComments: number;
  createdAt: string;
  lastActivityAt: string;
  user: { name: string; permalink: string | null; avatarUrl: string };
}

export interface CategoryPage {
  category: ForumCategoryDto;
  topics: TopicListItem[];
  page: number;
  pages: number;
  total: number;
}

/** GET /forums/api/topic/{id}: the topic, with what the pages need */
export interface TopicDto {
  id: number;
  title: string;
  url: string;
  createdAt: string;
  authWatching: boolean;
  authLiked: boolean;
  numLikes: number;
  numComments: number;
  pinned: boolean;
  locked: boolean;
  hidden: boolean;
  categoryId: number;
  categorySlug: string;
  categoryTitle: string;
}
export interface TopicUserDto {
  name: string;
  permalink: string | null;
  avatarUrl: string;
  admin: boolean;
}
export interface TopicAnswer {
  data: [{ topic: TopicDto; user: TopicUserDto | null; posts: PostDto[] }];
}

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
