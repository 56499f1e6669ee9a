import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { MetronomeSettings } from '#shared/metronome';
import { users } from './users.ts';

/** A member's saved metronome settings (the playlist), synced through /api/metronome_settings/. */
export const metronomeSettings = pgTable(
  'metronome_settings',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fav: boolean('fav').notNull().default(false),
    settings: jsonb('settings').$type<Omit<MetronomeSettings, 'id' | 'name' | 'fav'>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('metronome_settings_user_idx').on(t.userId)],
);

/**
 * Members whose saved list has been started: the first read of a list that is still empty puts the
 * default entry in it (docs/product/metronome.md), once; a member who deletes it does not get it back.
 */
export const metronomeLists = pgTable('metronome_lists', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});
