import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  ACCOUNTABILITY_LIMITS,
  ACCOUNTABILITY_MESSAGES,
  MENTORSHIP_AREA_TEXT,
  MENTORSHIP_RECENT_VIDEOS,
  MENTORSHIP_STUDENTS_PER_PAGE,
  planProgress,
  type AccountabilityLink,
  type MentorOption,
  type MentorOverview,
  type MentorshipCourse,
  type MentorshipLesson,
  type MentorshipPayment,
  type MentorshipPerson,
  type MentorshipStudentDetail,
  type MentorshipStudentSummary,
  type StudentOverview,
} from '#shared/mentorship';
import { alias } from 'drizzle-orm/pg-core';
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
import { notFound, ValidationError } from '#server/lib/errors';
import { escapeHtml } from '#server/lib/html';
import type { UserService } from '#server/modules/users/index';
import type { NotificationService } from '#server/modules/notifications/index';
import { recordAudit } from '#server/modules/admin/index';
import type { AuthUser } from '#server/types';

type UserRow = typeof users.$inferSelect;
type MentorshipRow = typeof mentorships.$inferSelect;

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const linkDto = (row: typeof accountabilityLinks.$inferSelect): AccountabilityLink => ({
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
 * The mentorship area (docs/product/mentorship.md): the dashboard overview, mentorship lessons, accountability links
 * and the mentors' student views. Who may call what is checked by the routes (guards); this service
 * checks what the data says (a mentorship lesson, a mentorship student, an admin as mentor).
 */
export function createMentorshipService(deps: {
  db: Database;
  users: UserService;
  notifications: NotificationService;
}) {
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

  async function mentorshipLessonOr404(lessonId: number) {
    const [row] = await db
      .select({ lesson: lessons, course: courses })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(and(eq(lessons.id, lessonId), eq(courses.area, 'mentorship')))
      .limit(1);
    if (!row) throw notFound(MENTORSHIP_AREA_TEXT.lessonNotFound);
    return row;
  }

  /** a mentor's new link tells the student; a student's tells their mentor */
  async function notifyOtherSide(actor: AuthUser, studentId: number) {
    if (actor.id !== studentId) {
      await deps.notifications.notify(studentId, {
        body: `<strong>${escapeHtml(actor.name)}</strong> added a link to your accountability links.`,
        url: '/mentorship/accountability',
        area: 'mentorship',
      });
      return;
    }
    const [m] = await db
      .select({ mentorId: mentorships.mentorId })
      .from(mentorships)
      .where(eq(mentorships.studentId, studentId))
      .limit(1);
    if (m?.mentorId) {
      await deps.notifications.notify(m.mentorId, {
        body: `<strong>${escapeHtml(actor.name)}</strong> added an accountability link.`,
        url: `/mentorship/students/${studentId}`,
        area: 'mentorship',
      });
    }
  }

  return {
    /** the dashboard: a student's progress, or an admin's students summary */
    async overview(user: AuthUser): Promise<StudentOverview | MentorOverview> {
      if (user.isAdmin) {
        const [mine, all] = await Promise.all([studentIds(user.id), studentIds()]);
        const [allVideos, myVideos] = await Promise.all([videoCounts(all), videoCounts(mine)]);
        return {
          role: 'admin',
          myStudents: mine.length,
          allStudents: all.length,
          videosAwaitingFeedback: allVideos.awaitingFeedback,
          myVideosAwaitingFeedback: myVideos.awaitingFeedback,
        };
      }
      const [m] = await db.select().from(mentorships).where(eq(mentorships.studentId, user.id)).limit(1);
      const mentorship = m ?? null;
      const pay = await payment(user.id, mentorship);
      const [linkCount] = await db
        .select({ n: count() })
        .from(accountabilityLinks)
        .where(eq(accountabilityLinks.studentId, user.id));
      return {
        role: 'student',
        mentor: await mentorOf(mentorship),
        status: mentorship?.status ?? null,
        plan: await planOf(user.id),
        links: Number(linkCount?.n ?? 0),
        videos: await videoCounts([user.id]),
        lessons: await lessonCounts(user.id),
        payment: pay,
        pastDue: isPastDue(mentorship, pay),
      };
    },

    // ---- lessons ----

    async courses(user: AuthUser): Promise<MentorshipCourse[]> {
      const courseRows = await db
        .select()
        .from(courses)
        .where(eq(courses.area, 'mentorship'))
        .orderBy(asc(courses.position), asc(courses.id));
      if (!courseRows.length) return [];
      const lessonRows = await db
        .select()
        .from(lessons)
        .where(
          inArray(
            lessons.courseId,
            courseRows.map((c) => c.id),
          ),
        )
        .orderBy(asc(lessons.position), asc(lessons.id));
      const done = lessonRows.length
        ? new Set(
            (
              await db
                .select({ id: lessonCompletions.lessonId })
                .from(lessonCompletions)
                .where(
                  and(
                    eq(lessonCompletions.userId, user.id),
                    inArray(
                      lessonCompletions.lessonId,
                      lessonRows.map((l) => l.id),
                    ),
                  ),
                )
            ).map((r) => r.id),
          )
        : new Set<number>();
      return courseRows.map((c) => {
        const own = lessonRows
          .filter((l) => l.courseId === c.id)
          .map((l) => ({ id: l.id, title: l.title, description: l.description, complete: done.has(l.id) }));
        return {
          id: c.id,
          slug: c.slug,
          title: c.title,
          description: c.description,
          lessons: own,
          progress: { complete: own.filter((l) => l.complete).length, total: own.length },
        };
      });
    },

    async lesson(user: AuthUser, lessonId: number): Promise<MentorshipLesson> {
      const { lesson, course } = await mentorshipLessonOr404(lessonId);
      const siblings = await db
        .select({ id: lessons.id, title: lessons.title })
        .from(lessons)
        .where(eq(lessons.courseId, course.id))
        .orderBy(asc(lessons.position), asc(lessons.id));
      const index = siblings.findIndex((s) => s.id === lesson.id);
      const [done] = await db
        .select({ n: count() })
        .from(lessonCompletions)
        .where(and(eq(lessonCompletions.userId, user.id), eq(lessonCompletions.lessonId, lesson.id)));
      return {
        id: lesson.id,
        title: lesson.title,
        description: lesson.description,
        video_url: lesson.videoUrl,
        course: { id: course.id, slug: course.slug, title: course.title },
        number: index + 1,
        count: siblings.length,
        previous: siblings[index - 1] ?? null,
        next: siblings[index + 1] ?? null,
        complete: Number(done?.n ?? 0) > 0,
      };
    },

    /** POST /mentorship/lesson-completions: only lessons of mentorship courses (others 404) */
    async setLessonComplete(user: AuthUser, lessonId: number, complete: boolean) {
      await mentorshipLessonOr404(lessonId);
      if (complete) await db.insert(lessonCompletions).values({ userId: user.id, lessonId }).onConflictDoNothing();
      else
        await db
          .delete(lessonCompletions)
          .where(and(eq(lessonCompletions.userId, user.id), eq(lessonCompletions.lessonId, lessonId)));
      return { lesson_id: lessonId, complete };
    },

    // ---- accountability links (the route has checked requireMentorshipRecord for studentId) ----

    links,

    /** the student a link belongs to (the route checks the caller may manage that student) */
    async linkOwner(linkId: number) {
      const [row] = await db
        .select({ studentId: accountabilityLinks.studentId })
        .from(accountabilityLinks)
        .where(eq(accountabilityLinks.id, linkId))
        .limit(1);
      if (!row) throw notFound(ACCOUNTABILITY_MESSAGES.notFound);
      return row.studentId;
    },

    /** An admin adding for a student needs that student to be a mentorship student. */
    async assertStudent(studentId: number) {
      await studentOr404(studentId);
    },

    async addLink(actor: AuthUser, studentId: number, input: { url: string; label: string }) {
      const link = await db.transaction(async (tx) => {
        // one student's adds take turns, so two at once cannot pass the limit together
        await tx.execute(sql`select pg_advisory_xact_lock(8008, ${studentId})`);
        const [n] = await tx
          .select({ n: count() })
          .from(accountabilityLinks)
          .where(eq(accountabilityLinks.studentId, studentId));
        if (Number(n?.n ?? 0) >= ACCOUNTABILITY_LIMITS.linksPerStudent)
          throw new ValidationError({ url: [ACCOUNTABILITY_MESSAGES.tooMany] });
        const [row] = await tx
          .insert(accountabilityLinks)
          .values({ studentId, url: input.url, label: input.label, createdBy: actor.id })
          .returning();
        return row!;
      });
      await notifyOtherSide(actor, studentId);
      return { link: linkDto(link), links: await links(studentId) };
    },

    async deleteLink(linkId: number, studentId: number) {
      await db
        .delete(accountabilityLinks)
        .where(and(eq(accountabilityLinks.id, linkId), eq(accountabilityLinks.studentId, studentId)));
      return { links: await links(studentId) };
    },

    /** Only labels, only of this student's links: ids of other students' links change nothing. */
    async saveLabels(studentId: number, input: Array<{ id: number; label: string }>) {
      const latest = new Map(input.map((l) => [l.id, l.label]));
      if (latest.size) {
        await db.transaction(async (tx) => {
          const now = new Date();
          for (const [id, label] of latest) {
            await tx
              .update(accountabilityLinks)
              .set({ label, updatedAt: now })
              .where(
                and(
                  eq(accountabilityLinks.id, id),
                  eq(accountabilityLinks.studentId, studentId),
                  ne(accountabilityLinks.label, label),
                ),
              );
          }
        });
      }
      return { links: await links(studentId) };
    },

    // ---- mentors' views (admins) ----

    async students(viewer: AuthUser, query: { mine?: boolean | undefined; q?: string | undefined; page: number }) {
      const per = MENTORSHIP_STUDENTS_PER_PAGE;
      const mentor = alias(users, 'mentor');
      const q = query.q?.trim();
      const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const rows = await db
        .select({
          id: users.id,
          name: users.name,
          slug: users.slug,
          avatarPath: users.avatarPath,
          mentorId: mentorships.mentorId,
          mentorName: mentor.name,
          status: mentorships.status,
          phases: practicePlans.phases,
          lastActivity: lastActivitySql,
          awaiting: awaitingSql,
        })
        .from(users)
        .leftJoin(mentorships, eq(mentorships.studentId, users.id))
        .leftJoin(mentor, eq(mentor.id, mentorships.mentorId))
        .leftJoin(practicePlans, eq(practicePlans.studentId, users.id))
        .where(
          and(
            isStudentSql,
            query.mine ? eq(mentorships.mentorId, viewer.id) : undefined,
            like ? or(ilike(users.name, like), ilike(users.email, like)) : undefined,
          ),
        )
        .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
        .limit(per + 1)
        .offset((query.page - 1) * per);
      const students: MentorshipStudentSummary[] = rows.slice(0, per).map((r) => {
        const p = planProgress(r.phases);
        return {
          id: r.id,
          name: r.name,
          slug: r.slug,
          avatarUrl: deps.users.avatarUrl(r),
          mentor: r.mentorId && r.mentorName ? { id: r.mentorId, name: r.mentorName } : null,
          status: r.status ?? null,
          planProgress: { daysComplete: p.daysComplete, daysTotal: p.daysTotal },
          lastActivity: iso(r.lastActivity),
          videosAwaitingFeedback: Number(r.awaiting ?? 0),
        };
      });
      return { students, more: rows.length > per };
    },

    async student(studentId: number): Promise<MentorshipStudentDetail> {
      const { user, mentorship } = await studentOr404(studentId);
      const pay = await payment(studentId, mentorship);
      const recent = await db
        .select({
          id: videoSubmissions.id,
          title: videoSubmissions.title,
          createdAt: videoSubmissions.createdAt,
          feedback: videoSubmissions.feedback,
        })
        .from(videoSubmissions)
        .where(eq(videoSubmissions.studentId, studentId))
        .orderBy(desc(videoSubmissions.id))
        .limit(MENTORSHIP_RECENT_VIDEOS);
      const [activity] = await db.select({ at: lastActivitySql }).from(users).where(eq(users.id, studentId));
      return {
        student: {
          id: user.id,
          name: user.name,
          slug: user.slug,
          email: user.email,
          avatarUrl: deps.users.avatarUrl(user),
          profileUrl: deps.users.profileUrl(user),
          joinedAt: user.createdAt.toISOString(),
        },
        mentor: await mentorOf(mentorship),
        status: mentorship?.status ?? null,
        option: mentorship?.option ?? null,
        payment: pay,
        pastDue: isPastDue(mentorship, pay),
        plan: await planOf(studentId),
        lessons: await lessonCounts(studentId),
        videos: await videoCounts([studentId]),
        recentVideos: recent.map((v) => ({
          id: v.id,
          title: v.title,
          created_at: v.createdAt.toISOString(),
          hasFeedback: v.feedback !== null,
        })),
        links: await links(studentId),
        lastActivity: iso(activity?.at),
      };
    },

    /** admins, the ones marked as mentors first */
    async mentors(): Promise<MentorOption[]> {
      const rows = await db
        .select()
        .from(users)
        .where(and(eq(users.role, 'admin'), isNull(users.suspendedAt)))
        .orderBy(desc(users.isMentor), asc(users.name), asc(users.id));
      return rows.map((r) => ({ id: r.id, name: r.name, avatarUrl: deps.users.avatarUrl(r), isMentor: r.isMentor }));
    },

    /** Assign (or, with null, remove) a student's mentor; the mentor must be an admin. */
    async assignMentor(actor: AuthUser, studentId: number, mentorId: number | null, ip: string | null = null) {
      const { user: student, mentorship } = await studentOr404(studentId);
      let mentor: UserRow | null = null;
      if (mentorId !== null) {
        const [row] = await db.select().from(users).where(eq(users.id, mentorId)).limit(1);
        if (!row || row.role !== 'admin')
          throw new ValidationError({ mentor_id: [MENTORSHIP_AREA_TEXT.mentorMustBeAdmin] });
        mentor = row;
      }
      const now = new Date();
      await db.transaction(async (tx) => {
        if (mentorship) {
          await tx.update(mentorships).set({ mentorId, updatedAt: now }).where(eq(mentorships.id, mentorship.id));
        } else {
          // a student given the entitlement by hand has no enrolment row yet: 'manual' records that
          await tx
            .insert(mentorships)
            .values({ studentId, mentorId, option: 'manual', status: 'active' })
            .onConflictDoUpdate({ target: mentorships.studentId, set: { mentorId, updatedAt: now } });
        }
        // the admin console's audit log
        const beforeMentor = mentorship?.mentorId
          ? await tx
              .select({ id: users.id, name: users.name })
              .from(users)
              .where(eq(users.id, mentorship.mentorId))
              .limit(1)
          : [];
        await recordAudit(
          tx,
          { user: actor, ip },
          {
            action: 'mentorship.assign',
            targetType: 'member',
            targetId: studentId,
            summary: mentor ? `${mentor.name} now mentors ${student.name}` : `Removed the mentor of ${student.name}`,
            before: { mentor: beforeMentor[0] ?? null },
            after: { mentor: mentor ? { id: mentor.id, name: mentor.name } : null },
          },
        );
      });
      if (mentor && mentor.id !== mentorship?.mentorId) {
        await deps.notifications.notify(studentId, {
          body: `<strong>${escapeHtml(mentor.name)}</strong> is now your mentor.`,
          url: '/mentorship',
          area: 'mentorship',
        });
        if (mentor.id !== actor.id) {
          await deps.notifications.notify(mentor.id, {
            body: `You are now the mentor of <strong>${escapeHtml((await studentRow(studentId))?.user.name ?? 'a student')}</strong>.`,
            url: `/mentorship/students/${studentId}`,
            area: 'mentorship',
          });
        }
      }
      return { mentor: mentor ? person(mentor) : null };
    },
  };
}
export type MentorshipService = ReturnType<typeof createMentorshipService>;
