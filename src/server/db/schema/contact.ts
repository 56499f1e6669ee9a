import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Messages from the contact form; a student review is one with kind "review", a report of an
 * accessibility barrier one with kind "barrier" (from visitors too: `email` is where to answer them).
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['contact', 'review', 'barrier'] }).notNull(),
    subject: text('subject').notNull().default(''),
    body: text('body').notNull(),
    /** a barrier report: the address to answer (a visitor's, or the member's own) */
    email: text('email'),
    /** a barrier report: the page where it happened, as the reporter named it */
    page: text('page'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_messages_kind_idx').on(t.kind, t.createdAt)],
);
