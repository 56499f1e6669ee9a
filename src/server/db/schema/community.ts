import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const forumCategories = pgTable('forum_categories', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  position: integer('position').notNull().default(0),
  /**
   * kept by forum_topics' count trigger (drizzle/0023_forum_category_topic_counts.sql), never written by
   * the app: every topic of the category, and the ones not hidden (what a member sees)
   */
  topicsCount: integer('topics_count').notNull().default(0),
  visibleTopicsCount: integer('visible_topics_count').notNull().default(0),
});

export const forumTopics = pgTable(
  'forum_topics',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => forumCategories.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    /** the post that holds the topic's body (the first post holds the body); not part of the thread below it */
    firstPostId: integer('first_post_id'),
    pinned: boolean('pinned').notNull().default(false),
    locked: boolean('locked').notNull().default(false),
    /** exact: changed only together with a topic_likes row, in one statement */
    likesCount: integer('likes_count').notNull().default(0),
    /** replies, not counting the first post (which holds the topic's body) */
    commentsCount: integer('comments_count').notNull().default(0),
    /** moderation: hidden topics are shown to admins only */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // each category's latest topic (the forums index: DISTINCT ON in this order, which is ORDER BY … DESC,
    // nulls first) read in index order instead of sorting every topic
    index('forum_topics_latest_idx').on(t.categoryId, t.lastActivityAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('forum_topics_list_idx').on(t.categoryId, t.pinned, t.lastActivityAt, t.id),
  ],
);

export const topicLikes = pgTable(
  'topic_likes',
  {
    topicId: integer('topic_id')
      .notNull()
      .references(() => forumTopics.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.topicId, t.userId] })],
);

/** Watching a topic: watchers are notified of new posts in it. */
export const topicWatches = pgTable(
  'topic_watches',
  {
    topicId: integer('topic_id')
      .notNull()
      .references(() => forumTopics.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.topicId, t.userId] }), index('topic_watches_user_idx').on(t.userId)],
);

/** Threaded posts on any resource: type 'forumtopic' or 'lesson', resource id. */
export const posts = pgTable(
  'posts',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    resourceId: integer('resource_id').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** the top-level post this one replies under (null for a parent post) */
    parentId: integer('parent_id'),
    /** the post this one answers (a parent or another reply) */
    replyingToId: integer('replying_to_id'),
    body: text('body').notNull(),
    /** stored file names (attachments/...) of images attached to the post */
    attachments: jsonb('attachments').$type<string[]>().notNull().default([]),
    /** exact: changed only together with a post_likes row, in one statement */
    likesCount: integer('likes_count').notNull().default(0),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    trashedAt: timestamp('trashed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('posts_resource_idx').on(t.type, t.resourceId, t.parentId),
    // keyset paging of parents (newest first) and of a parent's replies (oldest first)
    index('posts_parents_idx')
      .on(t.type, t.resourceId, t.id)
      .where(sql`${t.parentId} is null`),
    index('posts_children_idx').on(t.parentId, t.id),
    index('posts_likes_idx')
      .on(t.type, t.resourceId, t.likesCount, t.id)
      .where(sql`${t.parentId} is null`),
  ],
);

export const postLikes = pgTable(
  'post_likes',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);

/** Earlier versions of an edited post (the body before each edit). */
export const postRevisions = pgTable(
  'post_revisions',
  {
    id: serial('id').primaryKey(),
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    editedById: integer('edited_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** when this version was replaced */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('post_revisions_post_idx').on(t.postId, t.id)],
);

/**
 * Uploaded post attachments. A file belongs to its uploader until a post uses it (postId set);
 * only an unposted file of one's own may be deleted through POST /attachments/delete.
 */
export const postAttachments = pgTable(
  'post_attachments',
  {
    id: serial('id').primaryKey(),
    /** stored path under uploads/, e.g. attachments/AbC...xyz.jpg */
    filename: text('filename').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: integer('post_id').references(() => posts.id, { onDelete: 'set null' }),
    bytes: integer('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('post_attachments_filename_unique').on(t.filename),
    index('post_attachments_user_idx').on(t.userId),
  ],
);

/** Members' reports of a post, chat message or wall comment; admins work through the queue. */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['post', 'chat', 'wall'] }).notNull(),
    targetId: integer('target_id').notNull(),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull().default(''),
    status: text('status', { enum: ['open', 'resolved', 'dismissed'] })
      .notNull()
      .default('open'),
    resolvedById: integer('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reports_once_unique').on(t.reporterId, t.kind, t.targetId),
    index('reports_queue_idx').on(t.status, t.id),
  ],
);

export const liveShows = pgTable('live_shows', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  videoUrl: text('video_url'),
  /** scheduled -> live -> ended */
  status: text('status', { enum: ['scheduled', 'live', 'ended'] })
    .notNull()
    .default('scheduled'),
  chatOpen: boolean('chat_open').notNull().default(false),
  topic: text('topic'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A member who follows a scheduled show: they are told (bell and e-mail) shortly before it starts. */
export const liveShowFollows = pgTable(
  'live_show_follows',
  {
    showId: integer('show_id')
      .notNull()
      .references(() => liveShows.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.showId, t.userId] })],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    showId: integer('show_id')
      .notNull()
      .references(() => liveShows.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    /** exact: changed only together with a chat_hearts row, in one statement; never below 0 */
    heartsCount: integer('hearts_count').notNull().default(0),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_messages_show_idx').on(t.showId, t.id)],
);

export const chatHearts = pgTable(
  'chat_hearts',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] })],
);

/** Profile wall comments: a comment on `toId`'s wall by `userId`; replies have parentId. */
export const wallComments = pgTable(
  'wall_comments',
  {
    id: serial('id').primaryKey(),
    toId: integer('to_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    parentId: integer('parent_id'),
    body: text('body').notNull(),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('wall_comments_wall_idx').on(t.toId, t.parentId, t.id),
    index('wall_comments_parent_idx').on(t.parentId, t.id),
  ],
);
