import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '#server/db/client';
import { entitlements, instalmentPlans, mentorships, orders, users } from '#server/db/schema/index';
import { escapeHtml } from '#server/lib/html';
import type { NotificationService } from '#server/modules/notifications/index';
import type { OrderRow } from '#server/modules/payments/index';
import { MENTORSHIP_OPTION_LABELS } from '#shared/mentorship';
import { mentorshipAccess, type AccessFacts, type MentorshipStatus } from './access.ts';

export type MentorshipRow = typeof mentorships.$inferSelect;
export type InstalmentPlanRow = typeof instalmentPlans.$inferSelect;

/** statuses with access (see access.ts): a student in one of these is enrolled */
export const ENROLLED_STATUSES: MentorshipStatus[] = ['active', 'past_due', 'completed'];
const entitlementSource = (studentId: number) => `mentorship:${studentId}`;

export interface EnrolmentDeps {
  db: Database;
  notifications: NotificationService;
}

/**
 * Enrolment in ONE place: a completed mentorship purchase (a one-time payment, or the
 * first instalment of a plan) makes the mentorships row (one per student), the `mentorship`
 * entitlement (one row per student, source `mentorship:{studentId}`, switched on and off by the
 * access rules) and assigns a mentor: the is_mentor admin with the fewest students, else any
 * admin. The mentor and the student are told. Calling it again for the same order changes nothing.
 */
