import { z } from './zod.ts';
import { flag, idSchema } from './http.ts';
import { accountabilityLinkSchema } from './mentorship-accountability.ts';
import { planProgressSchema } from './mentorship-practice-plan.ts';

// The mentorship area: dashboard overview, mentorship lessons and the mentors' (admins') student
// views. Answers are zod schemas so the pages' types come from here.

/** POST /mentorship/lesson-completions */
export const mentorshipLessonCompletionBodySchema = z.object({ lesson_id: idSchema, complete: flag });
export const mentorshipLessonCompletionAnswerSchema = z.object({ lesson_id: z.number(), complete: z.boolean() });
export type MentorshipLessonCompletionAnswer = z.infer<typeof mentorshipLessonCompletionAnswerSchema>;

export const MENTORSHIP_STATUSES = ['active', 'past_due', 'defaulted', 'completed', 'canceled', 'refunded'] as const;
export type MentorshipStatus = (typeof MENTORSHIP_STATUSES)[number];
export const MENTORSHIP_STUDENTS_PER_PAGE = 20;
export const MENTORSHIP_RECENT_VIDEOS = 5;

export const MENTORSHIP_AREA_TEXT = {
  pastDue:
    'Your last instalment did not go through. Please check your payment details on your account page to keep your mentorship going.',
  noMentor: 'Your mentor is being assigned. You will get a notification as soon as they are ready for you.',
  notAStudent: 'This member is not a mentorship student.',
  mentorMustBeAdmin: 'Choose a mentor from the list: mentors are admins.',
  lessonNotFound: 'This mentorship lesson does not exist.',
} as const;

const personSchema = z.object({ id: z.number(), name: z.string(), avatarUrl: z.string(), profileUrl: z.string() });
export type MentorshipPerson = z.infer<typeof personSchema>;

export const mentorshipPaymentSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('instalments'),
    paid: z.number(),
    total: z.number(),
    amountCents: z.number(),
    status: z.enum(['active', 'past_due', 'defaulted', 'completed', 'canceled']),
    nextDueAt: z.string().nullable(),
  }),
  z.object({ kind: z.literal('paid_in_full'), option: z.string() }),
  z.object({ kind: z.literal('none') }),
]);
export type MentorshipPayment = z.infer<typeof mentorshipPaymentSchema>;

const countsSchema = z.object({ total: z.number(), awaitingFeedback: z.number() });
const lessonCountsSchema = z.object({ complete: z.number(), total: z.number() });

/** GET /api/mentorship/overview for a student */
export const studentOverviewSchema = z.object({
  role: z.literal('student'),
  mentor: personSchema.nullable(),
  status: z.enum(MENTORSHIP_STATUSES).nullable(),
  plan: planProgressSchema,
  links: z.number(),
  videos: countsSchema,
  lessons: lessonCountsSchema,
  payment: mentorshipPaymentSchema,
  /** an instalment is late: the dashboard shows the banner */
  pastDue: z.boolean(),
});
/** GET /api/mentorship/overview for an admin (mentor) */
export const mentorOverviewSchema = z.object({
  role: z.literal('admin'),
  myStudents: z.number(),
  allStudents: z.number(),
  videosAwaitingFeedback: z.number(),
  myVideosAwaitingFeedback: z.number(),
});
export const mentorshipOverviewSchema = z.discriminatedUnion('role', [studentOverviewSchema, mentorOverviewSchema]);
export type StudentOverview = z.infer<typeof studentOverviewSchema>;
export type MentorOverview = z.infer<typeof mentorOverviewSchema>;
export type MentorshipOverview = z.infer<typeof mentorshipOverviewSchema>;

/** GET /api/mentorship/lessons */
export const mentorshipCourseSchema = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  lessons: z.array(z.object({ id: z.number(), title: z.string(), description: z.string(), complete: z.boolean() })),
  progress: lessonCountsSchema,
});
export const mentorshipLessonsAnswerSchema = z.object({ courses: z.array(mentorshipCourseSchema) });
export type MentorshipCourse = z.infer<typeof mentorshipCourseSchema>;

const lessonLinkSchema = z.object({ id: z.number(), title: z.string() }).nullable();
/** GET /api/mentorship/lessons/{id} (no quiz in the mentorship area: docs/product/mentorship.md) */
export const mentorshipLessonSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  video_url: z.string().nullable(),
  course: z.object({ id: z.number(), slug: z.string(), title: z.string() }),
  number: z.number(),
  count: z.number(),
  previous: lessonLinkSchema,
  next: lessonLinkSchema,
  complete: z.boolean(),
});
export const mentorshipLessonAnswerSchema = z.object({ lesson: mentorshipLessonSchema });
export type MentorshipLesson = z.infer<typeof mentorshipLessonSchema>;

/** GET /api/mentorship/students?mine=1&q=&page= (admins) */
export const mentorshipStudentsQuerySchema = z.object({
  mine: flag.optional(),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const mentorshipStudentSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  avatarUrl: z.string(),
  mentor: z.object({ id: z.number(), name: z.string() }).nullable(),
  status: z.enum(MENTORSHIP_STATUSES).nullable(),
  planProgress: z.object({ daysComplete: z.number(), daysTotal: z.number() }),
  lastActivity: z.string().nullable(),
  videosAwaitingFeedback: z.number(),
});
export const mentorshipStudentsAnswerSchema = z.object({
  students: z.array(mentorshipStudentSummarySchema),
  more: z.boolean(),
});
export type MentorshipStudentSummary = z.infer<typeof mentorshipStudentSummarySchema>;

/** GET /api/mentorship/students/{id} (admins) */
export const mentorshipStudentDetailSchema = z.object({
  student: z.object({
    id: z.number(),
    name: z.string(),
    slug: z.string(),
    email: z.string(),
    avatarUrl: z.string(),
    profileUrl: z.string(),
    joinedAt: z.string(),
  }),
  mentor: personSchema.nullable(),
  status: z.enum(MENTORSHIP_STATUSES).nullable(),
  option: z.string().nullable(),
  payment: mentorshipPaymentSchema,
  pastDue: z.boolean(),
  plan: planProgressSchema,
  lessons: lessonCountsSchema,
  videos: countsSchema,
  recentVideos: z.array(
    z.object({ id: z.number(), title: z.string(), created_at: z.string(), hasFeedback: z.boolean() }),
  ),
  links: z.array(accountabilityLinkSchema),
  lastActivity: z.string().nullable(),
});
export type MentorshipStudentDetail = z.infer<typeof mentorshipStudentDetailSchema>;

/** POST /api/mentorship/students/{id}/mentor: an admin's id, or null (or '') to unassign */
export const assignMentorBodySchema = z.object({
  mentor_id: z.preprocess((v) => (v === '' || v === undefined ? null : v), idSchema.nullable()),
});
/** the student's mentor now (null: none) */
export const assignMentorAnswerSchema = z.object({ mentor: personSchema.nullable() });
export type AssignMentorAnswer = z.infer<typeof assignMentorAnswerSchema>;

/** GET /api/mentorship/mentors: admins, those marked as mentors first */
export const mentorsAnswerSchema = z.object({
  mentors: z.array(z.object({ id: z.number(), name: z.string(), avatarUrl: z.string(), isMentor: z.boolean() })),
});
export type MentorOption = z.infer<typeof mentorsAnswerSchema>['mentors'][number];
