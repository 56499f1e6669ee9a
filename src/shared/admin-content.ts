import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';
import { adminListQuerySchema, adminPageSchema, adminUrlSchema } from './admin.ts';
import { PEDALS, planKey, SKILLS } from './diagnostic.ts';
import { isImageOption, LEARNING } from './learning.ts';

// The admin console's content section (docs/product/admin-console.md): courses, lessons, notation paths, quizzes,
// stages, achievements, the placement questions and the foot-speed practice-plan links.

/**
 * The placement questions as the admin console saves them (site setting 'placement_questions').
 * Here rather than in placement.ts: the placement and lesson pages import that module for the default
 * questions and must not build (or load zod for) the admin's schemas.
 */
export const placementQuestionSchema = z.object({
  title: z
    .string({ error: 'The question field is required.' })
    .overwrite(cleanDisplayText)
    .trim()
    .min(1, 'The question field is required.')
    .max(300, 'A question may not be greater than 300 characters.'),
  options: z
    .array(
      z.object({
        text: z
          .string({ error: 'The option field is required.' })
          .trim()
          .min(1, 'The option field is required.')
          .max(200, 'An option may not be greater than 200 characters.'),
        points: z.coerce
          .number({ error: 'The points must be a number.' })
          .int('The points must be a whole number.')
          .min(0, 'The points must be at least 0.')
          .max(10, 'The points may not be greater than 10.'),
      }),
    )
    .min(2, 'A question needs at least 2 options.')
    .max(8, 'A question has at most 8 options.'),
});
export const placementQuestionsSchema = z.array(placementQuestionSchema).min(1).max(50);

export const CONTENT = {
  titleMax: 200,
  slugMax: 120,
  descriptionMax: 5000,
  pathsMax: 50,
  questionsMax: 50,
  optionsMax: 8,
  stepsMax: 100,
  stepMax: 500,
  slugTaken: 'The slug has already been taken.',
  nextLessonOther: 'The next lesson must be another lesson.',
  nextLessonUnknown: 'The next lesson does not exist.',
  stepHashHint: "Members tick steps by their text: changing a step's words clears the ticks members made on it.",
} as const;

const title = (field = 'title') =>
  z
    .string({ error: `The ${field} field is required.` })
    .overwrite(cleanDisplayText)
    .trim()
    .min(1, `The ${field} field is required.`)
    .max(CONTENT.titleMax, `The ${field} may not be greater than ${CONTENT.titleMax} characters.`);
const description = z
  .string()
  .trim()
  .max(CONTENT.descriptionMax, `The description may not be greater than ${CONTENT.descriptionMax} characters.`)
  .default('');
const slug = z
  .string({ error: 'The slug field is required.' })
  .trim()
  .min(1, 'The slug field is required.')
  .max(CONTENT.slugMax, `The slug may not be greater than ${CONTENT.slugMax} characters.`)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'The slug may only contain lower-case letters, numbers and dashes.');
const position = z.coerce
  .number({ error: 'The position must be a number.' })
  .int('The position must be a whole number.')
  .min(0, 'The position must be at least 0.')
  .max(100_000, 'The position may not be greater than 100000.')
  .default(0);
/** an optional image address: empty or null means none */
const optionalImage = (field: string) =>
  adminUrlSchema(field)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null));

/** "a title" -> "a-title" (the form proposes a slug from the title) */
export const slugify = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, CONTENT.slugMax);

// ---- courses ----

export const COURSE_AREAS = ['main', 'mentorship'] as const;
export type CourseArea = (typeof COURSE_AREAS)[number];

export const courseListQuerySchema = adminListQuerySchema.extend({
  area: z
    .enum(COURSE_AREAS)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
export const COURSE_SORTS = ['position', 'title', 'created_at'] as const;

export const courseBodySchema = z.object({
  title: title(),
  slug,
  description,
  image_url: optionalImage('image'),
  members_only: z.boolean().default(true),
  area: z.enum(COURSE_AREAS, { error: 'The area must be main or mentorship.' }).default('main'),
  is_welcome: z.boolean().default(false),
  position,
});
export type CourseBody = z.input<typeof courseBodySchema>;

const adminCourseFields = {
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  area: z.enum(COURSE_AREAS),
  members_only: z.boolean(),
  is_welcome: z.boolean(),
  position: z.number(),
  created_at: z.string(),
};
export const adminCourseRowSchema = z.object({
  ...adminCourseFields,
  /** how many lessons it has */
  lessons: z.number(),
});
export type AdminCourseRow = z.infer<typeof adminCourseRowSchema>;
/** GET /api/admin/courses */
export const adminCoursePageSchema = adminPageSchema(adminCourseRowSchema);

export const adminLessonRowSchema = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  members_only: z.boolean(),
  position: z.number(),
  next_lesson_id: z.number().nullable(),
});
export type AdminLessonRow = z.infer<typeof adminLessonRowSchema>;

