import { and, count, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  planProgress,
  type AccountabilityLink,
  type MentorshipPayment,
  type MentorshipPerson,
} from '#shared/mentorship';
import type { Database } from '#server/db/client';
import {
  accountabilityLinks,
  courses,
  entitlements,
  instalmentPlans,
  lessonCompletions,
  lessons,
  mentorships,
  practicePlans,
  users,
  videoSubmissions,
} from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import { MENTORSHIP_AREA_TEXT } from '#shared/mentorship';
import type { NotificationService } from '#server/modules/notifications/index';
import type { UserService } from '#server/modules/users/index';

export interface MentorshipDeps {
  db: Database;
  users: UserService;
  notifications: NotificationService;
}

export type UserRow = typeof users.$inferSelect;
export type MentorshipRow = typeof mentorships.$inferSelect;

export const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
export const linkDto = (row: typeof accountabilityLinks.$inferSelect): AccountabilityLink => ({
  id: row.id,
  url: row.url,
  label: row.label,
  created_at: row.createdAt.toISOString(),
});

/** options bought in one payment (everything but the PayPal instalment plans and the 2/3/6-payment cards) */
const PAID_IN_FULL = new Set([
  'onetime',
  'onetime1600',
  'onetime2600',
  'onetime3900',
  'card3200',
  'card2700',
  'finance',
  '3200',
  '2700',
]);

/**
 * What the mentorship area reads about its students, alike for the student's own dashboard and the
 * mentors' views: who is a student, their mentor, payment, plan, lessons, videos and links.
 */
export function createStudentFacts(deps: MentorshipDeps) {
  const { db } = deps;

  const person = (row: Pick<UserRow, 'id' | 'name' | 'avatarPath' | 'slug'>): MentorshipPerson => ({
    id: row.id,
    name: row.name,
    avatarUrl: deps.users.avatarUrl(row),
    profileUrl: deps.users.profileUrl(row),
  });

  /** an active mentorship entitlement (not revoked, not ended) */
  const hasMentorshipEntitlement = (userId: SQL | number) =>
    sql`exists (select 1 from ${entitlements} e where e.user_id = ${userId} and e.kind = 'mentorship' and e.revoked_at is null and (e.ends_at is null or e.ends_at > now()))`;
  /** a mentorship student: not an admin, and enrolled (a mentorships row) or holding the entitlement */
  const isStudentSql = and(
    ne(users.role, 'admin'),
    or(sql`${mentorships.id} is not null`, hasMentorshipEntitlement(sql`${users.id}`)),
  )!;

  /** greatest of the student's own recent actions (Postgres' greatest ignores nulls) */
  const lastActivitySql = sql<string | null>`greatest(
    (select max(lc.created_at) from ${lessonCompletions} lc where lc.user_id = ${users.id}),
    (select max(al.updated_at) from ${accountabilityLinks} al where al.student_id = ${users.id}),
    (select max(vs.created_at) from ${videoSubmissions} vs where vs.student_id = ${users.id}),
    (select pp.updated_at from ${practicePlans} pp where pp.student_id = ${users.id} and pp.updated_by = ${users.id})
  )`;
  const awaitingSql =
    sql<number>`(select count(*) from ${videoSubmissions} vs where vs.student_id = ${users.id} and vs.feedback is null)`.mapWith(
      Number,
    );

  async function studentRow(studentId: number) {
    const [row] = await db
      .select({ user: users, mentorship: mentorships })
      .from(users)
      .leftJoin(mentorships, eq(mentorships.studentId, users.id))
      .where(and(eq(users.id, studentId), isStudentSql))
      .limit(1);
    return row ?? null;
  }

  async function studentOr404(studentId: number) {
    const row = await studentRow(studentId);
    if (!row) throw notFound(MENTORSHIP_AREA_TEXT.notAStudent);
    return row;
  }

  async function mentorOf(m: MentorshipRow | null) {
    if (!m?.mentorId) return null;
    const [row] = await db.select().from(users).where(eq(users.id, m.mentorId)).limit(1);
    return row ? person(row) : null;
  }

  async function payment(studentId: number, m: MentorshipRow | null): Promise<MentorshipPayment> {
    const [plan] = await db
      .select()
      .from(instalmentPlans)
      .where(eq(instalmentPlans.userId, studentId))
      .orderBy(desc(instalmentPlans.id))
      .limit(1);
    if (plan) {
      return {
        kind: 'instalments',
        paid: plan.instalmentsPaid,
        total: plan.instalmentsTotal,
        amountCents: plan.amountCents,
        status: plan.status,
        nextDueAt: iso(plan.nextDueAt),
      };
    }
    if (m && (PAID_IN_FULL.has(m.option) || m.status === 'completed'))
      return { kind: 'paid_in_full', option: m.option };
    return { kind: 'none' };
  }

  const isPastDue = (m: MentorshipRow | null, p: MentorshipPayment) =>
    m?.status === 'past_due' || (p.kind === 'instalments' && p.status === 'past_due');

  async function planOf(studentId: number) {
    const [plan] = await db
      .select({ phases: practicePlans.phases })
      .from(practicePlans)
      .where(eq(practicePlans.studentId, studentId))
      .limit(1);
    return planProgress(plan?.phases);
  }

  async function videoCounts(studentIds: number[] | null) {
    const where = studentIds
      ? studentIds.length
        ? inArray(videoSubmissions.studentId, studentIds)
        : sql`false`
      : undefined;
    const [row] = await db
      .select({
        total: count(),
        awaiting: sql<number>`count(*) filter (where ${videoSubmissions.feedback} is null)`.mapWith(Number),
      })
      .from(videoSubmissions)
      .where(where);
    return { total: Number(row?.total ?? 0), awaitingFeedback: Number(row?.awaiting ?? 0) };
  }

  async function lessonCounts(userId: number) {
    const [total] = await db
      .select({ n: count() })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(eq(courses.area, 'mentorship'));
    const [done] = await db
      .select({ n: count() })
      .from(lessonCompletions)
      .innerJoin(lessons, eq(lessons.id, lessonCompletions.lessonId))
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(and(eq(courses.area, 'mentorship'), eq(lessonCompletions.userId, userId)));
    return { complete: Number(done?.n ?? 0), total: Number(total?.n ?? 0) };
  }

  async function links(studentId: number) {
    const rows = await db
      .select()
      .from(accountabilityLinks)
      .where(eq(accountabilityLinks.studentId, studentId))
      .orderBy(desc(accountabilityLinks.id));
    return rows.map(linkDto);
  }

  /** ids of the students (not admins) enrolled or entitled; `mentorId` narrows to one mentor's */
  async function studentIds(mentorId?: number) {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .leftJoin(mentorships, eq(mentorships.studentId, users.id))
      .where(and(isStudentSql, mentorId ? eq(mentorships.mentorId, mentorId) : undefined));
    return rows.map((r) => r.id);
  }

  return {
    person,
    isStudentSql,
    lastActivitySql,
    awaitingSql,
    studentRow,
    studentOr404,
    mentorOf,
    payment,
    isPastDue,
    planOf,
    videoCounts,
    lessonCounts,
    links,
    studentIds,
  };
}
export type StudentFacts = ReturnType<typeof createStudentFacts>;
