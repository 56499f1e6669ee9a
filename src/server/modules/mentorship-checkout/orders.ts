import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { orders } from '#server/db/schema/index';
import { AppError } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import type { OrderRow, PaymentsService, SubscriptionState } from '#server/modules/payments/index';
import { MENTORSHIP_MESSAGES as M } from '#shared/mentorship';
import type { Enrolment } from './enrolment.ts';
import type { Instalments } from './instalments.ts';

export interface MentorshipCheckoutDeps {
  db: Database;
  payments: PaymentsService;
  enrolment: Enrolment;
  instalments: Instalments;
}

/** where a finished purchase lands */
export const MENTORSHIP_HOME = '/mentorship';

export const ACTIVE: SubscriptionState['status'][] = ['active', 'trialing'];

/** one attempt's order key: the user, what they buy and the browser's key, hashed */
export const attemptKey = (userId: number, kind: string, option: string, clientKey: string) =>
  `mentorship_${kind}_${createHash('sha256').update(`${userId}\u0000${option}\u0000${clientKey}`).digest('hex').slice(0, 40)}`;

export const alreadyEnrolled = () => new AppError('conflict', M.alreadyEnrolled);

/** What every paying step of the mentorship checkout does alike: the order, its facts, and the guard. */
export function createMentorshipOrders(deps: MentorshipCheckoutDeps) {
  const { db, enrolment } = deps;

  async function readOrder(id: number): Promise<OrderRow | null> {
    const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
    return row ?? null;
  }

  async function mergeMetadata(orderId: number, extra: Record<string, unknown>) {
    await db
      .update(orders)
      .set({ metadata: sql`${orders.metadata} || ${JSON.stringify(extra)}::jsonb` })
      .where(eq(orders.id, orderId));
  }

  async function markRequiresAction(orderId: number, ref: string) {
    await db
      .update(orders)
      .set({ status: 'requires_action', providerRef: ref })
      .where(and(eq(orders.id, orderId), sql`${orders.status} in ('pending', 'requires_action')`));
  }

  /** holds the mentorship (a mentorships row with access, or the entitlement itself, e.g. a demo student) */
  async function isEnrolled(user: AuthUser): Promise<boolean> {
    return user.entitlements.includes('mentorship') || (await enrolment.isEnrolled(user.id));
  }

  /**
   * Before paying: this attempt's order when it is already paid (a repeated submit answers it),
   * else 409 when the buyer already is a student; else null (go on).
   */
  async function guard(user: AuthUser, key: string): Promise<OrderRow | null> {
    const [mine] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.idempotencyKey, key), eq(orders.userId, user.id)))
      .limit(1);
    if (mine?.status === 'paid') return mine;
    if (await isEnrolled(user)) throw alreadyEnrolled();
    return null;
  }

  return { readOrder, mergeMetadata, markRequiresAction, isEnrolled, guard };
}
export type MentorshipOrders = ReturnType<typeof createMentorshipOrders>;