export const adminCourseSchema = z.object({
  ...adminCourseFields,
  description: z.string(),
  image_url: z.string().nullable(),
  lessons: z.array(adminLessonRowSchema),
  /** members who completed one of its lessons (the delete confirmation says so) */
  members_with_progress: z.number(),
});
export type AdminCourse = z.infer<typeof adminCourseSchema>;
/** a course's create (201), read and edit, and a lesson's move (its course in the new order) */
export const adminCourseAnswerSchema = z.object({ data: adminCourseSchema });

/** DELETE of a course, stage or achievement */
export const adminContentDeletedSchema = z.object({ deleted: z.boolean() });
/** DELETE /api/admin/lessons/:id: also the course it was in (where the page goes back to) */
export const adminLessonDeletedSchema = adminContentDeletedSchema.extend({ course_id: z.number() });

// ---- lessons ----

export const lessonBodySchema = z.object({
  title: title(),
  slug,
  description,
  video_url: adminUrlSchema('video embed address')
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  members_only: z.boolean().default(true),
  position,
  next_lesson_id: z.coerce
    .number()
    .int()
    .positive()
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type LessonBody = z.input<typeof lessonBodySchema>;

export const lessonMoveSchema = z.object({
  direction: z.enum(['up', 'down'], { error: 'The direction must be up or down.' }),
});

export const pathSchema = z.object({
  title: title(),
  url: adminUrlSchema('address').refine((v) => v !== '', 'The address field is required.'),
});
export const pathsBodySchema = z.object({
  paths: z.array(pathSchema).max(CONTENT.pathsMax, `A lesson has at most ${CONTENT.pathsMax} notation paths.`),
});
export type PathsBody = z.input<typeof pathsBodySchema>;

export const quizQuestionSchema = z
  .object({
    title: title('question'),
    imageUrl: optionalImage('image'),
    options: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'The option field is required.')
          .max(500, 'An option may not be greater than 500 characters.')
          .refine(
            (v) => !/^(https?:)?\/\//i.test(v) || isImageOption(v),
            'An image option must be an address ending in gif, jpg, jpeg or png.',
          ),
      )
      .min(2, 'A question needs at least 2 options.')
      .max(CONTENT.optionsMax, `A question has at most ${CONTENT.optionsMax} options.`),
    correct: z.coerce.number({ error: 'Choose the correct answer.' }).int().min(0, 'Choose the correct answer.'),
  })
  .refine((q) => q.correct < q.options.length, { message: 'Choose the correct answer.', path: ['correct'] });
export const quizBodySchema = z.object({
  questions: z
    .array(quizQuestionSchema)
    .max(CONTENT.questionsMax, `A quiz has at most ${CONTENT.questionsMax} questions.`),
});
export type QuizBody = z.input<typeof quizBodySchema>;
export type AdminQuizQuestion = z.output<typeof quizQuestionSchema>;

export const adminLessonSchema = z.object({
  id: z.number(),
  course_id: z.number(),
  course: z.object({ id: z.number(), title: z.string(), slug: z.string(), area: z.enum(COURSE_AREAS) }),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  video_url: z.string().nullable(),
  members_only: z.boolean(),
  position: z.number(),
  next_lesson_id: z.number().nullable(),
  paths: z.array(z.object({ id: z.number(), title: z.string(), url: z.string(), position: z.number() })),
  /** the questions as saved (AdminQuizQuestion) */
  quiz: z.array(
    z.object({
      title: z.string(),
      imageUrl: z.string().nullable(),
      options: z.array(z.string()),
      correct: z.number(),
    }),
  ),
  /** every lesson, for the "next lesson" select */
  lesson_choices: z.array(z.object({ id: z.number(), title: z.string(), course_title: z.string() })),
  members_with_progress: z.number(),
});
export type AdminLesson = z.infer<typeof adminLessonSchema>;
/** a lesson's create (201), read, edit, paths and quiz */
export const adminLessonAnswerSchema = z.object({ data: adminLessonSchema });

// ---- stages ----

export const stageBodySchema = z.object({
  title: title(),
  description,
  image_url: optionalImage('image'),
  steps: z
    .array(
      z
        .string()
        .trim()
        .min(1, 'A step may not be empty.')
        .max(CONTENT.stepMax, `A step may not be greater than ${CONTENT.stepMax} characters.`),
    )
    .max(CONTENT.stepsMax, `A stage has at most ${CONTENT.stepsMax} steps.`)
    .default([]),
});
export type StageBody = z.input<typeof stageBodySchema>;

