import { and, eq } from 'drizzle-orm';
import {
  DEFAULT_CHECKOUT,
  DEFAULT_RETENTION_OFFERS,
  RETENTION,
  RETENTION_SETTING,
  COMMERCE_MESSAGES,
  type CancelOutcome,
  type ProviderName,
  type RetentionOffers,
} from '#shared/commerce';
import { retentionOffersSchema } from '#shared/retention';
import { reasonErrors, type Cycle, type PaymentKind } from '#shared/billing';
import type { Database } from '#server/db/client';
import { cancellationFeedback, checkoutPlans, orders, subscriptions } from '#server/db/schema/index';
import { AppError, notFound, ValidationError } from '#server/lib/errors';
import type { PaymentsService, SubscriptionRow } from '#server/modules/payments/index';
import type { PaymentProvider, SubscriptionState } from '#server/modules/payments/index';
import { ProviderError } from '#server/modules/payments/index';
import type { UserService } from '#server/modules/users/index';
import { createSettingsService } from '#server/modules/admin/index';
import type { AuthUser } from '#server/types';

export type RetentionAction =
  | 'discount'
  | 'upgrade-yearly'
  | 'upgrade-lifetime'
  | 'pause'
  | 'cancel'
  | 'suspend'
  | 'paypal-cancel'
  | 'lifetime-checkout'
  | 'resume';

export interface BillingDeps {
  db: Database;
  payments: PaymentsService;
  users: UserService;
}

export interface RetentionInput {
  reason: string;
  description: string;
  /** client key (Idempotency-Key header or idempotency_key field) */
  clientKey: string | null;
}

export interface ActionResult {
  message: string;
  /** lifetime-checkout: where the buyer approves */
  url?: string;
}

export const LIVE_STATUSES = new Set(['trialing', 'active', 'past_due']);

/** Card or PayPal: PayPal's own provider, or the sandbox playing PayPal (its payment method says so). */
export function paymentKind(sub: Pick<SubscriptionRow, 'provider' | 'paymentMethod' | 'providerRef'>): PaymentKind {
  if (sub.provider === 'paypal') return 'paypal';
  if (sub.provider === 'stripe') return 'card';
  return /^paypal/i.test(sub.paymentMethod) || /^(I-|sbx_?pp|pp_)/i.test(sub.providerRef) ? 'paypal' : 'card';
}

export const cycleOf = (sub: Pick<SubscriptionRow, 'plan'>): Cycle => (sub.plan === 'yearly' ? 'year' : 'month');

/**
 * What every billing flow shares: one change at a time per subscription, the subscription's
 * provider, its state synced from the provider's answer, and the member's reason stored with the
 * outcome (see createBillingService).
 */
