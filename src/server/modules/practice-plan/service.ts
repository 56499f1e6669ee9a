import { asc, eq, sql } from 'drizzle-orm';
import type { z } from '#shared/zod';
import {
  MENTORSHIP_MESSAGES,
  PRACTICE_PLAN_MESSAGES,
  type PracticePlan,
  type PracticePlanAnswer,
  type ReusableDayExercise,
  type savePracticePlanBodySchema,
} from '#shared/mentorship';
import { applyStudentSave, duplicateIds, keepStoredStudentFields } from '#shared/practice-plan-merge';
import { practicePlanChannel } from '#shared/realtime';
import type { Database, Executor } from '#server/db/client';
import { practicePlanDays, practicePlans, users } from '#server/db/schema/index';
import { AppError, forbidden, notFound, ValidationError } from '#server/lib/errors';
import { escapeHtml } from '#server/lib/html';
import type { NotificationService } from '#server/modules/notifications/index';
import type { Realtime } from '#server/modules/realtime/index';
import type { UserService } from '#server/modules/users/index';
import type { AuthUser } from '#server/types';

type PlanRow = typeof practicePlans.$inferSelect;
type SaveBody = z.infer<typeof savePracticePlanBodySchema>;
export type SaveAnswer = PracticePlanAnswer & { merged: boolean };

export const NOT_A_STUDENT = 'That member is not a mentorship student.';
export const CHOOSE_STUDENT = 'Choose the student whose practice plan to open.';
export const DUPLICATE_IDS = 'Each day and exercise needs its own id.';
export const DAY_NOT_FOUND = 'That saved day does not exist.';

/** after this long without a mentor's save, the next one is news for the student */
const PLAN_NEWS_QUIET_MS = 60 * 60 * 1000;
const PLAN_URL = '/mentorship/practice-plan';

const CHANNEL = /^practice-plan\.(\d{1,9})$/;

/**
 * A mentor's save that started from an older admin_version, or a student's from an older
 * student_version (another window of theirs saved meanwhile): the plan as it stands now goes with the conflict.
 */
export class PlanConflict extends AppError {
  constructor(
    readonly current: PracticePlanAnswer,
    message: string = PRACTICE_PLAN_MESSAGES.conflict,
  ) {
    super('conflict', message);
  }
}

/**
 * The practice plan (docs/product/mentorship.md): one plan per mentorship student, created empty when
 * first opened; saves by the student touch only their fields; a mentor's stale save is refused
 * (409) or merged; each save is one transaction under a row lock and is announced on the plan's
 * channel. Plus the mentors' reusable days.
 */
