import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Every change an admin makes through the console: who, what, when, before and after.
 * Rows are only ever inserted, in the same transaction as the change they describe.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** the actor's name when the change was made (kept if the account goes) */
    actorName: text('actor_name').notNull(),
    /** dotted verb, e.g. "course.update", "member.suspend", "order.refund" */
    action: text('action').notNull(),
    /** what was changed: "course", "member", "order"... and its id */
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** one line for the log list, e.g. the course title or the member's email */
    summary: text('summary').notNull().default(''),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt, t.id),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id),
    index('audit_log_actor_idx').on(t.actorId, t.id),
  ],
);

/**
 * Settings the site owner edits in the console instead of in code: placement questions, foot-speed
 * plan links, mentorship prices and flags, retention offers... One JSON value per key, each read
 * through its shared zod schema with the shared constants as the default.
 */
export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
