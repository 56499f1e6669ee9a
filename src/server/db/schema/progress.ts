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
import { lessons } from './learning.ts';
import { users } from './users.ts';

export interface QuizQuestion {
  title: string;
  imageUrl?: string | null;
  /** option text, or an image address ending gif, jpg, jpeg or png */
  options: string[];
  /** index of the correct option: never sent to the browser */
  correct: number;
}

export const lessonQuizzes = pgTable('lesson_quizzes', {
  lessonId: integer('lesson_id')
    .primaryKey()
    .references(() => lessons.id, { onDelete: 'cascade' }),
  questions: jsonb('questions').$type<QuizQuestion[]>().notNull(),
});

export const quizAttempts = pgTable(
  'quiz_attempts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lessonId: integer('lesson_id')
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    score: integer('score').notNull(),
    passed: boolean('passed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('quiz_attempts_user_idx').on(t.userId, t.lessonId)],
);

/** Every point ever earned; `reason` makes each action pay once. */
export const pointsLedger = pgTable(
  'points_ledger',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    points: integer('points').notNull(),
    reason: text('reason').notNull(),
    description: text('description').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('points_ledger_reason_unique').on(t.userId, t.reason)],
);

export const achievements = pgTable('achievements', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  imageUrl: text('image_url').notNull(),
  /** what is counted: points, lessons, quizzes, practice_minutes, journal_entries */
  rule: text('rule').notNull(),
  threshold: integer('threshold').notNull(),
  position: integer('position').notNull().default(0),
});

export const userAchievements = pgTable(
  'user_achievements',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    achievementId: integer('achievement_id')
      .notNull()
      .references(() => achievements.id, { onDelete: 'cascade' }),
    unlockedAt: timestamp('unlocked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.achievementId] })],
);