export function createPracticePlanService(deps: {
  db: Database;
  realtime: Realtime;
  users: UserService;
  notifications?: Pick<NotificationService, 'notify'>;
}) {
  const { db, realtime } = deps;

  const toPlan = (row: PlanRow): PracticePlan => ({ ...row.phases, onlyShowLatest: row.onlyShowLatest });

  async function answer(row: PlanRow, tx: Executor = db): Promise<PracticePlanAnswer> {
    const [student] = await tx
      .select({ id: users.id, name: users.name, slug: users.slug })
      .from(users)
      .where(eq(users.id, row.studentId))
      .limit(1);
    return {
      id: row.id,
      student: student ?? { id: row.studentId, name: '', slug: '' },
      practice_plan: toPlan(row),
      admin_version: row.adminVersion,
      student_version: row.studentVersion,
      updated_at: row.updatedAt.toISOString(),
    };
  }

  async function isMentorshipStudent(userId: number) {
    return (await deps.users.activeEntitlements(userId)).includes('mentorship');
  }

  /** who may hear a plan's channel: its student (with the entitlement) and admins */
  realtime.addAuthorizer(async (channel, user) => {
    const match = CHANNEL.exec(channel);
    if (!match) return null;
    if (!user) return false;
    const [row] = await db
      .select({ studentId: practicePlans.studentId })
      .from(practicePlans)
      .where(eq(practicePlans.id, Number(match[1])))
      .limit(1);
    if (!row) return false;
    if (user.isAdmin) return true;
    return row.studentId === user.id && user.entitlements.includes('mentorship');
  });

  return {
    /** GET /mentorship/practice-plan: the viewer's own plan, or (admins) a student's */
    async open(user: AuthUser, studentId: number | undefined): Promise<PracticePlanAnswer> {
      let target: number;
      if (user.isAdmin) {
        if (studentId === undefined) throw new ValidationError({ student_id: [CHOOSE_STUDENT] });
        target = studentId;
      } else {
        if (studentId !== undefined && studentId !== user.id) throw forbidden(MENTORSHIP_MESSAGES.notYourStudent);
        target = user.id;
      }
      if (!(await deps.users.findById(target)) || !(await isMentorshipStudent(target))) throw notFound(NOT_A_STUDENT);
      await db
        .insert(practicePlans)
        .values({ studentId: target, phases: { phase1: [], phase2: [], phase3: [] } })
        .onConflictDoNothing({ target: practicePlans.studentId });
      const [row] = await db.select().from(practicePlans).where(eq(practicePlans.studentId, target)).limit(1);
      return answer(row!);
    },

    /** POST /mentorship/practice-plan */
    async save(user: AuthUser, body: SaveBody, socketId?: string): Promise<SaveAnswer> {
      const incoming = body.practice_plan;
      if (user.isAdmin && duplicateIds(incoming).length) throw new ValidationError({ practice_plan: [DUPLICATE_IDS] });
      const result = await db.transaction(async (tx) => {
        // the lock serialises concurrent saves of one plan: each reads what the previous one wrote
        const [row] = await tx.select().from(practicePlans).where(eq(practicePlans.id, body.id)).limit(1).for('update');
        if (!row) throw notFound(PRACTICE_PLAN_MESSAGES.notFound);
        if (!user.isAdmin && row.studentId !== user.id) throw forbidden(MENTORSHIP_MESSAGES.notYourStudent);
        const stored = toPlan(row);
        let next: PracticePlan;
        let merged = false;
        let patch: Partial<typeof practicePlans.$inferInsert>;
        if (!user.isAdmin) {
          // a student's save replaces all their fields: one sent from an older copy (two windows
          // saving at once) would silently undo the other window's change, so it is refused instead
          if (body.student_version !== undefined && body.student_version < row.studentVersion) {
            throw new PlanConflict(await answer(row, tx), PRACTICE_PLAN_MESSAGES.studentConflict);
          }
          next = applyStudentSave(stored, incoming);
          patch = { studentVersion: row.studentVersion + 1 };
        } else {
          if (body.admin_version !== undefined && body.admin_version !== row.adminVersion) {
            throw new PlanConflict(await answer(row, tx));
          }
          if (body.student_version !== undefined && body.student_version < row.studentVersion) {
            next = keepStoredStudentFields(incoming, stored);
            merged = true;
          } else {
            next = incoming;
          }
          patch = { adminVersion: row.adminVersion + 1, onlyShowLatest: incoming.onlyShowLatest ?? row.onlyShowLatest };
        }
        const [saved] = await tx
          .update(practicePlans)
          .set({
            ...patch,
            phases: { phase1: next.phase1, phase2: next.phase2, phase3: next.phase3 },
            updatedAt: sql`now()`,
            updatedBy: user.id,
          })
          .where(eq(practicePlans.id, row.id))
          .returning();
        // a mentor's first save after an hour without one tells the student (the bell and an e-mail);
        // the saves of one sitting that follow it do not
        const quietBefore =
          row.updatedBy === null ||
          row.updatedBy === row.studentId ||
          Date.now() - row.updatedAt.getTime() >= PLAN_NEWS_QUIET_MS;
        const tell = user.isAdmin && user.id !== row.studentId && quietBefore ? saved! : null;
        return { answer: await answer(saved!, tx), merged, tell };
      });
      const a = result.answer;
      if (result.tell && deps.notifications) {
        await deps.notifications.notify(result.tell.studentId, {
          body: `<strong>${escapeHtml(user.name)}</strong> updated your practice plan.`,
          url: PLAN_URL,
          area: 'mentorship',
          mail: {
            kind: 'mentorship.practice-plan-updated',
            data: { mentor: user.name, url: PLAN_URL },
            key: `plan-${result.tell.id}-${result.tell.adminVersion}`,
          },
        });
      }
      realtime.publish(
        practicePlanChannel(a.id),
        'PracticePlanUpdated',
        {
          id: a.id,
          admin_version: a.admin_version,
          student_version: a.student_version,
          by: user.isAdmin ? 'admin' : 'student',
          socket_id: socketId ?? null,
        },
        { exceptSocketId: socketId },
      );
      return { ...a, merged: result.merged };
    },

    // -- reusable days (admins) ------------------------------------------------------------
    async days() {
      const rows = await db
        .select({ id: practicePlanDays.id, title: practicePlanDays.title })
        .from(practicePlanDays)
        .orderBy(asc(sql`lower(${practicePlanDays.title})`), asc(practicePlanDays.id));
      return { days: rows };
    },
    async day(id: number) {
      const [row] = await db.select().from(practicePlanDays).where(eq(practicePlanDays.id, id)).limit(1);
      if (!row) throw notFound(DAY_NOT_FOUND);
      return { id: row.id, title: row.title, exercises: row.exercises };
    },
    async createDay(user: AuthUser, input: { title: string; exercises: ReusableDayExercise[] }) {
      const [row] = await db
        .insert(practicePlanDays)
        .values({ title: input.title, exercises: input.exercises, createdBy: user.id })
        .returning();
      return { id: row!.id, title: row!.title, exercises: row!.exercises };
    },
    async updateDay(id: number, input: { title: string; exercises: ReusableDayExercise[] }) {
      const [row] = await db
        .update(practicePlanDays)
        .set({ title: input.title, exercises: input.exercises, updatedAt: sql`now()` })
        .where(eq(practicePlanDays.id, id))
        .returning();
      if (!row) throw notFound(DAY_NOT_FOUND);
      return { id: row.id, title: row.title, exercises: row.exercises };
    },
    async removeDay(id: number) {
      const rows = await db
        .delete(practicePlanDays)
        .where(eq(practicePlanDays.id, id))
        .returning({ id: practicePlanDays.id });
      if (!rows.length) throw notFound(DAY_NOT_FOUND);
      return { deleted: true as const };
    },
  };
}
export type PracticePlanService = ReturnType<typeof createPracticePlanService>;
