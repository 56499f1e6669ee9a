import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '#server/db/client';
import { entitlements, invoices, orders, products, subscriptions, webhookEvents, webhookFailures } from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import type { NotificationService } from '#server/modules/notifications/service';
import type { UserService } from '#server/modules/users/service';
import type { AuthUser } from '#server/types';
import { COMMERCE_MESSAGES, dollars, type MembershipPlan, type ProviderName } from '#shared/commerce';
import type { ChargeResult, PaymentProvider, ProviderEvent, SubscriptionState } from './provider.ts';
import type { SandboxProvider } from './sandbox.ts';
import { escapeHtml } from '#server/lib/html';

export type OrderRow = typeof orders.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

export interface PaymentsDeps {
  db: Database;
  users: UserService;
  notifications: NotificationService;
  /** the providers chosen by configuration (issue 7): card = sandbox | stripe, paypal = sandbox | paypal */
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
export type SubscriptionEvent = Extract<ProviderEvent, { type: 'invoice.paid' | 'invoice.payment_failed' | 'subscription.updated' | 'subscription.canceled' }>;

/**
 * Another module that owns some orders and provider subscriptions (issue 8: the mentorship's
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
}

const LOCAL_STATUSES = ['trialing', 'active', 'past_due', 'paused', 'canceled'] as const;
type LocalStatus = (typeof LOCAL_STATUSES)[number];
const isLocalStatus = (s: string): s is LocalStatus => (LOCAL_STATUSES as readonly string[]).includes(s);

/**
 * The ledger every purchase goes through (issue 7): orders, subscriptions, invoices and the
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

  async function setMembership(tx: Executor, sub: SubscriptionRow, endsAt: Date) {
    const source = `subscription:${sub.id}`;
    const [row] = await tx
      .select({ id: entitlements.id })
      .from(entitlements)
      .where(and(eq(entitlements.userId, sub.userId), eq(entitlements.kind, 'membership'), eq(entitlements.source, source)))
      .limit(1);
    if (row) await tx.update(entitlements).set({ endsAt, revokedAt: null }).where(eq(entitlements.id, row.id));
    else await deps.users.grantEntitlement(sub.userId, 'membership', source, endsAt, tx);
  }

  async function currentMembershipEnd(tx: Executor, sub: SubscriptionRow): Promise<Date | null> {
    const [row] = await tx
      .select({ endsAt: entitlements.endsAt })
      .from(entitlements)
      .where(and(eq(entitlements.userId, sub.userId), eq(entitlements.kind, 'membership'), eq(entitlements.source, `subscription:${sub.id}`)))
      .limit(1);
    return row?.endsAt ?? null;
  }

  /** ends_at of the subscription's membership after moving from `previous` to the row's state */
  async function membershipEndsAt(tx: Executor, sub: SubscriptionRow, previous: LocalStatus | null): Promise<Date> {
    const now = new Date();
    switch (sub.status) {
      case 'trialing':
      case 'active':
      case 'past_due':
        return sub.currentPeriodEnd;
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
      .set({ status: 'failed', failureMessage: message })
      .where(and(eq(orders.id, orderId), inArray(orders.status, ['pending', 'requires_action'])))
      .returning();
    const order = row ?? (await findOrder(orderId));
    if (!order) throw notFound();
    return order;
  }

  /** markOrderPaid, then the order's owner hears it is paid (every time: its hook is idempotent) */
  async function markOrderPaid(orderId: number, charge: Pick<ChargeResult, 'ref' | 'paymentMethodLabel'>): Promise<OrderRow> {
    const order = await markOrderPaidInLedger(orderId, charge);
    const owner = ownerOf(order.kind);
    if (owner?.orderPaid && order.status === 'paid') await owner.orderPaid(order);
    return order;
  }

  async function markOrderPaidInLedger(orderId: number, charge: Pick<ChargeResult, 'ref' | 'paymentMethodLabel'>): Promise<OrderRow> {
    const outcome = await db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!order) throw notFound();
      if (order.status === 'paid') return { order, soldOut: false };
      if (order.status === 'failed' || order.status === 'refunded' || order.status === 'canceled') {
        throw new AppError(409, order.failureMessage ?? COMMERCE_MESSAGES.paymentCanceled);
      }
      let entitlement: string | null = null;
      if (order.kind === 'course') {
        const [product] = await tx
          .update(products)
          .set({ sold: sql`${products.sold} + 1` })
          .where(and(eq(products.slug, order.productSlug), or(isNull(products.spots), lt(products.sold, products.spots))))
          .returning();
        if (!product) return { order, soldOut: true };
        entitlement = `course:${product.courseId ?? product.slug}`;
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
      await tx
        .insert(invoices)
        .values({
          userId: order.userId,
          orderId: order.id,
          provider: order.provider,
          providerRef: charge.ref,
          amountCents: order.amountCents,
          currency: order.currency,
          status: 'paid',
          description: typeof order.metadata.description === 'string' ? order.metadata.description : describeOrder(order),
        })
        .onConflictDoNothing();
      if (entitlement) await deps.users.grantEntitlement(order.userId, entitlement, `order:${order.id}`, null, tx);
      return { order: paid!, soldOut: false };
    });
    if (outcome.soldOut) {
      await markOrderFailed(orderId, COMMERCE_MESSAGES.soldOut);
      await db
        .update(orders)
        .set({ providerRef: sql`coalesce(${orders.providerRef}, ${charge.ref})`, metadata: { ...outcome.order.metadata, chargeRef: charge.ref } })
        .where(eq(orders.id, orderId));
      await providerNamed(outcome.order.provider)
        .refund(charge.ref, `refund:order:${orderId}`)
        .catch(() => undefined);
      throw new AppError(409, COMMERCE_MESSAGES.soldOut);
    }
    return outcome.order;
  }

  async function syncSubscription(provider: ProviderName, state: SubscriptionState): Promise<SubscriptionRow | null> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerRef, state.ref)))
        .for('update');
      if (!row) return null;
      if (!isLocalStatus(state.status)) return row;
      // never regress: canceled is final, and an older period is an older event
      if (row.status === 'canceled') return row;
      if (state.status !== 'canceled' && state.currentPeriodEnd.getTime() < row.currentPeriodEnd.getTime() - 1000) return row;
      const now = new Date();
      const [updated] = await tx
        .update(subscriptions)
        .set({
          status: state.status,
          plan: state.interval === 'year' ? 'yearly' : 'monthly',
          priceCents: state.priceCents,
          paymentMethod: state.paymentMethodLabel || row.paymentMethod,
          currentPeriodEnd: state.currentPeriodEnd,
          trialEndsAt: state.trialEndsAt,
          cancelAtPeriodEnd: state.cancelAtPeriodEnd,
          canceledAt: state.status === 'canceled' || state.cancelAtPeriodEnd ? (row.canceledAt ?? now) : null,
          pausedAt: state.status === 'paused' ? (row.pausedAt ?? now) : null,
          updatedAt: now,
        })
        .where(eq(subscriptions.id, row.id))
        .returning();
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
      .where(and(eq(orders.provider, provider), or(eq(orders.providerRef, charge.ref), sql`${orders.metadata}->>'chargeRef' = ${charge.ref}`)))
      .limit(1);
    return byRef ?? null;
  }

  type EventOf<T> = ProviderEvent extends infer E ? (E extends { type: infer U } ? (T extends U ? E : never) : never) : never;
  type Handler<T extends ProviderEvent['type']> = (provider: ProviderName, event: EventOf<T>) => Promise<void>;
  /** THE dispatch table: one idempotent handler per event type */
  const handlers: { [T in Exclude<ProviderEvent['type'], 'ignored'>]: Handler<T> } = {
    async 'charge.succeeded'(provider, event) {
      const order = await orderForCharge(provider, event.charge);
      if (!order || (order.status !== 'pending' && order.status !== 'requires_action')) return;
      if (event.charge.amountCents !== order.amountCents) return; // not the charge we asked for
      try {
        await markOrderPaid(order.id, { ref: event.charge.ref, paymentMethodLabel: String(order.metadata.paymentMethod ?? '') });
      } catch (err) {
        if (!(err instanceof AppError && err.statusCode === 409)) throw err;
      }
    },
    async 'charge.failed'(provider, event) {
      const order = await orderForCharge(provider, event.charge);
      if (order) await markOrderFailed(order.id, event.charge.failureMessage ?? COMMERCE_MESSAGES.cardDeclined);
    },
    async 'charge.refunded'(provider, event) {
      const order = await orderForCharge(provider, event.charge);
      await db.transaction(async (tx) => {
        await tx.update(invoices).set({ status: 'refunded' }).where(and(eq(invoices.provider, provider), eq(invoices.providerRef, event.charge.ref)));
        if (!order) return;
        await tx.update(orders).set({ status: 'refunded' }).where(and(eq(orders.id, order.id), ne(orders.status, 'refunded')));
        await tx
          .update(entitlements)
          .set({ revokedAt: new Date() })
          .where(and(eq(entitlements.userId, order.userId), eq(entitlements.source, `order:${order.id}`), isNull(entitlements.revokedAt)));
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
      await db
        .insert(invoices)
        .values({ userId: sub.userId, subscriptionId: sub.id, provider, providerRef: inv.ref, amountCents: inv.amountCents, status: 'paid', description: describeSubscription(sub), periodStart: inv.periodStart, periodEnd: inv.periodEnd })
        .onConflictDoNothing();
    },
    async 'invoice.payment_failed'(provider, event) {
      const sub = await findSubscription(provider, event.invoice.subscriptionRef);
      if (!sub) return toOwners(provider, event);
      const inv = event.invoice;
      const [row] = await db
        .insert(invoices)
        .values({ userId: sub.userId, subscriptionId: sub.id, provider, providerRef: inv.ref, amountCents: inv.amountCents, status: 'failed', description: describeSubscription(sub), periodStart: inv.periodStart, periodEnd: inv.periodEnd })
        .onConflictDoNothing()
        .returning();
      if (!row) return;
      await deps.notifications.notify(sub.userId, {
        body: `<p>We could not collect your membership payment of <strong>${escapeHtml(dollars(inv.amountCents))}</strong>${sub.paymentMethod ? ` from ${escapeHtml(sub.paymentMethod)}` : ''}. Please update your payment method on the billing page to keep your membership.</p>`,
        url: '/account/billing',
      });
    },
    async 'subscription.updated'(provider, event) {
      if (!(await syncSubscription(provider, event.subscription))) await toOwners(provider, event);
    },
    async 'subscription.canceled'(provider, event) {
      if (!(await syncSubscription(provider, { ...event.subscription, status: 'canceled' }))) await toOwners(provider, event);
    },
  };

  /** a delivery of this event was applied at last: its earlier failures need nobody's attention now */
  async function resolveWebhookFailures(provider: ProviderName, eventId: string) {
    await db
      .update(webhookFailures)
      .set({ resolvedAt: new Date() })
      .where(and(eq(webhookFailures.provider, provider), eq(webhookFailures.eventId, eventId), isNull(webhookFailures.resolvedAt)));
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
     * (issue 8) Another module takes its orders and non-membership subscriptions through this
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
     */
    async startOrder(
      user: AuthUser,
      input: { kind: 'membership' | 'course' | 'mentorship'; productSlug: string; plan: MembershipPlan | null; amountCents: number; provider: ProviderName; affiliate: string | null; idempotencyKey: string; metadata?: Record<string, unknown> },
    ): Promise<{ order: OrderRow; created: boolean }> {
      const [created] = await db
        .insert(orders)
        .values({
          userId: user.id,
          kind: input.kind,
          productSlug: input.productSlug,
          plan: input.plan,
          amountCents: input.amountCents,
          provider: input.provider,
          affiliate: input.affiliate,
          idempotencyKey: input.idempotencyKey,
          metadata: input.metadata ?? {},
        })
        .onConflictDoNothing({ target: orders.idempotencyKey })
        .returning();
      if (created) return { order: created, created: true };
      const [existing] = await db.select().from(orders).where(eq(orders.idempotencyKey, input.idempotencyKey)).limit(1);
      if (!existing || existing.userId !== user.id) throw new AppError(409, 'This request was already used. Please refresh the page and try again.');
      return { order: existing, created: false };
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
      const [row] = await db.select().from(orders).where(and(eq(orders.provider, provider), eq(orders.providerRef, ref))).limit(1);
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
    /** a new subscription (after subscribeCard or a PayPal approval): row, first invoice, membership */
    async recordSubscription(userId: number, orderId: number | null, checkoutSlug: string, provider: ProviderName, state: SubscriptionState): Promise<SubscriptionRow> {
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
          })
          .onConflictDoNothing()
          .returning();
        if (!created) return null;
        if (state.status === 'active' && state.priceCents > 0) {
          const periodEnd = state.currentPeriodEnd;
          const periodStart = new Date(periodEnd);
          if (state.interval === 'year') periodStart.setUTCFullYear(periodStart.getUTCFullYear() - 1);
          else periodStart.setUTCMonth(periodStart.getUTCMonth() - 1);
          await tx
            .insert(invoices)
            .values({ userId, subscriptionId: created.id, orderId, provider, providerRef: `${state.ref}:initial`, amountCents: state.priceCents, status: 'paid', description: describeSubscription(created), periodStart, periodEnd })
            .onConflictDoNothing();
        }
        if (orderId !== null) {
          await tx
            .update(orders)
            .set({ status: 'paid', paidAt: new Date(), providerRef: sql`coalesce(${orders.providerRef}, ${state.ref})`, failureMessage: null })
            .where(and(eq(orders.id, orderId), ne(orders.status, 'paid')));
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
    /** the member's current subscription (not canceled, or canceled but still in its paid period) */
    async currentSubscription(userId: number): Promise<SubscriptionRow | null> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), or(ne(subscriptions.status, 'canceled'), gt(subscriptions.currentPeriodEnd, new Date()))))
        .orderBy(desc(subscriptions.id))
        .limit(1);
      return row ?? null;
    },
    /** (added) update the retention discount columns etc. of a subscription row */
    async updateSubscription(id: number, values: Partial<Pick<SubscriptionRow, 'discountUsedAt' | 'discountPercent' | 'discountAmountCents' | 'discountCyclesLeft' | 'priceCents' | 'plan'>>) {
      const [row] = await db.update(subscriptions).set({ ...values, updatedAt: new Date() }).where(eq(subscriptions.id, id)).returning();
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
        await db.update(webhookEvents).set({ processedAt: new Date() }).where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, event.id)));
        await resolveWebhookFailures(provider, event.id);
        return 'ignored';
      }
      try {
        await (handlers[event.type] as Handler<typeof event.type>)(provider, event as never);
      } catch (err) {
        // not applied: let the provider's retry apply it
        await db.delete(webhookEvents).where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, event.id)));
        throw err;
      }
      await db.update(webhookEvents).set({ processedAt: new Date() }).where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, event.id)));
      await resolveWebhookFailures(provider, event.id);
      return 'applied';
    },
    /**
     * Keep a signed delivery that could not be applied where admins see it. The same event again
     * (the provider's retries) counts another delivery on its row and takes the latest reason.
     */
    async recordWebhookFailure(input: WebhookFailureInput): Promise<void> {
      const now = new Date();
      const reason = input.reason.length > WEBHOOK_REASON_MAX ? `${input.reason.slice(0, WEBHOOK_REASON_MAX - 1)}…` : input.reason;
      const values = { ...input, reason, firstAt: now, lastAt: now };
      // an event without a readable id is a row of its own each time (NULLs never conflict)
      await db
        .insert(webhookFailures)
        .values(values)
        .onConflictDoUpdate({
          target: [webhookFailures.provider, webhookFailures.eventId, webhookFailures.kind],
          set: { reason, eventType: sql`coalesce(excluded.event_type, ${webhookFailures.eventType})`, outline: sql`coalesce(excluded.outline, ${webhookFailures.outline})`, deliveries: sql`${webhookFailures.deliveries} + 1`, lastAt: now, resolvedAt: null },
        });
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;

function describeOrder(order: OrderRow) {
  if (order.kind === 'membership') return order.plan === 'lifetime' ? 'Lifetime membership' : `Membership (${order.plan ?? 'monthly'})`;
  if (order.kind === 'course') return `Course: ${order.productSlug}`;
  return order.productSlug;
}
function describeSubscription(sub: SubscriptionRow) {
  return sub.plan === 'yearly' ? 'Yearly membership' : 'Monthly membership';
}
