import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';
import { flag, idSchema } from './http.ts';

/** wording and numbers for the learning area (docs/product/learning.md) */
export const LEARNING = {
  bookmarkSaved: 'Saved to My Practice!',
  journalMaxExercises: 10,
  placementQuestions: 10,
  reviewBodyRequired: 'The body is required.',
  reviewFallback: 'Your request could not be processed. Please refresh the page and try again.',
  membersOnly: 'This lesson is for members. Become a member to watch it and track your progress.',
} as const;

/**
 * Placement: the stage NUMBER comes from one banding table and the stage TITLE from another
 * (the two differ; both are kept exactly as given: docs/product/placement.md).
 */
export function stageFromScore(score: number): 1 | 2 | 3 | 4 | 5 {
  if (score <= 11) return 1;
  if (score <= 19) return 2;
  if (score <= 27) return 3;
  if (score <= 33) return 4;
  return 5;
}

export function stageTitleFromScore(score: number): string {
  if (score <= 9) return 'Basics Builder';
  if (score <= 17) return 'Coordination Conquest';
  if (score <= 25) return 'Intermediate Icon';
  if (score <= 33) return 'On The Rise';
  return 'Master Drummer';
}

/** The practice timer submits elapsed time in minutes, rounded up, at least 1. */
export function minutesFromSeconds(seconds: number): number {
  return Math.max(1, Math.ceil(Math.max(0, seconds) / 60));
}

