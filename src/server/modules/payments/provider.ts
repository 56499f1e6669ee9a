import type { ProviderName } from '#shared/commerce';
import { AppError } from '#server/lib/errors';

/**
 * One payment provider interface with three implementations: `sandbox` (the default: no
 * keys, no network; plays both the card provider and PayPal), `stripe` (card: the official SDK) and
 * `paypal` (PayPal's REST API). A card checkout uses the configured card provider (sandbox or
 * stripe); a PayPal checkout the configured PayPal provider (sandbox or paypal). A provider that
 * does not offer a method throws ProviderError('unsupported').
 *
 * Every call that can move money takes an idempotency key, passed to the provider (Stripe's
 * Idempotency-Key, PayPal's PayPal-Request-Id), so a retried request never charges twice.
 */

export type Interval = 'month' | 'year';

/** A provider's refusal in words a buyer can read (card declined, PayPal cancelled...). */
export class ProviderError extends Error {
  constructor(
    readonly code:
      | 'card_declined'
      | 'authentication_required'
      | 'canceled'
      | 'not_found'
      | 'unsupported'
      | 'provider_error'
      | 'invalid_signature',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A webhook whose signature is good but whose content cannot be read: not JSON, not UTF-8, or not in
 * the shape its type promises (a Stripe event without `data.object`, a PayPal event without
 * `resource`). Answered 400 and recorded for admins (payments.recordWebhookFailure); `eventId` and
 * `eventType` are what could be read of the event, `outline` its keys without their values.
 */
export class MalformedEventError extends Error {
  constructor(
    /** what is wrong, in words an admin can act on: "data.object is missing" */
    readonly reason: string,
    readonly eventId: string | null,
    readonly eventType: string | null,
    readonly outline: string | null,
  ) {
    super(reason);
  }
}

/** A card refusal as the checkout pages read it: 402 with the provider's words under `card`. */
export const cardError = (message: string) => new AppError('payment-declined', message, { card: [message] });

export interface ChargeResult {
  /** the provider's id of the payment (payment intent, capture) */
  ref: string;
  status: 'succeeded' | 'requires_action' | 'failed';
  /** requires_action: the client secret / address the buyer must visit to authenticate */
  nextAction?: { clientSecret?: string; url?: string };
  failureMessage?: string;
  /** "Visa ending 4242", "PayPal (ann@example.com)" */
  paymentMethodLabel: string;
}

export interface SubscriptionState {
  ref: string;
  status: 'trialing' | 'active' | 'past_due' | 'paused' | 'canceled' | 'incomplete' | 'approval_pending';
  interval: Interval;
  priceCents: number;
  currentPeriodEnd: Date;
  trialEndsAt: Date | null;
  cancelAtPeriodEnd: boolean;
  paymentMethodLabel: string;
  /** requires_action on the first payment */
  nextAction?: { clientSecret?: string; url?: string };
  /**
   * When the provider says this state was true: its own time (whole seconds, as provider events
   * carry it) and a sequence that orders two changes of the same second (0 when the provider has
   * none). The ledger applies a subscription state only if it is not older than the last one it
   * applied; without `asOf` the state is taken as read now (docs/product/billing-events.md).
   */
  asOf?: { at: Date; sequence: number };
}

export interface RetryResult {
  paid: boolean;
  /** not paid: the provider's words */
  failureMessage?: string;
  state: SubscriptionState;
}

export interface Approval {
  /** the provider's id (PayPal order id / subscription id) */
  ref: string;
  /** where the buyer approves (PayPal, or the sandbox's approval page) */
  url: string;
}

export interface MoneyCall {
  idempotencyKey: string;
  /** ours: order id, user id... (stored with the provider object, echoed in webhooks) */
  metadata: Record<string, string>;
}

export interface HostedCheckoutInput {
  amountCents: number;
  description: string;
  /** site paths or absolute addresses; the provider adds its own reference (`session_id`) */
  successUrl: string;
  cancelUrl: string;
  methods: 'card' | 'financing';
  email?: string;
}

export interface PaymentProvider {
  readonly name: ProviderName;

  // ---- cards (sandbox, stripe)
  /** a SetupIntent's client secret: the page collects the card and confirms it (GET /order/stripe-client-secret) */
  createCardSetup(input: { email: string; name: string } & MoneyCall): Promise<{ clientSecret: string }>;
  /** a one-time charge of a confirmed payment method (`stripeToken`) */
  chargeCard(
    input: { email: string; name: string; paymentMethod: string; amountCents: number; description: string } & MoneyCall,
  ): Promise<ChargeResult>;
  /** a subscription on a confirmed payment method; the first invoice is charged unless a trial applies */
  subscribeCard(
    input: {
      email: string;
      name: string;
      paymentMethod: string;
      priceCents: number;
      interval: Interval;
      trialDays: number;
      description: string;
    } & MoneyCall,
  ): Promise<SubscriptionState>;

  // ---- PayPal (sandbox, paypal)
  /** a one-time order to approve (lifetime, courses); captured on return */
  createPaypalOrder(
    input: { amountCents: number; description: string; returnUrl: string; cancelUrl: string } & MoneyCall,
  ): Promise<Approval>;
  capturePaypalOrder(ref: string, idempotencyKey: string): Promise<ChargeResult>;
  /** a subscription (billing plan) to approve; activated by the approval */
  createPaypalSubscription(
    input: {
      priceCents: number;
      interval: Interval;
      trialDays: number;
      description: string;
      returnUrl: string;
      cancelUrl: string;
    } & MoneyCall,
  ): Promise<Approval>;

  // ---- hosted checkout (card provider: sandbox, stripe)
  /**
   * A payment page at the provider (Stripe Checkout, the sandbox's /sandbox/checkout/:ref): the
   * buyer pays there by card, or with `methods: 'financing'` by an instalment-financing method
   * (Affirm, Klarna) or a card, then returns to `successUrl` (or `cancelUrl`). `metadata` rides on
   * the payment, so its charge.succeeded webhook names our order.
   */
  createHostedCheckout(input: HostedCheckoutInput & MoneyCall): Promise<Approval>;
  /** the hosted checkout's payment: succeeded once paid, requires_action while still open */
  getHostedCheckout(ref: string): Promise<ChargeResult>;

  // ---- a subscription of either kind
  getSubscription(ref: string): Promise<SubscriptionState>;
  /** a retention discount on the next `cycles` invoices: percent off or an amount off */
  applyDiscount(
    ref: string,
    discount: { percentOff?: number; amountOffCents?: number; cycles: number },
    idempotencyKey: string,
  ): Promise<SubscriptionState>;
  /**
   * switch to another interval/price now (upgrade to yearly), charging the first period at once;
   * `firstInvoiceAmountOffCents` takes an amount off that first invoice only (the $50 upgrade offer)
   */
  changePlan(
    ref: string,
    plan: { priceCents: number; interval: Interval; firstInvoiceAmountOffCents?: number },
    idempotencyKey: string,
  ): Promise<SubscriptionState>;
  /** pause collection; `feeCents` > 0 charges that amount each period instead (card pause: $5 a month) */
  pause(ref: string, opts: { feeCents: number }, idempotencyKey: string): Promise<SubscriptionState>;
  resume(ref: string, idempotencyKey: string): Promise<SubscriptionState>;
  /** at period end (card) or at once (PayPal cancel) */
  cancel(ref: string, opts: { atPeriodEnd: boolean }, idempotencyKey: string): Promise<SubscriptionState>;
  /** the whole charge, or `amountCents` of it (a partial refund; more of it may be refunded later) */
  refund(chargeRef: string, idempotencyKey: string, amountCents?: number): Promise<void>;
  /**
   * the charge (what `refund` takes) of one payment of a subscription: the invoice's provider ref
   * as the ledger keeps it, or null for the first payment made when the subscription started
   */
  subscriptionPaymentCharge(subscriptionRef: string, invoiceRef: string | null): Promise<string>;

  // ---- recovery from a failed payment (docs/product/dunning.md)
  /** card providers: a SetupIntent for the subscription's own customer; the page collects the new card and confirms it */
  createSubscriptionCardSetup(ref: string, input: MoneyCall): Promise<{ clientSecret: string }>;
  /** card providers: the subscription pays with this confirmed payment method from now on */
  updatePaymentMethod(ref: string, paymentMethod: string, idempotencyKey: string): Promise<SubscriptionState>;
  /** collect the outstanding payment of a past-due subscription now ("Pay now") */
  retryPayment(ref: string, idempotencyKey: string): Promise<RetryResult>;
  /** PayPal: where the subscriber fixes the subscription's funding source at PayPal */
  fundingFixUrl(ref: string): Promise<string>;

  // ---- webhooks
  /**
   * checks the signature (ProviderError('invalid_signature') otherwise) and normalises the event;
   * a signed event that cannot be read throws MalformedEventError
   */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<ProviderEvent>;
  /**
   * the provider's own copy of an event it sent, normalised as verifyWebhook does: an admin's retry of
   * a delivery that could not be applied reads the event again from its source
   * (ProviderError('not_found') when the provider does not know it)
   */
  fetchEvent(eventId: string): Promise<ProviderEvent>;
}

/** Provider events in our words; handlers are looked up by `type` in one dispatch table. */
export type ProviderEvent =
  | {
      id: string;
      type: 'charge.succeeded' | 'charge.failed' | 'charge.refunded';
      charge: { ref: string; amountCents: number; metadata: Record<string, string>; failureMessage?: string };
    }
  | {
      id: string;
      type: 'invoice.paid' | 'invoice.payment_failed';
      /** billingReason: Stripe's `billing_reason` (subscription_create = the first invoice) when the provider says */
      invoice: {
        ref: string;
        subscriptionRef: string;
        amountCents: number;
        periodStart: Date;
        periodEnd: Date;
        billingReason?: string;
        /** payment_failed: attempts made on this invoice, the first one included (Stripe's attempt_count) */
        attemptCount?: number;
        /** payment_failed: the provider's next automatic attempt; null when it gives up */
        nextAttemptAt?: Date | null;
      };
    }
  | { id: string; type: 'subscription.updated' | 'subscription.canceled'; subscription: SubscriptionState }
  | { id: string; type: 'ignored'; providerType: string };
