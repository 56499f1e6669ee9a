import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const courses = pgTable('courses', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  imageUrl: text('image_url'),
  membersOnly: boolean('members_only').notNull().default(true),
  isWelcome: boolean('is_welcome').notNull().default(false),
  /** 'mentorship' courses are the mentorship area's lessons: not listed at /courses */
  area: text('area', { enum: ['main', 'mentorship'] })
    .notNull()
    .default('main'),
  position: integer('position').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const lessons = pgTable(
  'lessons',
  {
    id: serial('id').primaryKey(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    videoUrl: text('video_url'),
    membersOnly: boolean('members_only').notNull().default(true),
    /** an admin's choice of the lesson that follows; null = the next one in the course's order */
    nextLessonId: integer('next_lesson_id'),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lessons_course_idx').on(t.courseId, t.position)],
);

/** Notation ("sound-slice") paths of a lesson. */
export const soundslicePaths = pgTable('soundslice_paths', {
  id: serial('id').primaryKey(),
  lessonId: integer('lesson_id')
    .notNull()
    .references(() => lessons.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  url: text('url').notNull(),
  position: integer('position').notNull().default(0),
});

export const stages = pgTable('stages', {
  id: integer('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  imageUrl: text('image_url'),
});

export const stageSteps = pgTable('stage_steps', {
  id: serial('id').primaryKey(),
  stageId: integer('stage_id')
    .notNull()
    .references(() => stages.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  position: integer('position').notNull().default(0),
});

// ---- per-user progress ----

const userRef = () =>
  integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export const lessonBookmarks = pgTable(
  'lesson_bookmarks',
  {
    userId: userRef(),
    lessonId: integer('lesson_id')
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.lessonId] })],
);

export const lessonCompletions = pgTable(
  'lesson_completions',
  {
    userId: userRef(),
    lessonId: integer('lesson_id')
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.lessonId] })],
);

export const soundslicePathCompletions = pgTable(
  'soundslice_path_completions',
  {
    userId: userRef(),
    pathId: integer('soundslice_path_id')
      .notNull()
      .references(() => soundslicePaths.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.pathId] })],
);

/** A ticked checklist step; a step is identified by a hash of its text. */
export const stageStepChecks = pgTable(
  'stage_step_checks',
  {
    userId: userRef(),
    stageId: integer('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    hashId: text('hash_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.stageId, t.hashId] })],
);

export const journalEntries = pgTable(
  'journal_entries',
  {
    id: serial('id').primaryKey(),
    userId: userRef(),
    exercises: jsonb('exercises')
      .$type<Array<{ practicedToday: string; startingTempo: string; endingTempo: string }>>()
      .notNull(),
    notes: text('notes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('journal_entries_user_idx').on(t.userId, t.createdAt)],
);

/** Time logged with the practice timer. `day` is the member's local date (their time zone). */
export const practiceSessions = pgTable(
  'practice_sessions',
  {
    id: serial('id').primaryKey(),
    userId: userRef(),
    minutes: integer('minutes').notNull(),
    day: text('day').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('practice_sessions_user_idx').on(t.userId, t.day)],
);
