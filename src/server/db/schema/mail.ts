import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Every mail the app means to send, one row per mail (docs/mail.md). `key` names the mail (a welcome
 * to one member, the receipt of one payment): the unique index lets the same mail be asked for any
 * number of times, by any number of processes, and still be queued once. Its delivery job reads the
 * row, and a row already delivered is never sent again.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull().unique(),
    kind: text('kind').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** an address of its own (a mail to a member's old address); else the member's current one */
    address: text('address'),
    data: jsonb('data').notNull(),
    /** queued, sent (over SMTP), kept (no SMTP_URL: the admins' outbox), skipped (turned off), failed */
    status: text('status', { enum: ['queued', 'sent', 'kept', 'skipped', 'failed'] })
      .notNull()
      .default('queued'),
    tries: integer('tries').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [index('mail_messages_user_idx').on(t.userId, t.createdAt)],
);

/** A member's choice for one notification topic; a topic without a row follows its default. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    topic: text('topic').notNull(),
    inApp: boolean('in_app').notNull(),
    email: boolean('email').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.topic] })],
);
