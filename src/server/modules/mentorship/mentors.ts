import { and, asc, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  MENTORSHIP_AREA_TEXT,
  MENTORSHIP_RECENT_VIDEOS,
  MENTORSHIP_STUDENTS_PER_PAGE,
  planProgress,
  type MentorOption,
  type MentorshipStudentDetail,
  type MentorshipStudentSummary,
} from '#shared/mentorship';
import { mentorships, practicePlans, users, videoSubmissions } from '#server/db/schema/index';
import { ValidationError } from '#server/lib/errors';
import { escapeHtml } from '#server/lib/html';
import { containing, recordAudit } from '#server/modules/admin/index';
import type { AuthUser } from '#server/types';
import { iso, type MentorshipDeps, type StudentFacts, type UserRow } from './student-facts.ts';

/** The mentors' (admins') views: the students, one student's detail, and assigning mentors. */
export function createMentorViews(deps: MentorshipDeps, facts: StudentFacts) {
  const { db } = deps;
  const { person, isStudentSql, lastActivitySql, awaitingSql, studentRow, studentOr404, mentorOf } = facts;
  const { payment, isPastDue, planOf, lessonCounts, videoCounts, links } = facts;

  return {
    async students(viewer: AuthUser, query: { mine?: boolean | undefined; q?: string | undefined; page: number }) {
      const per = MENTORSHIP_STUDENTS_PER_PAGE;
      const mentor = alias(users, 'mentor');
      const q = query.q?.trim();
      const like = q ? containing(q) : null;
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
