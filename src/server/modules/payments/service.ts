import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '#server/db/client';
import {
  entitlements,
  invoices,
  orders,
  products,
  retentionUses,
  subscriptions,
  webhookEvents,
  webhookFailures,
} from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import type { NotificationService } from '#server/modules/notifications/index';
import type { UserService } from '#server/modules/users/index';
import type { AuthUser } from '#server/types';
import { COMMERCE_MESSAGES, type MembershipPlan, type ProviderName } from '#shared/commerce';
import { PROVIDER_NAMES, WEBHOOK_RETRY_MESSAGES } from '#shared/admin-commerce';
import { PRODUCT_MESSAGES } from '#shared/products';
import { DUNNING_MESSAGES, DUNNING_RETRY_DAYS, graceEndsAt, nextRetryAt } from '#shared/dunning';
import {
  MalformedEventError,
  ProviderError,
  type ChargeResult,
  type PaymentProvider,
  type ProviderEvent,
  type SubscriptionState,
} from './provider.ts';
import type { SandboxProvider } from './sandbox/index.ts';
import { escapeHtml } from '#server/lib/html';
import { fillReceiptMethod, issueCreditNote, issueReceipt, receiptOfInvoice } from '#server/modules/receipts/index';
import { formatMoney } from '#shared/money';

export type OrderRow = typeof orders.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

export interface PaymentsDeps {
  db: Database;
  users: UserService;
  notifications: NotificationService;
  /** the providers chosen by configuration: card = sandbox | stripe, paypal = sandbox | paypal */
  card: PaymentProvider;
  paypal: PaymentProvider;
  /** the built-in sandbox when one of the two is the sandbox (its pages, clock, webhooks) */
  sandbox?: SandboxProvider | null;
}

/** a signed webhook delivery that could not be applied (see `webhookFailures` in the schema) */
export interface WebhookFailureInput {
  provider: ProviderName;
  eventId: string | null;
  eventType: string | null;
  kind: 'rejected' | 'failed';
  reason: string;
  outline: string | null;
}
/** a reason longer than this is cut (an error message can quote a whole query or document) */
const WEBHOOK_REASON_MAX = 2000;

/** the provider events about a subscription (membership or someone else's, e.g. an instalment plan) */
export type SubscriptionEvent = Extract<
  ProviderEvent,
  { type: 'invoice.paid' | 'invoice.payment_failed' | 'subscription.updated' | 'subscription.canceled' }
>;

/**
 * Another module that owns some orders and provider subscriptions (the mentorship's
 * one-time orders and instalment plans). The ledger stays the one dispatch table: it calls the
 * owner for its orders once they are paid or refunded, and for provider subscription events that
 * are not a membership subscription. Every hook must be idempotent (replays, both the return
 * address and the webhook settling the same order).
 */
export interface PaymentsOwner {
  /** the `orders.kind` this owner settles */
  orderKind: string;
  /** the order is paid (every time markOrderPaid finds it paid) */
  orderPaid?(order: OrderRow): Promise<void>;
  /** the order's charge was refunded */
  orderRefunded?(order: OrderRow): Promise<void>;
  /** a subscription event the membership ledger does not know; answer true when it was yours */
  subscriptionEvent?(provider: ProviderName, event: SubscriptionEvent): Promise<boolean>;
  /** what a member may buy once among this owner's orders (see HoldRule) */
  hold?: HoldRule;
}

/**
 * How long an unfinished purchase keeps its hold: a card charge answers in seconds, 3-D Secure or a
 * PayPal capture in minutes. A hold older than this (the process stopped mid-charge, the buyer left
 * the authentication page) no longer stops the member from paying again.
 */
export const HOLD_MINUTES = 15;

/**
 * "At most one" for a kind of order: a member holds at most one live membership, one copy of each
 * course, one mentorship. Before the provider is asked to charge, the order takes its hold inside
 * one transaction: the partial unique index orders_one_hold lets one unfinished order per member and
 * scope exist, and `owned` (read after the hold is in place, so a purchase that finished meanwhile
 * is seen) refuses what the member already has. The second tab hears 409 with `refusal`.
 */
export interface HoldRule {
  /** what the order holds (`membership`, `course:{id}`, `mentorship`); null: nothing */
  scope(order: Pick<OrderRow, 'kind' | 'plan' | 'productSlug' | 'metadata'>): string | null;
  /** the member already has it (read with `tx`, inside the reserving transaction) */
  owned(tx: Executor, order: OrderRow): Promise<boolean>;
  /** what a second purchase answers (409): the words the page uses for "already yours" */
  refusal: string;
}

/** a unique index refused the row (PostgreSQL and PGlite both say 23505), maybe wrapped by drizzle */
function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

type StateOrder = { at: Date; sequence: number };
type OrderedRow = Pick<SubscriptionRow, 'providerStateAt' | 'providerStateSequence'>;

/**
 * The provider's order of a subscription state: its `asOf`, or, from a provider that does not say
 * (a Stripe call's answer, PayPal's subscription read afresh), the second it was read, as new as
 * anything the row took in that second (the provider's own event of the same second counts as new).
 */
export function stateOrder(
  state: Pick<SubscriptionState, 'asOf'>,
  row: OrderedRow | null = null,
  now = new Date(),
): StateOrder {
  if (state.asOf) return state.asOf;
  const at = new Date(Math.floor(now.getTime() / 1000) * 1000);
  return { at, sequence: row?.providerStateAt?.getTime() === at.getTime() ? row.providerStateSequence : 0 };
}

/** the state is older than the last one applied to the row: earlier, or the same second with a lower sequence */
export function isOlderState(asOf: StateOrder, row: OrderedRow): boolean {
  if (!row.providerStateAt) return false;
  const at = asOf.at.getTime();
  const last = row.providerStateAt.getTime();
  return at < last || (at === last && asOf.sequence < row.providerStateSequence);
}

const LOCAL_STATUSES = ['trialing', 'active', 'past_due', 'paused', 'canceled'] as const;
type LocalStatus = (typeof LOCAL_STATUSES)[number];
const isLocalStatus = (s: string): s is LocalStatus => (LOCAL_STATUSES as readonly string[]).includes(s);