/** HH:MM:SS for the timer display. */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** The elapsed time in words, for a screen reader: "1 hour 2 minutes 5 seconds", "0 seconds". */
export function spokenElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const parts: Array<[number, string]> = [
    [Math.floor(s / 3600), 'hour'],
    [Math.floor((s % 3600) / 60), 'minute'],
    [s % 60, 'second'],
  ];
  const said = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`);
  return said.length ? said.join(' ') : '0 seconds';
}

/** What the practice timer says politely: once per start, pause and log, never once per tick. */
export const TIMER_WORDS = {
  started: (elapsed: number) => (elapsed > 0 ? `Timer started again at ${spokenElapsed(elapsed)}.` : 'Timer started.'),
  paused: (elapsed: number) => `Timer paused at ${spokenElapsed(elapsed)}.`,
  logging: (minutes: number) => `Logging ${minutes} minute${minutes === 1 ? '' : 's'} of practice.`,
  logged: (minutes: number) => `Logged ${minutes} minute${minutes === 1 ? '' : 's'} of practice.`,
};

// ---- calls ----

export const bookmarkBodySchema = z.object({ lesson_id: idSchema, bookmarked: flag });
export const lessonCompletionBodySchema = z.object({ lesson_id: idSchema, complete: flag });
export const pathCompletionBodySchema = z.object({ soundslice_path_id: idSchema, complete: flag });
export const stageCheckmarkBodySchema = z.object({
  stage_id: idSchema,
  hash_id: z.string().regex(/^[a-f0-9]{16}$/, 'The hash id is invalid.'),
  completed: flag,
});
export const setStageBodySchema = z.object({
  stage: z.coerce
    .number({ error: 'The stage must be between 1 and 5.' })
    .int()
    .min(1, 'The stage must be between 1 and 5.')
    .max(5, 'The stage must be between 1 and 5.'),
});
export const statusBodySchema = z.object({
  status: z
    .string({ error: 'The status field is required.' })
    .trim()
    .max(280, 'The status may not be greater than 280 characters.'),
});
export const timezoneBodySchema = z.object({
  timezone: z
    .string()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'The timezone is invalid.'),
});

const tempo = z.string().trim().max(4, 'Tempos have at most 4 digits.').regex(/^\d*$/, 'Tempos are numbers (bpm).');
export const journalExerciseSchema = z.object({
  practicedToday: z
    .string()
    .overwrite(cleanDisplayText)
    .trim()
    .max(200, 'An exercise name may not be greater than 200 characters.'),
  startingTempo: tempo,
  endingTempo: tempo,
});
export type JournalExercise = z.infer<typeof journalExerciseSchema>;

/** The journal form posts its rows as one hidden field `exercises` holding JSON. */
export const journalEntryBodySchema = z.object({
  exercises: z
    .string({ error: 'Add at least one exercise.' })
    .max(20_000)
    .transform((raw, ctx) => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'The exercises could not be read.' });
        return z.NEVER;
      }
    })
    .pipe(
      z
        .array(journalExerciseSchema)
        .min(1, 'Add at least one exercise.')
        .max(LEARNING.journalMaxExercises, `A journal entry has at most ${LEARNING.journalMaxExercises} exercises.`)
        .refine((rows) => rows.some((r) => r.practicedToday !== ''), 'Name at least one exercise you practised.'),
    ),
  notes: z.string().trim().max(2000, 'The notes may not be greater than 2000 characters.').optional(),
});

export const logTimeBodySchema = z.object({
  minutes_practiced: z.coerce
    .number({ error: 'The minutes practiced must be a number.' })
    .int('The minutes practiced must be a whole number.')
    .min(1, 'The minutes practiced must be at least 1.')
    .max(24 * 60, 'The minutes practiced may not be greater than 1440.'),
});

/** image uploads (docs/product/uploads.md) */
export const UPLOADS = {
  imageMaxBytes: 3_000_000,
  imageHint: '3 MB max (jpg, jpeg, png, gif)',
  imageWrongType: 'Only jpg, jpeg, png, and gif files are accepted.',
  imageTooBig: 'The file may not be greater than 3 MB.',
  imageExtensions: ['jpg', 'jpeg', 'png', 'gif'],
  avatarMaxBytes: 1024 * 1024,
  avatarFailed: 'Upload failed. Extensions: jpeg, png, jpg, gif. Maximum size: 1 MB.',
} as const;

/** The client-side check of the profile image modal: extension (case-insensitive) and size. */
export function checkImageFile(name: string, size: number): string | null {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  if (!(UPLOADS.imageExtensions as readonly string[]).includes(ext) || !name.includes('.'))
    return UPLOADS.imageWrongType;
  if (size > UPLOADS.imageMaxBytes) return UPLOADS.imageTooBig;
  return null;
}

/** POST /contact/send: a student review is marked studentReview "1". */
export const contactBodySchema = z.object({
  subject: z.string().trim().max(200, 'The subject may not be greater than 200 characters.').optional().default(''),
  body: z
    .string({ error: LEARNING.reviewBodyRequired })
    .trim()
    .min(1, LEARNING.reviewBodyRequired)
    .max(5000, 'The body may not be greater than 5000 characters.'),
  studentReview: z
    .union([z.literal('1'), z.literal(1), z.literal(true), z.literal('0'), z.literal(0), z.literal(false)])
    .optional(),
});

/** the quiz (docs/product/learning.md) */
export const QUIZ = {
  passScore: 70,
  progressStart: 10,
  passed: 'Congratulations!',
  completed: 'Completed',
} as const;
export const isImageOption = (text: string) => /^(https?:\/\/|\/)\S+\.(gif|jpe?g|png)$/i.test(text.trim());
/** Quiz progress bar: starts at 10 percent and fills as questions are answered. */
export const quizProgress = (answered: number, total: number) =>
  total === 0 ? 100 : Math.round(QUIZ.progressStart + ((100 - QUIZ.progressStart) * answered) / total);
/** Score in percent from the server's count of correct answers. */
export const quizScore = (correct: number, total: number) => (total === 0 ? 0 : Math.round((correct / total) * 100));
/** The flash text for points (docs/product/rewards.md). */
export const pointsMessage = (points: number, description: string) => `Earned ${points} point(s) - ${description}`;

export const quizBodySchema = z.object({
  id: idSchema,
  /** what the browser computed; the server recomputes from `answers` and decides */
  score: z.coerce.number().min(0).max(100).optional(),
  answers: z.array(z.coerce.number().int().min(0).max(50)).max(100, 'Too many answers.'),
});

export const POINTS = {
  lessonComplete: { points: 10, description: 'Lesson completed' },
  quizPassed: { points: 20, description: 'Quiz passed' },
  practiceLogged: { points: 5, description: 'Practice time logged' },
  journalEntry: { points: 5, description: 'Journal entry written' },
} as const;

// ---- what the learning calls answer (the academy pages, docs/product/learning.md) ----

export const progressSchema = z.object({ completed: z.number(), total: z.number(), percent: z.number() });
export type Progress = z.infer<typeof progressSchema>;

const courseFields = {
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  image_url: z.string().nullable(),
  members_only: z.boolean(),
  is_welcome: z.boolean(),
  locked: z.boolean(),
  progress: progressSchema,
};
export const courseSummarySchema = z.object(courseFields);
export type CourseSummary = z.infer<typeof courseSummarySchema>;
/** GET /api/courses */
export const coursesAnswerSchema = z.object({ data: z.array(courseSummarySchema) });

export const courseDetailSchema = z.object({
  ...courseFields,
  lessons: z.array(
    z.object({
      id: z.number(),
      title: z.string(),
      description: z.string(),
      locked: z.boolean(),
      complete: z.boolean(),
    }),
  ),
});
export type CourseDetail = z.infer<typeof courseDetailSchema>;
/** GET /api/courses/{slug} */
export const courseAnswerSchema = z.object({ data: courseDetailSchema });

export const pathItemSchema = z.object({ id: z.number(), title: z.string(), url: z.string(), complete: z.boolean() });
export type PathItem = z.infer<typeof pathItemSchema>;
/** a lesson; one the viewer may not watch is `locked` with no video, paths or quiz (its answers never leave the server) */
export const lessonSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  course: z.object({ slug: z.string(), title: z.string() }),
  locked: z.boolean(),
  video_url: z.string().nullable(),
  complete: z.boolean(),
  bookmarked: z.boolean(),
  paths: z.array(pathItemSchema),
  next_lesson: z.object({ id: z.number(), title: z.string() }).nullable(),
  progress: progressSchema.nullable(),
  quiz: z
    .object({
      questions: z.array(
        z.object({ title: z.string(), imageUrl: z.string().nullable(), options: z.array(z.string()) }),
      ),
    })
    .nullable(),
});
export type Lesson = z.infer<typeof lessonSchema>;
/** GET /api/lessons/{id} */
export const lessonAnswerSchema = z.object({ data: lessonSchema });

export const bookmarkSchema = z.object({
  id: z.number(),
  title: z.string(),
  course_title: z.string(),
  course_slug: z.string(),
});
export type Bookmark = z.infer<typeof bookmarkSchema>;
/** GET /api/my-practice: the lessons the member saved, newest first */
export const bookmarksAnswerSchema = z.object({ data: z.array(bookmarkSchema) });

/** GET /api/continue: the next lesson the member has not completed (null: none left) */
export const continueAnswerSchema = z.object({
  data: z.object({ id: z.number(), title: z.string(), course_title: z.string() }).nullable(),
});
export type ContinueLesson = z.infer<typeof continueAnswerSchema>['data'];

export const stageSummarySchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  image_url: z.string().nullable(),
  current: z.boolean(),
  steps_total: z.number(),
  steps_done: z.number(),
});
export type StageSummary = z.infer<typeof stageSummarySchema>;
/** GET /api/stages */
export const stagesAnswerSchema = z.object({ data: z.array(stageSummarySchema) });

export const stageSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  image_url: z.string().nullable(),
  steps: z.array(z.object({ hash_id: z.string(), text: z.string(), completed: z.boolean() })),
});
export type Stage = z.infer<typeof stageSchema>;
/** GET /api/stages/{id} */
export const stageAnswerSchema = z.object({ data: stageSchema });

/** POST /lesson-bookmarks */
export const bookmarkAnswerSchema = z.object({ bookmarked: z.boolean() });
/** POST /lesson-completions: the course's progress after it */
export const lessonCompletionAnswerSchema = z.object({ complete: z.boolean(), progress: progressSchema });
export type LessonCompletionAnswer = z.infer<typeof lessonCompletionAnswerSchema>;
/** POST /soundslice-path-completions */
export const pathCompletionAnswerSchema = z.object({ complete: z.boolean() });
/** POST /stages/toggle-checkmark */
export const checkmarkAnswerSchema = z.object({ completed: z.boolean() });
/** POST /lessons/quiz: the server's count and score, each answer right or not (in order), and where to go next */
export const quizResultSchema = z.object({
  score: z.number(),
  passed: z.boolean(),
  correct: z.number(),
  total: z.number(),
  answers: z.array(z.boolean()),
  next_lesson_url: z.string(),
});
export type QuizResult = z.infer<typeof quizResultSchema>;
/** POST /placement/set-stage: the member's stage now (title null: a stage not in the table) */
export const setStageAnswerSchema = z.object({ stage: z.number(), title: z.string().nullable() });
/** POST /status */
export const statusAnswerSchema = z.object({ status: z.string(), status_updated_at: z.string() });
/** POST /dashboard/update-timezone */
export const timezoneAnswerSchema = z.object({ timezone: z.string() });