export function createEnrolment(deps: EnrolmentDeps) {
  const { db } = deps;

  /** the is_mentor admin with the fewest students (fallback: any admin), never the student themself */
  async function pickMentor(tx: Executor, studentId: number): Promise<{ id: number; name: string } | null> {
    const load = sql<number>`(select count(*) from ${mentorships} m where m.mentor_id = ${users.id} and m.status in ('active', 'past_due', 'completed'))`;
    for (const onlyMentors of [true, false]) {
      const [row] = await tx
        .select({ id: users.id, name: users.name, load })
        .from(users)
        .where(
          and(
            eq(users.role, 'admin'),
            onlyMentors ? eq(users.isMentor, true) : undefined,
            ne(users.id, studentId),
            isNull(users.suspendedAt),
          ),
        )
        .orderBy(asc(load), asc(users.id))
        .limit(1);
      if (row) return { id: row.id, name: row.name };
    }
    return null;
  }

  /** the student's one mentorship entitlement row, on or off */
  async function setEntitlement(tx: Executor, studentId: number, access: boolean) {
    const source = entitlementSource(studentId);
    const [row] = await tx
      .select({ id: entitlements.id })
      .from(entitlements)
      .where(
        and(eq(entitlements.userId, studentId), eq(entitlements.kind, 'mentorship'), eq(entitlements.source, source)),
      )
      .limit(1);
    if (access) {
      if (row) await tx.update(entitlements).set({ revokedAt: null, endsAt: null }).where(eq(entitlements.id, row.id));
      else await tx.insert(entitlements).values({ userId: studentId, kind: 'mentorship', source });
    } else if (row) {
      await tx
        .update(entitlements)
        .set({ revokedAt: new Date() })
        .where(and(eq(entitlements.id, row.id), isNull(entitlements.revokedAt)));
    }
  }

  async function factsFor(tx: Executor, m: MentorshipRow): Promise<AccessFacts> {
    if (m.orderId === null) return { refunded: m.status === 'refunded', plan: null };
    const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, m.orderId)).limit(1);
    const [plan] = await tx
      .select()
      .from(instalmentPlans)
      .where(eq(instalmentPlans.orderId, m.orderId))
      .orderBy(desc(instalmentPlans.id))
      .limit(1);
    return {
      refunded: order?.status === 'refunded',
      plan: plan
        ? {
            status: plan.status,
            pastDueSince: plan.pastDueSince,
            paid: plan.instalmentsPaid,
            total: plan.instalmentsTotal,
          }
        : null,
    };
  }

  /**
   * Apply the access rules (access.ts) to a student: the mentorship's status and the entitlement.
   * Answers the status before and after (null when the student has no mentorship).
   */
  async function applyAccess(
    studentId: number,
    now: Date = new Date(),
    tx: Executor = db,
  ): Promise<{ before: MentorshipStatus; after: MentorshipStatus; mentorship: MentorshipRow } | null> {
    const [m] = await tx.select().from(mentorships).where(eq(mentorships.studentId, studentId)).limit(1);
    if (!m) return null;
    const decision = mentorshipAccess(await factsFor(tx, m), now);
    let row = m;
    if (decision.status !== m.status) {
      [row] = (await tx
        .update(mentorships)
        .set({ status: decision.status, updatedAt: now })
        .where(eq(mentorships.id, m.id))
        .returning()) as [MentorshipRow];
    }
    await setEntitlement(tx, studentId, decision.access);
    return { before: m.status, after: decision.status, mentorship: row };
  }

  async function name(id: number) {
    const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, id)).limit(1);
    return row?.name ?? 'A student';
  }

  const enrolment = {
    applyAccess,

    /** holds a mentorship with access (a mentorships row active, past due or completed) */
    async isEnrolled(studentId: number, tx: Executor = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: mentorships.id })
        .from(mentorships)
        .where(and(eq(mentorships.studentId, studentId), inArray(mentorships.status, ENROLLED_STATUSES)))
        .limit(1);
      return !!row;
    },

    /**
     * "Already a mentorship student" as the ledger's hold rule reads it, inside its transaction:
     * enrolled, or holding the `mentorship` entitlement from elsewhere (e.g. granted by an admin).
     */
    async holdsMentorship(studentId: number, tx: Executor = db): Promise<boolean> {
      if (await enrolment.isEnrolled(studentId, tx)) return true;
      const [row] = await tx
        .select({ id: entitlements.id })
        .from(entitlements)
        .where(
          and(
            eq(entitlements.userId, studentId),
            eq(entitlements.kind, 'mentorship'),
            isNull(entitlements.revokedAt),
            or(isNull(entitlements.endsAt), gt(entitlements.endsAt, new Date())),
          ),
        )
        .limit(1);
      return !!row;
    },

    async mentorshipOf(studentId: number): Promise<MentorshipRow | null> {
      const [row] = await db.select().from(mentorships).where(eq(mentorships.studentId, studentId)).limit(1);
      return row ?? null;
    },

    /** every admin (a missed instalment is told to all of them) */
    async adminIds(): Promise<number[]> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'admin'), isNull(users.suspendedAt)));
      return rows.map((r) => r.id);
    },

    /**
     * A purchase completed (the order is paid: one-time, or the first instalment recorded): the
     * student is enrolled. Idempotent per order; a student already enrolled by another order keeps
     * that enrolment.
     */
    async enrol(
      order: OrderRow,
    ): Promise<{ mentorship: MentorshipRow; created: boolean; mentor: { id: number; name: string } | null }> {
      const outcome = await db.transaction(async (tx) => {
        const [existing] = await tx
          .select()
          .from(mentorships)
          .where(eq(mentorships.studentId, order.userId))
          .for('update');
        if (existing && (existing.orderId === order.id || ENROLLED_STATUSES.includes(existing.status))) {
          const applied = existing.orderId === order.id ? await applyAccess(order.userId, new Date(), tx) : null;
          return { mentorship: applied?.mentorship ?? existing, created: false, mentor: null };
        }
        const mentor = existing?.mentorId ? { id: existing.mentorId, name: '' } : await pickMentor(tx, order.userId);
        const values = {
          option: order.productSlug,
          orderId: order.id,
          status: 'active' as const,
          mentorId: mentor?.id ?? null,
          updatedAt: new Date(),
        };
        if (existing) await tx.update(mentorships).set(values).where(eq(mentorships.id, existing.id));
        else await tx.insert(mentorships).values({ studentId: order.userId, ...values });
        const applied = await applyAccess(order.userId, new Date(), tx);
        return { mentorship: applied!.mentorship, created: true, mentor };
      });
      if (outcome.created) {
        const student = await name(order.userId);
        const mentorName = outcome.mentor ? outcome.mentor.name || (await name(outcome.mentor.id)) : null;
        const label = MENTORSHIP_OPTION_LABELS[order.productSlug] ?? order.productSlug;
        await deps.notifications.notify(order.userId, {
          area: 'mentorship',
          url: '/mentorship',
          body: mentorName
            ? `<p>Welcome to the Backbeat mentorship, ${escapeHtml(student)}! Your mentor is <strong>${escapeHtml(mentorName)}</strong>. Open the mentorship area to meet them and start your practice plan.</p>`
            : `<p>Welcome to the Backbeat mentorship, ${escapeHtml(student)}! Your mentor will be assigned shortly. Open the mentorship area to get started.</p>`,
        });
        if (outcome.mentor) {
          await deps.notifications.notify(outcome.mentor.id, {
            area: 'mentorship',
            url: `/mentorship/students/${order.userId}`,
            body: `<p><strong>${escapeHtml(student)}</strong> joined the mentorship (${escapeHtml(label)}). You are their mentor: build their practice plan.</p>`,
          });
        }
      }
      return outcome;
    },

    /** tell the student (mentorship area) and every admin */
    async notifyStudentAndAdmins(studentId: number, studentBody: string, adminBody: string) {
      await deps.notifications.notify(studentId, { area: 'mentorship', url: '/mentorship/account', body: studentBody });
      for (const id of await enrolment.adminIds()) {
        if (id !== studentId)
          await deps.notifications.notify(id, {
            area: 'mentorship',
            url: `/mentorship/students/${studentId}`,
            body: adminBody,
          });
      }
    },
  };
  return enrolment;
}
export type Enrolment = ReturnType<typeof createEnrolment>;
