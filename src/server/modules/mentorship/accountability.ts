import { and, count, eq, ne, sql } from 'drizzle-orm';
import { ACCOUNTABILITY_LIMITS, ACCOUNTABILITY_MESSAGES } from '#shared/mentorship';
import { accountabilityLinks, mentorships } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import { escapeHtml } from '#server/lib/html';
import type { AuthUser } from '#server/types';
import { linkDto, type MentorshipDeps, type StudentFacts } from './student-facts.ts';

/** Accountability links: the route has checked requireMentorshipRecord for studentId. */
export function createAccountability(deps: MentorshipDeps, facts: StudentFacts) {
  const { db } = deps;
  const { links, studentOr404 } = facts;

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
  };
}
