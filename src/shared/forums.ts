import { COMMUNITY, type PostDto } from './community.ts';

// Forums (spec 001 "Topic modal", §7 topic calls; issue 5 forum home, categories, topics).

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

/** GET /forums/api/topic/{id}: spec 001 §3 "Topic" plus what the pages need */
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