export const adminStageSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  image_url: z.string().nullable(),
  steps: z.array(z.string()),
});
export type AdminStage = z.infer<typeof adminStageSchema>;
/** a stage's create (201), read and edit */
export const adminStageAnswerSchema = z.object({ data: adminStageSchema });
export const adminStageRowSchema = z.object({
  id: z.number(),
  title: z.string(),
  image_url: z.string().nullable(),
  /** how many steps it has */
  steps: z.number(),
});
export type AdminStageRow = z.infer<typeof adminStageRowSchema>;
/** GET /api/admin/stages */
export const adminStagePageSchema = adminPageSchema(adminStageRowSchema);
export const stageListQuerySchema = adminListQuerySchema;

// ---- achievements ----

/** what an achievement counts (the rewards service's metrics) */
export const ACHIEVEMENT_RULES = ['points', 'lessons', 'quizzes', 'practice_minutes', 'journal_entries'] as const;
export const ACHIEVEMENT_RULE_LABELS: Record<(typeof ACHIEVEMENT_RULES)[number], string> = {
  points: 'Points earned',
  lessons: 'Lessons completed',
  quizzes: 'Quizzes passed',
  practice_minutes: 'Minutes practised',
  journal_entries: 'Journal entries',
};

export const achievementBodySchema = z.object({
  name: title('name'),
  slug,
  description,
  image_url: adminUrlSchema('image').refine((v) => v !== '', 'The image field is required.'),
  rule: z.enum(ACHIEVEMENT_RULES, { error: 'Choose what the achievement counts.' }),
  threshold: z.coerce
    .number({ error: 'The threshold must be a number.' })
    .int('The threshold must be a whole number.')
    .min(1, 'The threshold must be at least 1.')
    .max(1_000_000, 'The threshold may not be greater than 1000000.'),
  position,
});
export type AchievementBody = z.input<typeof achievementBodySchema>;
export const adminAchievementSchema = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  image_url: z.string(),
  rule: z.enum(ACHIEVEMENT_RULES),
  threshold: z.number(),
  position: z.number(),
  /** members who have it */
  unlocked_by: z.number(),
});
export type AdminAchievement = z.infer<typeof adminAchievementSchema>;
/** GET /api/admin/achievements */
export const adminAchievementPageSchema = adminPageSchema(adminAchievementSchema);
/** an achievement's create (201), read and edit */
export const adminAchievementAnswerSchema = z.object({ data: adminAchievementSchema });
export const achievementListQuerySchema = adminListQuerySchema;

// ---- settings: placement questions and foot-speed plan links ----

export const PLACEMENT_SETTING = 'placement_questions';
export const placementBodySchema = z.object({
  questions: placementQuestionsSchema.refine(
    (qs) => qs.length === LEARNING.placementQuestions,
    `The placement quiz has exactly ${LEARNING.placementQuestions} questions.`,
  ),
});
export type PlacementBody = z.input<typeof placementBodySchema>;
/** GET and PUT /api/admin/placement: the questions in use (src/shared/placement.ts's PlacementQuestion) */
export const adminPlacementAnswerSchema = z.object({
  data: z.object({
    questions: z.array(
      z.object({
        title: z.string(),
        options: z.array(z.object({ text: z.string(), points: z.number() })),
      }),
    ),
  }),
});

export const PLAN_LINKS_SETTING = 'diagnostic_plan_links';
/** the six plan keys in the form's order ("Beginner|Single Pedal"...) */
export const PLAN_KEYS = SKILLS.flatMap((s) => PEDALS.map((p) => ({ key: planKey(s, p), skill: s, pedal: p })));
export const planLinksSchema = z.object(
  Object.fromEntries(
    PLAN_KEYS.map(({ key }) => [
      key,
      adminUrlSchema('plan address').refine((v) => v !== '', 'The plan address is required.'),
    ]),
  ) as Record<string, ReturnType<typeof adminUrlSchema>>,
);
export const planLinksBodySchema = z.object({ links: planLinksSchema });
/** the plan address of each key */
export const planLinksAnswerSchema = z.record(z.string(), z.string());
export type PlanLinks = z.infer<typeof planLinksAnswerSchema>;
/** GET and PUT /api/admin/foot-speed */
export const adminPlanLinksAnswerSchema = z.object({ data: z.object({ links: planLinksAnswerSchema }) });