export function createBillingContext(deps: BillingDeps) {
  const { db, payments } = deps;
  const locks = new Map<number, Promise<unknown>>();
  const settings = createSettingsService({ db });
  /** the retention offers admins set (commerce.ts's RETENTION by default): read on each use */
  const offers = (): Promise<RetentionOffers> =>
    settings.get(RETENTION_SETTING, retentionOffersSchema, DEFAULT_RETENTION_OFFERS);

  /** one change at a time per subscription (a double click waits for the first, then sees its result) */
  async function serial<T>(key: number, fn: () => Promise<T>): Promise<T> {
    const prev = locks.get(key) ?? Promise.resolve();
    const run = prev.catch(() => undefined).then(fn);
    locks.set(key, run);
    try {
      return await run;
    } finally {
      if (locks.get(key) === run) locks.delete(key);
    }
  }

  async function checkout(slug: string) {
    const [row] = await db.select().from(checkoutPlans).where(eq(checkoutPlans.slug, slug)).limit(1);
    return {
      yearly: row?.yearlyPriceCents ?? DEFAULT_CHECKOUT.yearlyPriceCents,
      lifetime: row?.lifetimePriceCents ?? RETENTION.defaultLifetimePriceCents,
    };
  }

  async function subscriptionRow(id: number) {
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    return row ?? null;
  }

  /** The member's current subscription of that kind (404 with the product message otherwise). */
  async function owned(user: AuthUser, kind: PaymentKind | null): Promise<SubscriptionRow> {
    const sub = await payments.currentSubscription(user.id);
    if (!sub || sub.userId !== user.id || (kind && paymentKind(sub) !== kind))
      throw notFound(COMMERCE_MESSAGES.noSubscription);
    return sub;
  }

  const refuse = (message: string, field = 'subscription') => new AppError('invalid', message, { [field]: [message] });

  function validateReason(input: { reason?: string | null; description?: string | null }): {
    reason: string;
    description: string;
  } {
    const errors = reasonErrors(input.reason, input.description);
    if (errors) throw new ValidationError(errors);
    return { reason: input.reason!.trim(), description: (input.description ?? '').trim() };
  }

  const idemKey = (user: AuthUser, sub: SubscriptionRow, action: string, clientKey: string | null) =>
    `billing:${user.id}:${sub.id}:${action}:${clientKey ? `k:${clientKey}` : `v:${sub.updatedAt.getTime()}`}`;

  function providerOf(sub: SubscriptionRow): PaymentProvider {
    return payments.providerFor(paymentKind(sub));
  }

  async function sync(sub: SubscriptionRow, state: SubscriptionState) {
    return payments.syncSubscription(sub.provider as ProviderName, state);
  }

  /** the subscription as the provider has it now, applied here; unchanged when the provider cannot say */
  async function refreshed(sub: SubscriptionRow): Promise<SubscriptionRow> {
    try {
      return (await sync(sub, await providerOf(sub).getSubscription(sub.providerRef))) ?? sub;
    } catch (err) {
      if (err instanceof ProviderError) return sub;
      throw err;
    }
  }

  async function feedback(
    sub: SubscriptionRow,
    userId: number,
    input: { reason: string; description: string },
    outcome: CancelOutcome,
    extra?: Partial<typeof subscriptions.$inferInsert>,
  ) {
    await db.transaction(async (tx) => {
      if (extra)
        await tx
          .update(subscriptions)
          .set({ ...extra, updatedAt: new Date() })
          .where(eq(subscriptions.id, sub.id));
      await tx.insert(cancellationFeedback).values({
        userId,
        subscriptionId: sub.id,
        provider: paymentKind(sub) === 'paypal' ? 'paypal' : 'card',
        cycle: cycleOf(sub),
        reason: input.reason,
        description: input.description,
        outcome,
      });
    });
  }

  /** A provider refusal in the member's words (422), anything else is ours (500). */
  async function viaProvider<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ProviderError && err.code !== 'provider_error' && err.code !== 'unsupported')
        throw refuse(err.message, 'payment');
      throw err;
    }
  }

  async function hasLifetime(userId: number) {
    const [row] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          eq(orders.kind, 'membership'),
          eq(orders.plan, 'lifetime'),
          eq(orders.status, 'paid'),
        ),
      )
      .limit(1);
    return !!row;
  }

  return {
    db,
    payments,
    offers,
    serial,
    checkout,
    subscriptionRow,
    owned,
    refuse,
    validateReason,
    idemKey,
    providerOf,
    sync,
    refreshed,
    feedback,
    viaProvider,
    hasLifetime,
  };
}
export type BillingContext = ReturnType<typeof createBillingContext>;

/**
 * One retention action on the member's subscription, as createBillingService's `retention` found
 * it: the subscription read afresh inside `serial`, the reason checked, the idempotency key made
 * and the offers read.
 */
export interface RetentionCall {
  user: AuthUser;
  action: RetentionAction;
  sub: SubscriptionRow;
  clientKey: string | null;
  /** the member's reason (empty for a plain upgrade) */
  input: { reason: string; description: string };
  /** an upgrade outside the cancel flow: full price, no reason, nothing stored */
  plain: boolean;
  key: string;
  provider: PaymentProvider;
  cycle: Cycle;
  /** running and not cancelling at the period end */
  live: boolean;
  notActive: () => AppError;
  o: RetentionOffers;
}
