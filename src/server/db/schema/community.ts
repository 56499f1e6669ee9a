import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const forumCategories = pgTable('forum_categories', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  position: integer('position').notNull().default(0),
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
    pinned: boolean('pinned').notNull().default(false),
    locked: boolean('locked').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('forum_topics_category_idx').on(t.categoryId, t.lastActivityAt)],
);

/** Threaded posts on any resource (spec 001 "Post"): type 'forumtopic' or 'lesson', resource id. */
export const posts = pgTable(
  'posts',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    resourceId: integer('resource_id').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    parentId: integer('parent_id'),
    replyingToId: integer('replying_to_id'),
    body: text('body').notNull(),
    trashedAt: timestamp('trashed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('posts_resource_idx').on(t.type, t.resourceId, t.parentId)],
);

export const liveShows = pgTable('live_shows', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  videoUrl: text('video_url'),
  chatOpen: boolean('chat_open').notNull().default(false),
  topic: text('topic'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
