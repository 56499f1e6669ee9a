import type { Database } from '#server/db/client';
import type { orders, subscriptions } from '#server/db/schema/index';
import type { NotificationService } from '#server/modules/notifications/service';
import type { UserService } from '#server/modules/users/service';
import type { AuthUser } from '#server/types';
import type { MembershipPlan, ProviderName } from '#shared/commerce';
import type { ChargeResult, PaymentProvider, ProviderEvent, SubscriptionState } from './provider.ts';

export type OrderRow = typeof orders.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

export interface PaymentsDeps {
  db: Database;
  users: UserService;
  notifications: NotificationService;
  /** the providers chosen by configuration (issue 7): card = sandbox | stripe, paypal = sandbox | paypal */
  card: PaymentProvider;
  paypal: PaymentProvider;
}

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
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const todo = (): never => {
    throw new Error('payments service: not implemented yet');
  };
  return {
    card: deps.card,
    paypal: deps.paypal,
    /** the provider a payment type uses */
    providerFor(type: 'card' | 'paypal'): PaymentProvider {
      return type === 'card' ? deps.card : deps.paypal;
    },

    /**
     * Insert a pending order, or answer the existing one for the same idempotency key (a double
     * submit or a retried request is one order). `amountCents` must come from the server's catalogue.
     */
    async startOrder(
      user: AuthUser,
      input: { kind: 'membership' | 'course' | 'mentorship'; productSlug: string; plan: MembershipPlan | null; amountCents: number; provider: ProviderName; affiliate: string | null; idempotencyKey: string; metadata?: Record<string, unknown> },
    ): Promise<{ order: OrderRow; created: boolean }> {
      void user;
      void input;
      return todo();
    },
    /** set the provider's ref on a pending order (PayPal order id, payment intent id) */
    async attachProviderRef(orderId: number, ref: string): Promise<void> {
      void orderId;
      void ref;
      return todo();
    },
    /**
     * A charge succeeded: the order is paid, an invoice is written, the entitlement granted (lifetime
     * membership, or `course:{id}` with the product's sold count raised, refusing when sold out).
     */
    async markOrderPaid(orderId: number, charge: Pick<ChargeResult, 'ref' | 'paymentMethodLabel'>): Promise<OrderRow> {
      void orderId;
      void charge;
      return todo();
    },
    async markOrderFailed(orderId: number, message: string): Promise<OrderRow> {
      void orderId;
      void message;
      return todo();
    },
    /** a new subscription (after subscribeCard or a PayPal approval): row, first invoice, membership */
    async recordSubscription(userId: number, orderId: number | null, checkoutSlug: string, provider: ProviderName, state: SubscriptionState): Promise<SubscriptionRow> {
      void userId;
      void orderId;
      void checkoutSlug;
      void provider;
      void state;
      return todo();
    },
    /** the provider says a subscription changed: status, period, and the membership follow */
    async syncSubscription(provider: ProviderName, state: SubscriptionState): Promise<SubscriptionRow | null> {
      void provider;
      void state;
      return todo();
    },
    /** the member's current subscription (not canceled, or canceled but still in its paid period) */
    async currentSubscription(userId: number): Promise<SubscriptionRow | null> {
      void userId;
      return todo();
    },
    /** apply a provider event exactly once (webhook_events), through the dispatch table */
    async handleEvent(provider: ProviderName, event: ProviderEvent): Promise<'applied' | 'duplicate' | 'ignored'> {
      void provider;
      void event;
      return todo();
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
