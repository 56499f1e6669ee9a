import type { PaymentProvider } from './provider.ts';
import { createEventHandlers } from './service/events.ts';
import { createHolds } from './service/holds.ts';
import { createLedger } from './service/ledger.ts';
import { createOrders } from './service/orders.ts';
import { createPaymentsContext, type PaymentsDeps, type PaymentsOwner } from './service/shared.ts';
import { createSubscriptions } from './service/subscriptions.ts';
import { createWebhooks } from './service/webhooks.ts';

export {
  HOLD_MINUTES,
  isOlderState,
  stateOrder,
  type HoldRule,
  type OrderRow,
  type PaymentsDeps,
  type PaymentsOwner,
  type SubscriptionEvent,
  type SubscriptionRow,
  type WebhookFailureInput,
} from './service/shared.ts';

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
 *
 * Its parts, in ./service/: holds (at most one of a kind), orders (a purchase starts), ledger (an
 * order paid, failed or refunded), subscriptions (membership), events (the dispatch table) and
 * webhooks (each event applied once, failed deliveries kept).
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const ctx = createPaymentsContext(deps);
  const { owners, findOrder, providerNamed } = ctx;
  const holds = createHolds(ctx);
  const ledger = createLedger(ctx, holds);
  const purchases = createOrders(ctx, holds);
  const subs = createSubscriptions(ctx, holds, ledger);
  const webhooks = createWebhooks(ctx, createEventHandlers(ctx, ledger, subs));

  return {
    card: deps.card,
    paypal: deps.paypal,
    /** the built-in sandbox provider (null when neither payment type uses it) */
    sandbox: deps.sandbox ?? null,
    /** the provider a payment type uses */
    providerFor(type: 'card' | 'paypal'): PaymentProvider {
      return type === 'card' ? deps.card : deps.paypal;
    },
    /** the provider that answers for a stored order/subscription's provider name */
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
    startOrder: purchases.startOrder,
    attachProviderRef: purchases.attachProviderRef,
    /** an order by id */
    findOrder: (id: number) => findOrder(id),
    settledOrder: purchases.settledOrder,
    findOrderByRef: purchases.findOrderByRef,
    /**
     * A charge succeeded: the order is paid, an invoice is written, the entitlement granted (lifetime
     * membership, or `course:{id}` with the product's sold count raised, refusing when sold out:
     * AppError 409 soldOut, the order failed and the charge refunded). Paid already: no change.
     * A failed/refunded order answers AppError 409 with its failure message.
     */
    markOrderPaid: ledger.markOrderPaid,
    markOrderFailed: ledger.markOrderFailed,
    /**
     * The order takes its hold now, before money moves on a path where the buyer
     * approved elsewhere first (PayPal capture, an approved PayPal subscription): AppError 409 with
     * the page's "already yours" words when the member has it or another purchase is getting it.
     */
    takeHold: holds.takeHold,
    recordSubscription: subs.recordSubscription,
    /** the provider says a subscription changed: status, period, and the membership follow */
    syncSubscription: subs.syncSubscription,
    endMembershipNow: subs.endMembershipNow,
    currentSubscription: subs.currentSubscription,
    updateSubscription: subs.updateSubscription,
    handleEvent: webhooks.handleEvent,
    withdrawSubscription: subs.withdrawSubscription,
    webhookProvider: webhooks.webhookProvider,
    retryWebhookFailure: webhooks.retryWebhookFailure,
    recordWebhookFailure: webhooks.recordWebhookFailure,
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