/**
 * The ledger every purchase goes through: orders, subscriptions, invoices and the
 * entitlements they grant or take away. Checkout and billing routes call it; so do the webhook
 * handlers (one dispatch table, each event applied once). Every write is one transaction and
 * idempotent: calling it again with the same order, provider ref or event changes nothing.
 *
 * Entitlement rules (one place): a paid order grants its entitlement for good (membership for a
 * lifetime plan, `course:{courseId}` for a course tier); a subscription grants `membership` until its
 * current period end while trialing, active or past_due (the provider retries); cancelling keeps it
 * to the period end; pausing takes it away at once and resuming gives it back.
 *
 * One membership entitlement row per subscription (source `subscription:{id}`), its ends_at:
 * trialing/active/past_due → current period end (also when cancelling at period end); paused → now;
 * canceled → the period end when cancelled in good standing (PayPal cancels at once but the period
 * was paid), now when it was paused or past due (never later than it already was).
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const { db } = deps;
  const owners: PaymentsOwner[] = [];
  const ownerOf = (kind: string) => owners.find((o) => o.orderKind === kind) ?? null;
  /** a subscription event no membership row claimed: its owner's, if any */
  async function toOwners(provider: ProviderName, event: SubscriptionEvent) {
    for (const owner of owners) if (owner.subscriptionEvent && (await owner.subscriptionEvent(provider, event))) return;
  }

  function providerNamed(name: ProviderName): PaymentProvider {
    if (deps.card.name === name) return deps.card;
    return deps.paypal;
  }

  async function findOrder(id: number, tx: Executor = db) {
    const [row] = await tx.select().from(orders).where(eq(orders.id, id)).limit(1);
    return row ?? null;
  }

  const activeEntitlement = (tx: Executor, userId: number, kind: string, forGood = false) =>
    tx
      .select({ id: entitlements.id })
      .from(entitlements)
      .where(
        and(
          eq(entitlements.userId, userId),
          eq(entitlements.kind, kind),
          isNull(entitlements.revokedAt),
          forGood ? isNull(entitlements.endsAt) : or(isNull(entitlements.endsAt), gt(entitlements.endsAt, new Date())),
        ),
      )
      .limit(1)
      .then((rows) => rows.length > 0);

  /** a lifetime bought on the billing page by a subscriber: only a membership for good stops it */
  const isUpgrade = (order: Pick<OrderRow, 'plan' | 'metadata'>) =>
    order.plan === 'lifetime' && (order.metadata.source === 'upgrade' || order.metadata.source === 'retention');

  /** the ledger's own kinds; other owners bring theirs (PaymentsOwner.hold) */
  const ledgerHolds: Record<string, HoldRule> = {
    membership: {
      scope: () => 'membership',
      async owned(tx, order) {
        if (isUpgrade(order)) return activeEntitlement(tx, order.userId, 'membership', true);
        if (await activeEntitlement(tx, order.userId, 'membership')) return true;
        // a paused subscription, or one cancelled but still inside its paid period, is still theirs
        const [sub] = await tx
          .select({ id: subscriptions.id })
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.userId, order.userId),
              or(ne(subscriptions.status, 'canceled'), gt(subscriptions.currentPeriodEnd, new Date())),
            ),
          )
          .limit(1);
        return !!sub;
      },
      refusal: COMMERCE_MESSAGES.alreadySubscribed,
    },
    course: {
      // the entitlement a paid course order grants (markOrderPaidInLedger): the course, else the product
      scope: (order) =>
        `course:${typeof order.metadata.courseId === 'number' ? order.metadata.courseId : order.productSlug}`,
      owned: (tx, order) => activeEntitlement(tx, order.userId, ledgerHolds.course!.scope(order)!),
      refusal: PRODUCT_MESSAGES.alreadyOwned,
    },
  };
  const holdRule = (kind: string): HoldRule | null => ledgerHolds[kind] ?? ownerOf(kind)?.hold ?? null;

  /** holds of the member's unfinished purchases that outlived HOLD_MINUTES are let go */
  async function lapseHolds(tx: Executor, userId: number, scope: string) {
    await tx
      .update(orders)
      .set({ hold: null, heldAt: null })
      .where(
        and(
          eq(orders.userId, userId),
          eq(orders.hold, scope),
          lt(orders.heldAt, new Date(Date.now() - HOLD_MINUTES * 60_000)),
        ),
      );
  }

  /**
   * The order takes its hold before money moves (a PayPal capture, recording an approved PayPal
   * subscription, a hosted checkout found paid): AppError 409 with the rule's refusal when another
   * purchase of the member holds the same thing or the member already has it. Held already, or a
   * kind without a rule: nothing to do.
   */
  async function takeHold(orderId: number): Promise<void> {
    const order = await findOrder(orderId);
    // only an unfinished order holds anything (a failed one answers its own 409 in markOrderPaidInLedger)
    if (!order || order.hold !== null || (order.status !== 'pending' && order.status !== 'requires_action')) return;
    const rule = holdRule(order.kind);
    const scope = rule?.scope(order) ?? null;
    if (!rule || !scope) return;
    try {
      await db.transaction(async (tx) => {
        await lapseHolds(tx, order.userId, scope);
        await tx.update(orders).set({ hold: scope, heldAt: new Date() }).where(eq(orders.id, order.id));
        if (await rule.owned(tx, order)) throw new AppError(409, rule.refusal);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(409, rule.refusal);
      throw err;
    }
  }

  /** the order's outcome is written (granted, failed, refunded): its hold is let go */
  async function releaseHold(orderId: number, tx: Executor = db) {
    await tx
      .update(orders)
      .set({ hold: null, heldAt: null })
      .where(and(eq(orders.id, orderId), sql`${orders.hold} is not null`));
  }

  /** a paid charge was written: its receipt, in the same transaction (nothing for a charge of nothing) */
  async function receiptFor(tx: Executor, invoice: typeof invoices.$inferSelect, paymentMethod: string) {
    if (invoice.status !== 'paid' || invoice.amountCents <= 0) return;
    await issueReceipt(tx, {
      source: `invoice:${invoice.id}`,
      userId: invoice.userId,
      item: invoice.description,
      amountCents: invoice.amountCents,
      currency: invoice.currency,
      paymentMethod,
      provider: invoice.provider,
      invoiceId: invoice.id,
      orderId: invoice.orderId,
      subscriptionId: invoice.subscriptionId,
      issuedAt: invoice.createdAt,
    });
  }

  /**
   * The money arrived for an order that could not take its hold (the member got the same thing
   * meanwhile through another purchase, or the last spot went to someone else): the order fails,
   * the charge is refunded, and the caller hears 409 with `message`.
   */
  async function refuseCharged(order: OrderRow, chargeRef: string, message: string): Promise<never> {
    await markOrderFailed(order.id, message);
    await db
      .update(orders)
      .set({
        providerRef: sql`coalesce(${orders.providerRef}, ${chargeRef})`,
        metadata: sql`${orders.metadata} || ${JSON.stringify({ chargeRef })}::jsonb`,
      })
      .where(eq(orders.id, order.id));
    await providerNamed(order.provider)
      .refund(chargeRef, `refund:order:${order.id}`)
      .catch(() => undefined);
    throw new AppError(409, message);
  }

  async function setMembership(tx: Executor, sub: SubscriptionRow, endsAt: Date) {
    const source = `subscription:${sub.id}`;
    const [row] = await tx
      .select({ id: entitlements.id })
      .from(entitlements)
      .where(
        and(eq(entitlements.userId, sub.userId), eq(entitlements.kind, 'membership'), eq(entitlements.source, source)),
      )
      .limit(1);
    if (row) await tx.update(entitlements).set({ endsAt, revokedAt: null }).where(eq(entitlements.id, row.id));
    else await deps.users.grantEntitlement(sub.userId, 'membership', source, endsAt, tx);
  }

  async function currentMembershipEnd(tx: Executor, sub: SubscriptionRow): Promise<Date | null> {
    const [row] = await tx
      .select({ endsAt: entitlements.endsAt })
      .from(entitlements)
      .where(
        and(
          eq(entitlements.userId, sub.userId),
          eq(entitlements.kind, 'membership'),
          eq(entitlements.source, `subscription:${sub.id}`),
        ),
      )
      .limit(1);
    return row?.endsAt ?? null;
  }

  /** ends_at of the subscription's membership after moving from `previous` to the row's state */
  async function membershipEndsAt(tx: Executor, sub: SubscriptionRow, previous: LocalStatus | null): Promise<Date> {
    const now = new Date();
    switch (sub.status) {
      case 'trialing':
      case 'active':
        return sub.currentPeriodEnd;
      case 'past_due':
        // lessons stay open through the grace period (docs/product/dunning.md), not the unpaid period
        return sub.graceEndsAt && sub.graceEndsAt < sub.currentPeriodEnd ? sub.graceEndsAt : sub.currentPeriodEnd;
      case 'paused':
        return now;
      case 'canceled': {
        const existing = (await currentMembershipEnd(tx, sub)) ?? sub.currentPeriodEnd;
        const end = previous === 'paused' || previous === 'past_due' ? now : sub.currentPeriodEnd;
        return end < existing ? end : existing;
      }
    }
  }

  async function markOrderFailed(orderId: number, message: string): Promise<OrderRow> {
    const [row] = await db
      .update(orders)
      .set({ status: 'failed', failureMessage: message, hold: null, heldAt: null })
      .where(and(eq(orders.id, orderId), inArray(orders.status, ['pending', 'requires_action'])))
      .returning();
    const order = row ?? (await findOrder(orderId));
    if (!order) throw notFound();
    return order;
  }

  /**
   * markOrderPaid, then the order's owner hears it is paid (every time: its hook is idempotent);
   * the order lets go of its hold once what it grants is written. An order that reaches here
   * without a hold (paid on a provider's page) takes it first, and is refunded when it cannot.
   */
  async function markOrderPaid(
    orderId: number,
    charge: Pick<ChargeResult, 'ref' | 'paymentMethodLabel'>,
  ): Promise<OrderRow> {
    try {
      await takeHold(orderId);
    } catch (err) {
      const unpaid = await findOrder(orderId);
      if (!(err instanceof AppError && err.statusCode === 409) || !unpaid) throw err;
      return refuseCharged(unpaid, charge.ref, err.message);
    }
    const order = await markOrderPaidInLedger(orderId, charge);
    const owner = ownerOf(order.kind);
    if (owner?.orderPaid && order.status === 'paid') await owner.orderPaid(order);
    if (order.status === 'paid' && order.hold !== null) {
      await releaseHold(order.id);
      return { ...order, hold: null, heldAt: null };
    }
    return order;
  }

  async function markOrderPaidInLedger(
    orderId: number,
    charge: Pick<ChargeResult, 'ref' | 'paymentMethodLabel'>,
  ): Promise<OrderRow> {
    const outcome = await db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!order) throw notFound();
      if (order.status === 'paid') {
        // the provider's webhook can settle the order before the charge's answer names the card: the
        // receipt learns the method then
        if (charge.paymentMethodLabel) await fillReceiptMethod(tx, order.id, charge.paymentMethodLabel);
        return { order, soldOut: false };
      }
      if (order.status === 'failed' || order.status === 'refunded' || order.status === 'canceled') {
        throw new AppError(409, order.failureMessage ?? COMMERCE_MESSAGES.paymentCanceled);
      }
      let entitlement: string | null = null;
      let itemTitle: string | null = null;
      if (order.kind === 'course') {
        const [product] = await tx
          .update(products)
          .set({ sold: sql`${products.sold} + 1` })
          .where(
            and(eq(products.slug, order.productSlug), or(isNull(products.spots), lt(products.sold, products.spots))),
          )
          .returning();
        if (!product) return { order, soldOut: true };
        entitlement = `course:${product.courseId ?? product.slug}`;
        itemTitle = `Course: ${product.title}`;
      } else if (order.kind === 'membership' && order.plan === 'lifetime') {
        entitlement = 'membership';
      } else if (typeof order.metadata.entitlement === 'string') {
        entitlement = order.metadata.entitlement;
      }
      const [paid] = await tx
        .update(orders)
        .set({
          status: 'paid',
          paidAt: new Date(),
          failureMessage: null,
          providerRef: order.providerRef ?? charge.ref,
          metadata: { ...order.metadata, paymentMethod: charge.paymentMethodLabel, chargeRef: charge.ref },
        })
        .where(eq(orders.id, order.id))
        .returning();
      const [invoice] = await tx
        .insert(invoices)
        .values({
          userId: order.userId,
          orderId: order.id,
          provider: order.provider,
          providerRef: charge.ref,
          amountCents: order.amountCents,
          currency: order.currency,
          status: 'paid',
          description:
            typeof order.metadata.description === 'string'
              ? order.metadata.description
              : (itemTitle ?? describeOrder(order)),
        })
        .onConflictDoNothing()
        .returning();
      if (invoice) await receiptFor(tx, invoice, charge.paymentMethodLabel);
      if (entitlement) await deps.users.grantEntitlement(order.userId, entitlement, `order:${order.id}`, null, tx);
      return { order: paid!, soldOut: false };
    });
    if (outcome.soldOut) return refuseCharged(outcome.order, charge.ref, COMMERCE_MESSAGES.soldOut);
    return outcome.order;
  }

  /**
   * A subscription state from the provider (an event, or its answer to our call) is applied in the
   * provider's own order, never by its period end (which the provider moves: a resume, a renewal,
   * a plan change). See docs/product/billing-events.md.
   */
  async function syncSubscription(provider: ProviderName, state: SubscriptionState): Promise<SubscriptionRow | null> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerRef, state.ref)))
        .for('update');
      if (!row) return null;
      if (!isLocalStatus(state.status)) return row;
      // canceled is final at every provider; an older state than the last applied one changes nothing
      if (row.status === 'canceled') return row;
      const asOf = stateOrder(state, row);
      if (isOlderState(asOf, row)) return row;
      const now = new Date();
      // the last retry failed and the provider ended it: the unpaid period was never the member's
      const unpaid = state.status === 'canceled' && (row.status === 'past_due' || row.endedReason === 'unpaid');
      // paid again (or ended): nothing is due any more
      const settled =
        state.status !== 'past_due' ? { pastDueSince: null, nextRetryAt: null, retriesDone: 0, graceEndsAt: null } : {};
      const [updated] = await tx
        .update(subscriptions)
        .set({
          ...settled,
          ...(unpaid ? { endedReason: 'unpaid' as const } : {}),
          status: state.status,
          plan: state.interval === 'year' ? 'yearly' : 'monthly',
          priceCents: state.priceCents,
          paymentMethod: state.paymentMethodLabel || row.paymentMethod,
          currentPeriodEnd: unpaid && state.currentPeriodEnd > now ? now : state.currentPeriodEnd,
          trialEndsAt: state.trialEndsAt,
          cancelAtPeriodEnd: state.cancelAtPeriodEnd,
          canceledAt: state.status === 'canceled' || state.cancelAtPeriodEnd ? (row.canceledAt ?? now) : null,
          pausedAt: state.status === 'paused' ? (row.pausedAt ?? now) : null,
          providerStateAt: asOf.at,
          providerStateSequence: asOf.sequence,
          updatedAt: now,
        })
        .where(eq(subscriptions.id, row.id))
        .returning();
      await setMembership(tx, updated!, await membershipEndsAt(tx, updated!, row.status));
      // however it was paused (here, or at the provider), that was the subscription's one pause
      if (updated!.status === 'paused') {
        await tx
          .insert(retentionUses)
          .values({ subscriptionId: row.id, kind: 'pause', userId: row.userId, doneAt: now })
          .onConflictDoNothing();
      }
      return updated!;
    });
  }

  /**
   * A membership payment failed (the first time or on a retry): what is due, the retries made, the
   * provider's next retry (our schedule when the provider does not say) and the end of the grace
   * period, which also ends the membership's access while the subscription is past due.
   */
  async function recordFailure(
    sub: SubscriptionRow,
    inv: Extract<ProviderEvent, { invoice: unknown }>['invoice'],
    newInvoice: boolean,
  ): Promise<SubscriptionRow | null> {
    return db.transaction(async (tx) => {
      const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id)).for('update');
      if (!row || row.status === 'canceled') return null;
      const now = new Date();
      const since = row.pastDueSince ?? now;
      const retriesDone =
        inv.attemptCount !== undefined
          ? Math.max(0, inv.attemptCount - 1)
          : row.pastDueSince && newInvoice
            ? row.retriesDone + 1
            : row.retriesDone;
      const next = inv.nextAttemptAt !== undefined ? inv.nextAttemptAt : nextRetryAt(since, retriesDone);
      const [updated] = await tx
        .update(subscriptions)
        .set({
          pastDueSince: since,
          pastDueAmountCents: inv.amountCents,
          retriesDone,
          nextRetryAt: next,
          // no retry left: the grace period is over
          graceEndsAt: next ? graceEndsAt(next, retriesDone) : now,
          updatedAt: now,
        })
        .where(eq(subscriptions.id, row.id))
        .returning();
      if (updated!.status === 'past_due')
        await setMembership(tx, updated!, await membershipEndsAt(tx, updated!, row.status));
      return updated!;
    });
  }

  async function findSubscription(provider: ProviderName, ref: string) {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerRef, ref)))
      .limit(1);
    return row ?? null;
  }

  async function orderForCharge(provider: ProviderName, charge: { ref: string; metadata: Record<string, string> }) {
    const id = Number(charge.metadata?.orderId);
    if (Number.isInteger(id) && id > 0) {
      const order = await findOrder(id);
      if (order && order.provider === provider) return order;
    }
    const [byRef] = await db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.provider, provider),
          or(eq(orders.providerRef, charge.ref), sql`${orders.metadata}->>'chargeRef' = ${charge.ref}`),
        ),
      )
      .limit(1);
    return byRef ?? null;
  }

  type EventOf<T> = ProviderEvent extends infer E
    ? E extends { type: infer U }
      ? T extends U
        ? E
        : never
      : never
    : never;
  type Handler<T extends ProviderEvent['type']> = (provider: ProviderName, event: EventOf<T>) => Promise<void>;
  /** THE dispatch table: one idempotent handler per event type */
  const handlers: { [T in Exclude<ProviderEvent['type'], 'ignored'>]: Handler<T> } = {
    async 'charge.succeeded'(provider, event) {
      const order = await orderForCharge(provider, event.charge);
      if (!order || (order.status !== 'pending' && order.status !== 'requires_action')) return;
      if (event.charge.amountCents !== order.amountCents) return; // not the charge we asked for
      try {
        await markOrderPaid(order.id, {
          ref: event.charge.ref,
          paymentMethodLabel: String(order.metadata.paymentMethod ?? ''),
        });
      } catch (err) {
        if (!(err instanceof AppError && err.statusCode === 409)) throw err;
      }
    },
    async 'charge.failed'(provider, event) {
      const order = await orderForCharge(provider, event.charge);
      if (order) await markOrderFailed(order.id, event.charge.failureMessage ?? COMMERCE_MESSAGES.cardDeclined);
    },
    async 'charge.refunded'(provider, event) {
      const found = await orderForCharge(provider, event.charge);
      // a subscription's charges carry its order's id too: only the order's own charge refunds the order
      const order =
        found && (found.providerRef === event.charge.ref || found.metadata.chargeRef === event.charge.ref)
          ? found
          : null;
      await db.transaction(async (tx) => {
        const refunded = await tx
          .update(invoices)
          .set({ status: 'refunded' })
          .where(and(eq(invoices.provider, provider), eq(invoices.providerRef, event.charge.ref)))
          .returning();
        for (const invoice of refunded) {
          const receipt = await receiptOfInvoice(tx, invoice.id);
          // the whole charge went back (what an admin refunded of it before has its credit notes already)
          const left = invoice.amountCents - invoice.refundedCents;
          if (receipt && left > 0) {
            await issueCreditNote(tx, receipt, {
              source: `refund:${provider}:${event.charge.ref}`,
              amountCents: Math.min(left, event.charge.amountCents || left),
            });
            await tx.update(invoices).set({ refundedCents: invoice.amountCents }).where(eq(invoices.id, invoice.id));
          }
        }
        if (!order) return;
        await tx
          .update(orders)
          .set({ status: 'refunded', hold: null, heldAt: null })
          .where(and(eq(orders.id, order.id), ne(orders.status, 'refunded')));
        await tx
          .update(entitlements)
          .set({ revokedAt: new Date() })
          .where(
            and(
              eq(entitlements.userId, order.userId),
              eq(entitlements.source, `order:${order.id}`),
              isNull(entitlements.revokedAt),
            ),
          );
      });
      const owner = order ? ownerOf(order.kind) : null;
      if (order && owner?.orderRefunded) await owner.orderRefunded({ ...order, status: 'refunded' });
    },
    async 'invoice.paid'(provider, event) {
      const sub = await findSubscription(provider, event.invoice.subscriptionRef);
      if (!sub) return toOwners(provider, event);
      const inv = event.invoice;
      // the first invoice is written by recordSubscription: the same period is the same invoice
      const [same] = await db
        .select({ id: invoices.id })
        .from(invoices)
        .where(
          and(
            eq(invoices.subscriptionId, sub.id),
            eq(invoices.providerRef, `${sub.providerRef}:initial`),
            sql`abs(extract(epoch from (${invoices.periodEnd} - ${inv.periodEnd.toISOString()}::timestamptz))) < 60`,
          ),
        )
        .limit(1);
      if (same) return;
      await db.transaction(async (tx) => {
        // a failed invoice paid on a retry or by "Pay now": the same invoice, paid now
        const [recovered] = await tx
          .update(invoices)
          .set({ status: 'paid' })
          .where(and(eq(invoices.provider, provider), eq(invoices.providerRef, inv.ref), eq(invoices.status, 'failed')))
          .returning();
        await tx
          .update(subscriptions)
          .set({
            pastDueSince: null,
            pastDueAmountCents: null,
            nextRetryAt: null,
            retriesDone: 0,
            graceEndsAt: null,
            updatedAt: new Date(),
          })
          .where(and(eq(subscriptions.id, sub.id), sql`${subscriptions.pastDueSince} is not null`));
        const [invoice] = recovered
          ? [recovered]
          : await tx
              .insert(invoices)
              .values({
                userId: sub.userId,
                subscriptionId: sub.id,
                provider,
                providerRef: inv.ref,
                amountCents: inv.amountCents,
                status: 'paid',
                description: describeSubscription(sub),
                periodStart: inv.periodStart,
                periodEnd: inv.periodEnd,
              })
              .onConflictDoNothing()
              .returning();
        // every payment has its receipt, a recovered one too
        if (invoice) await receiptFor(tx, invoice, sub.paymentMethod);
      });
    },
    async 'invoice.payment_failed'(provider, event) {
      const sub = await findSubscription(provider, event.invoice.subscriptionRef);
      if (!sub) return toOwners(provider, event);
      const inv = event.invoice;
      const [row] = await db
        .insert(invoices)
        .values({
          userId: sub.userId,
          subscriptionId: sub.id,
          provider,
          providerRef: inv.ref,
          amountCents: inv.amountCents,
          status: 'failed',
          description: describeSubscription(sub),
          periodStart: inv.periodStart,
          periodEnd: inv.periodEnd,
        })
        .onConflictDoNothing()
        .returning();
      const due = await recordFailure(sub, inv, !!row);
      if (!row) return;
      // the next retry and the end of the grace period, when the subscription has them (docs/product/dunning.md)
      const grace =
        due?.graceEndsAt && due.nextRetryAt
          ? ` ${DUNNING_MESSAGES.nextRetry({ nextRetryAt: due.nextRetryAt.toISOString(), retriesDone: due.retriesDone, retriesTotal: DUNNING_RETRY_DAYS.length })} ${DUNNING_MESSAGES.grace({ graceEndsAt: due.graceEndsAt.toISOString() })}`
          : '';
      await deps.notifications.notify(sub.userId, {
        body: `<p>We could not collect your membership payment of <strong>${escapeHtml(formatMoney(inv.amountCents))}</strong>${sub.paymentMethod ? ` from ${escapeHtml(sub.paymentMethod)}` : ''}. Please update your payment method on the billing page to keep your membership.${escapeHtml(grace)}</p>`,
        url: '/account/billing',
      });
    },
    async 'subscription.updated'(provider, event) {
      if (!(await syncSubscription(provider, event.subscription))) await toOwners(provider, event);
    },
    async 'subscription.canceled'(provider, event) {
      const before = await findSubscription(provider, event.subscription.ref);
      const after = await syncSubscription(provider, { ...event.subscription, status: 'canceled' });
      if (!after) return toOwners(provider, event);
      // the last retry failed: the member hears that the membership ended, and why
      if (before && before.status !== 'canceled' && after.endedReason === 'unpaid') {
        const ended = {
          endedAt: (after.canceledAt ?? new Date()).toISOString(),
          amount: after.pastDueAmountCents ?? after.priceCents,
          currency: after.currency,
        };
        await deps.notifications.notify(after.userId, {
          body: `<p>${escapeHtml(DUNNING_MESSAGES.ended(ended))}</p>`,
          url: '/account/billing',
        });
      }
    },
  };

  /** a delivery of this event was applied at last: its earlier failures need nobody's attention now */
  async function resolveWebhookFailures(provider: ProviderName, eventId: string) {
    await db
      .update(webhookFailures)
      .set({ resolvedAt: new Date() })
      .where(
        and(
          eq(webhookFailures.provider, provider),
          eq(webhookFailures.eventId, eventId),
          isNull(webhookFailures.resolvedAt),
        ),
      );
  }

  return {
    card: deps.card,
    paypal: deps.paypal,
    /** the built-in sandbox provider (null when neither payment type uses it) */
    sandbox: deps.sandbox ?? null,
    /** the provider a payment type uses */
    providerFor(type: 'card' | 'paypal'): PaymentProvider {
      return type === 'card' ? deps.card : deps.paypal;
    },
    /** (added) the provider that answers for a stored order/subscription's provider name */
    providerNamed,
    /**
     * Another module takes its orders and non-membership subscriptions through this
     * ledger's dispatch table (see PaymentsOwner). Answers a function that removes it again.
     */
    registerOwner(owner: PaymentsOwner): () => void {
      owners.push(owner);
      return () => {
        const i = owners.indexOf(owner);
        if (i >= 0) owners.splice(i, 1);
      };
    },

    /**
     * Insert a pending order, or answer the existing one for the same idempotency key (a double
     * submit or a retried request is one order). `amountCents` must come from the server's catalogue.
     *
     * `hold: true` (a purchase the provider is about to charge): the order takes its kind's hold in
     * the same transaction (HoldRule), so of two tabs paying at once one gets the order and the
     * other AppError 409 with the page's "already yours" words, before anything is charged.
     */
    async startOrder(
      user: AuthUser,
      input: {
        kind: 'membership' | 'course' | 'mentorship';
        productSlug: string;
        plan: MembershipPlan | null;
        amountCents: number;
        provider: ProviderName;
        affiliate: string | null;
        idempotencyKey: string;
        metadata?: Record<string, unknown>;
      },
      options: { hold?: boolean } = {},
    ): Promise<{ order: OrderRow; created: boolean }> {
      const values = {
        userId: user.id,
        kind: input.kind,
        productSlug: input.productSlug,
        plan: input.plan,
        amountCents: input.amountCents,
        provider: input.provider,
        affiliate: input.affiliate,
        idempotencyKey: input.idempotencyKey,
        metadata: input.metadata ?? {},
      };
      const existing = async (tx: Executor = db) => {
        const [row] = await tx.select().from(orders).where(eq(orders.idempotencyKey, input.idempotencyKey)).limit(1);
        if (row && row.userId !== user.id)
          throw new AppError(409, 'This request was already used. Please refresh the page and try again.');
        return row ? { order: row, created: false } : null;
      };
      const rule = options.hold ? holdRule(input.kind) : null;
      const scope = rule?.scope(values) ?? null;
      if (!rule || !scope) {
        const [created] = await db
          .insert(orders)
          .values(values)
          .onConflictDoNothing({ target: orders.idempotencyKey })
          .returning();
        if (created) return { order: created, created: true };
        const again = await existing();
        if (!again) throw new AppError(409, 'This request was already used. Please refresh the page and try again.');
        return again;
      }
      return db.transaction(async (tx) => {
        // the same attempt again (a double click, a retry, the return from 3-D Secure): its own order
        const same = await existing(tx);
        if (same) return same;
        await lapseHolds(tx, user.id, scope);
        // the hold first: a purchase still holding it makes this insert do nothing; one that
        // finished before it is seen by `owned` below (a later statement sees what it wrote)
        const [created] = await tx
          .insert(orders)
          .values({ ...values, hold: scope, heldAt: new Date() })
          .onConflictDoNothing()
          .returning();
        if (!created) {
          // the same key won on another process meanwhile, or another purchase holds the scope
          const raced = await existing(tx);
          if (raced) return raced;
          throw new AppError(409, rule.refusal);
        }
        if (await rule.owned(tx, created)) throw new AppError(409, rule.refusal);
        return { order: created, created: true };
      });
    },
    /** set the provider's ref on a pending order (PayPal order id, payment intent id) */
    async attachProviderRef(orderId: number, ref: string): Promise<void> {
      await db.update(orders).set({ providerRef: ref }).where(eq(orders.id, orderId));
    },
    /** (added) an order by id */
    findOrder: (id: number) => findOrder(id),
    /**
     * Wait (up to 15 s) while another request, the first of a double submit, is still working on
     * this pending order; `ready` ends the wait early (e.g. once it has stored an approval address).
     */
    async settledOrder(order: OrderRow, ready: (o: OrderRow) => boolean = () => false): Promise<OrderRow> {
      let current = order;
      for (let i = 0; i < 60 && current.status === 'pending' && !ready(current); i++) {
        await new Promise((r) => setTimeout(r, 250));
        current = (await findOrder(order.id)) ?? current;
      }
      return current;
    },
    /** (added) the order a provider ref belongs to (PayPal return: `token`) */
    async findOrderByRef(provider: ProviderName, ref: string) {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.provider, provider), eq(orders.providerRef, ref)))
        .limit(1);
      return row ?? null;
    },
    /**
     * A charge succeeded: the order is paid, an invoice is written, the entitlement granted (lifetime
     * membership, or `course:{id}` with the product's sold count raised, refusing when sold out:
     * AppError 409 soldOut, the order failed and the charge refunded). Paid already: no change.
     * A failed/refunded order answers AppError 409 with its failure message.
     */
    markOrderPaid,
    markOrderFailed,
    /**
     * The order takes its hold now, before money moves on a path where the buyer
     * approved elsewhere first (PayPal capture, an approved PayPal subscription): AppError 409 with
     * the page's "already yours" words when the member has it or another purchase is getting it.
     */
    takeHold,
    /** a new subscription (after subscribeCard or a PayPal approval): row, first invoice, membership */
    async recordSubscription(
      userId: number,
      orderId: number | null,
      checkoutSlug: string,
      provider: ProviderName,
      state: SubscriptionState,
    ): Promise<SubscriptionRow> {
      if (!isLocalStatus(state.status)) throw new AppError(409, COMMERCE_MESSAGES.cardDeclined);
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(subscriptions)
          .values({
            userId,
            orderId,
            provider,
            providerRef: state.ref,
            checkoutSlug,
            plan: state.interval === 'year' ? 'yearly' : 'monthly',
            status: state.status as LocalStatus,
            priceCents: state.priceCents,
            paymentMethod: state.paymentMethodLabel,
            currentPeriodEnd: state.currentPeriodEnd,
            trialEndsAt: state.trialEndsAt,
            cancelAtPeriodEnd: state.cancelAtPeriodEnd,
            providerStateAt: stateOrder(state).at,
            providerStateSequence: stateOrder(state).sequence,
          })
          .onConflictDoNothing()
          .returning();
        if (!created) return null;
        if (state.status === 'active' && state.priceCents > 0) {
          const periodEnd = state.currentPeriodEnd;
          const periodStart = new Date(periodEnd);
          if (state.interval === 'year') periodStart.setUTCFullYear(periodStart.getUTCFullYear() - 1);
          else periodStart.setUTCMonth(periodStart.getUTCMonth() - 1);
          const [invoice] = await tx
            .insert(invoices)
            .values({
              userId,
              subscriptionId: created.id,
              orderId,
              provider,
              providerRef: `${state.ref}:initial`,
              amountCents: state.priceCents,
              status: 'paid',
              description: describeSubscription(created),
              periodStart,
              periodEnd,
            })
            .onConflictDoNothing()
            .returning();
          if (invoice) await receiptFor(tx, invoice, state.paymentMethodLabel);
        }
        if (orderId !== null) {
          await tx
            .update(orders)
            .set({
              status: 'paid',
              paidAt: new Date(),
              providerRef: sql`coalesce(${orders.providerRef}, ${state.ref})`,
              failureMessage: null,
            })
            .where(and(eq(orders.id, orderId), ne(orders.status, 'paid')));
          // the membership is written in this transaction: the purchase's hold is no longer needed
          await releaseHold(orderId, tx);
        }
        await setMembership(tx, created, await membershipEndsAt(tx, created, null));
        return created;
      });
      if (row) return row;
      // recorded already: bring it up to date instead
      return (await syncSubscription(provider, state)) ?? (await findSubscription(provider, state.ref))!;
    },
    /** the provider says a subscription changed: status, period, and the membership follow */
    syncSubscription,
    /**
     * An admin refunded the period the member is in: the subscription's membership ends now. Later
     * provider events for the cancelled subscription never move it out again (see membershipEndsAt).
     */
    async endMembershipNow(subscriptionId: number): Promise<void> {
      await db
        .update(entitlements)
        .set({ endsAt: new Date() })
        .where(
          and(
            eq(entitlements.kind, 'membership'),
            eq(entitlements.source, `subscription:${subscriptionId}`),
            or(isNull(entitlements.endsAt), gt(entitlements.endsAt, new Date())),
          ),
        );
    },
    /** the member's current subscription (not canceled, or canceled but still in its paid period) */
    async currentSubscription(userId: number): Promise<SubscriptionRow | null> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            or(ne(subscriptions.status, 'canceled'), gt(subscriptions.currentPeriodEnd, new Date())),
          ),
        )
        .orderBy(desc(subscriptions.id))
        .limit(1);
      return row ?? null;
    },
    /** (added) update the retention discount columns etc. of a subscription row */
    async updateSubscription(
      id: number,
      values: Partial<
        Pick<
          SubscriptionRow,
          'discountUsedAt' | 'discountPercent' | 'discountAmountCents' | 'discountCyclesLeft' | 'priceCents' | 'plan'
        >
      >,
    ) {
      const [row] = await db
        .update(subscriptions)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(subscriptions.id, id))
        .returning();
      return row ?? null;
    },
    /** apply a provider event exactly once (webhook_events), through the dispatch table */
    async handleEvent(provider: ProviderName, event: ProviderEvent): Promise<'applied' | 'duplicate' | 'ignored'> {
      const [fresh] = await db
        .insert(webhookEvents)
        .values({ provider, eventId: event.id, type: event.type === 'ignored' ? event.providerType : event.type })
        .onConflictDoNothing()
        .returning();
      if (!fresh) return 'duplicate';
      if (event.type === 'ignored') {
        await db
          .update(webhookEvents)
          .set({ processedAt: new Date() })
          .where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, event.id)));
        await resolveWebhookFailures(provider, event.id);
        return 'ignored';
      }
      try {
        await (handlers[event.type] as Handler<typeof event.type>)(provider, event as never);
      } catch (err) {
        // not applied: let the provider's retry apply it
        await db
          .delete(webhookEvents)
          .where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, event.id)));
        throw err;
      }
      await db
        .update(webhookEvents)
        .set({ processedAt: new Date() })
        .where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, event.id)));
      await resolveWebhookFailures(provider, event.id);
      return 'applied';
    },
    /**
     * A subscription approved at the provider that must not stand, because the member already has what
     * it buys (docs/product/billing-once.md): cancelled at once, and the first payment it took on
     * approval (PayPal without a trial) refunded, so nothing is charged twice. Best effort: the member's
     * answer does not wait on the provider's refusal.
     */
    async withdrawSubscription(provider: PaymentProvider, ref: string, idempotencyKey: string): Promise<void> {
      await provider.cancel(ref, { atPeriodEnd: false }, idempotencyKey).catch(() => undefined);
      const charge = await provider.subscriptionPaymentCharge(ref, null).catch(() => null);
      if (charge) await provider.refund(charge, `${idempotencyKey}:refund-first-payment`).catch(() => undefined);
    },
    /** the provider whose webhooks `name` names, when this server takes payments through it */
    webhookProvider(name: ProviderName): PaymentProvider | null {
      if (name === 'sandbox') return deps.sandbox ?? null;
      if (name === 'stripe') return deps.card.name === 'stripe' ? deps.card : null;
      return deps.paypal.name === 'paypal' ? deps.paypal : null;
    },
    /**
     * An admin's retry of a delivery that could not be applied: the event is read again from the
     * provider (the delivery's own body is not kept) and applied as a delivery would be. A retry that
     * fails again counts as another delivery on the row, with its reason (docs/product/webhook-failures.md).
     */
    async retryWebhookFailure(id: number): Promise<{ outcome: 'applied' | 'duplicate' | 'ignored' }> {
      const [failure] = await db.select().from(webhookFailures).where(eq(webhookFailures.id, id)).limit(1);
      if (!failure) throw notFound(WEBHOOK_RETRY_MESSAGES.notFound);
      if (failure.resolvedAt) throw new AppError(409, WEBHOOK_RETRY_MESSAGES.resolved);
      if (!failure.eventId) throw new AppError(422, WEBHOOK_RETRY_MESSAGES.noEventId);
      const name = failure.provider as ProviderName;
      const provider = this.webhookProvider(name);
      const providerName = PROVIDER_NAMES[name] ?? failure.provider;
      if (!provider) throw new AppError(422, WEBHOOK_RETRY_MESSAGES.providerNotInUse(providerName));
      const again = async (kind: 'rejected' | 'failed', reason: string) =>
        this.recordWebhookFailure({
          provider: name,
          eventId: failure.eventId,
          eventType: failure.eventType,
          kind,
          reason,
          outline: null,
        });
      let event: ProviderEvent;
      try {
        event = await provider.fetchEvent(failure.eventId);
      } catch (err) {
        if (err instanceof ProviderError && err.code === 'not_found')
          throw new AppError(422, WEBHOOK_RETRY_MESSAGES.unknownToProvider(providerName));
        if (err instanceof MalformedEventError) {
          await again('rejected', err.reason);
          throw new AppError(422, WEBHOOK_RETRY_MESSAGES.stillFailing(err.reason));
        }
        if (err instanceof ProviderError)
          throw new AppError(502, WEBHOOK_RETRY_MESSAGES.providerUnreachable(providerName));
        throw err;
      }
      let outcome: 'applied' | 'duplicate' | 'ignored';
      try {
        outcome = await this.handleEvent(name, event);
      } catch (err) {
        const reason = (err instanceof Error ? err.message : String(err)) || 'An error without a message.';
        await again('failed', reason);
        throw new AppError(422, WEBHOOK_RETRY_MESSAGES.stillFailing(reason));
      }
      // applied before (by a later delivery that found the failure open): nothing is left to do
      if (outcome === 'duplicate') await resolveWebhookFailures(name, failure.eventId);
      return { outcome };
    },
    /**
     * Keep a signed delivery that could not be applied where admins see it. The same event again
     * (the provider's retries) counts another delivery on its row and takes the latest reason.
     */
    async recordWebhookFailure(input: WebhookFailureInput): Promise<void> {
      const now = new Date();
      const reason =
        input.reason.length > WEBHOOK_REASON_MAX ? `${input.reason.slice(0, WEBHOOK_REASON_MAX - 1)}…` : input.reason;
      const values = { ...input, reason, firstAt: now, lastAt: now };
      // an event without a readable id is a row of its own each time (NULLs never conflict)
      await db
        .insert(webhookFailures)
        .values(values)
        .onConflictDoUpdate({
          target: [webhookFailures.provider, webhookFailures.eventId, webhookFailures.kind],
          set: {
            reason,
            eventType: sql`coalesce(excluded.event_type, ${webhookFailures.eventType})`,
            outline: sql`coalesce(excluded.outline, ${webhookFailures.outline})`,
            deliveries: sql`${webhookFailures.deliveries} + 1`,
            lastAt: now,
            resolvedAt: null,
          },
        });
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;

function describeOrder(order: OrderRow) {
  if (order.kind === 'membership')
    return order.plan === 'lifetime' ? 'Lifetime membership' : `Membership (${order.plan ?? 'monthly'})`;
  if (order.kind === 'course') return `Course: ${order.productSlug}`;
  return order.productSlug;
}
function describeSubscription(sub: SubscriptionRow) {
  return sub.plan === 'yearly' ? 'Yearly membership' : 'Monthly membership';
}
