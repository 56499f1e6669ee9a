import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Song } from '#shared/songmapper';
import { users } from './users.ts';

/** The song mapper's songs. The id is random (see songIdSchema): the share link is the only key. */
export const songs = pgTable(
  'songs',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    song: jsonb('song').$type<Song>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('songs_user_updated_idx').on(t.userId, t.updatedAt)],
);

/** A member's saved song templates; a title is unique per member (saving again replaces it). */
export const songTemplates = pgTable(
  'song_templates',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    song: jsonb('song').$type<Song>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('song_templates_user_title_idx').on(t.userId, t.title)],
);
