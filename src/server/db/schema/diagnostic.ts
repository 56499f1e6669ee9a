import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Foot-speed diagnostic leads: name, email, answers and scores. */
export const diagnosticLeads = pgTable(
  'diagnostic_leads',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    skill: text('skill').notNull(),
    pedal: text('pedal').notNull(),
    tempo: integer('tempo'),
    scores: jsonb('scores').$type<Record<string, number>>().notNull(),
    primaryKiller: text('primary_killer').notNull(),
    answers: jsonb('answers').$type<Array<number | string>>().notNull(),
    answersText: text('answers_text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('diagnostic_leads_created_idx').on(t.createdAt)],
);
