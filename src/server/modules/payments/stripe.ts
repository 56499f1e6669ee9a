import { createRequire } from 'node:module';
import type StripeSdk from 'stripe';
import { z } from '#shared/zod';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import {
  ProviderError,
  type ChargeResult,
  type Interval,
  type PaymentProvider,
  type ProviderEvent,
  type RetryResult,
  type SubscriptionState,
} from './provider.ts';
import { eventJson, field, readEvent } from './webhook-content.ts';

/**
 * The Stripe card provider on the official SDK. Cards are collected by Stripe Elements on
 * the page (a SetupIntent per checkout), then charged (PaymentIntent) or subscribed (Subscription
 * with inline price_data on one Product per subscription). Every creating call carries an
 * idempotency key. A card pause with a fee switches the price to the fee (metadata remembers the
 * price to resume to); a free pause uses pause_collection.
 *
 * STRIPE_API_BASE (tests) points the SDK at another host: http://127.0.0.1:PORT.
 */

// the parts of Stripe's objects we read (Stripe's own typings move with every API version)
interface StripeCard {
  brand?: string;
  last4?: string;
}
interface StripePaymentMethod {
  id: string;
  customer: string | { id: string } | null;
  card?: StripeCard | null;
}
interface StripeSubscription {
  id: string;
  status: string;
  customer?: string | { id: string } | null;
  latest_invoice?: string | { id: string; status?: string | null } | null;
  cancel_at_period_end: boolean;
  trial_end: number | null;
  current_period_end?: number;
  pause_collection: { behavior: string } | null;
  metadata: Record<string, string>;
  default_payment_method: string | StripePaymentMethod | null;
  items: {
    data: {
      id: string;
      current_period_end?: number;
      price: { unit_amount: number | null; product: string | { id: string }; recurring: { interval: string } | null };
    }[];
  };
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
};
export const cardLabel = (card: StripeCard | null | undefined) =>
  card ? `${BRANDS[card.brand ?? ''] ?? 'Card'} ending ${card.last4 ?? '????'}` : 'Card';
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

export function mapStripeSubscription(sub: StripeSubscription): SubscriptionState {
  const item = sub.items.data[0];
  const paused = sub.metadata?.paused === '1' || sub.pause_collection !== null;
  const statusMap: Record<string, SubscriptionState['status']> = {
    trialing: 'trialing',
    active: 'active',
    past_due: 'past_due',
    unpaid: 'past_due',
    paused: 'paused',
    canceled: 'canceled',
    incomplete: 'incomplete',
    incomplete_expired: 'canceled',
  };
  let status = statusMap[sub.status] ?? 'incomplete';
  if (paused && (status === 'active' || status === 'trialing')) status = 'paused';
  const pm = sub.default_payment_method;
  const periodEnd = item?.current_period_end ?? sub.current_period_end ?? 0;
  return {
    ref: sub.id,
    status,
    interval: item?.price.recurring?.interval === 'year' ? 'year' : 'month',
    priceCents: sub.metadata?.paused === '1' ? Number(sub.metadata.resumePriceCents) : (item?.price.unit_amount ?? 0),
    currentPeriodEnd: new Date(periodEnd * 1000),
    trialEndsAt: sub.trial_end ? new Date(sub.trial_end * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    paymentMethodLabel: pm && typeof pm !== 'string' ? cardLabel(pm.card) : '',
  };
}

/**
 * The SDK, loaded when a Stripe provider is made: a process on the sandbox provider never loads it
 * (several MB in memory).
 */
let Stripe: typeof StripeSdk;
const require = createRequire(import.meta.url);

function refusal(err: unknown): never {
  if (err instanceof Stripe.errors.StripeCardError)
    throw new ProviderError('card_declined', err.message || COMMERCE_MESSAGES.cardDeclined);
  if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing')
    throw new ProviderError('not_found', err.message);
  if (err instanceof Stripe.errors.StripeError) throw new ProviderError('provider_error', err.message);
  throw err;
}

/** Stripe Checkout's financing methods (the mentorship "finance" option), beside the card */
export const STRIPE_FINANCING_METHODS = ['card', 'affirm', 'klarna'] as const;

interface StripeCheckoutSession {
  id: string;
  url: string | null;
  status: string;
  payment_status: string;
  amount_total: number | null;
  payment_intent:
    | string
    | { id: string; status?: string; payment_method?: string | { type?: string; card?: StripeCard | null } | null }
    | null;
}

export function mapStripeCheckoutSession(session: StripeCheckoutSession): ChargeResult {
  const pi = session.payment_intent;
  const ref = idOf(pi) ?? session.id;
  const pm =
    pi && typeof pi !== 'string' && pi.payment_method && typeof pi.payment_method !== 'string'
      ? pi.payment_method
      : null;
  const label = pm
    ? pm.type === 'card'
      ? cardLabel(pm.card)
      : pm.type === 'affirm'
        ? 'Affirm'
        : pm.type === 'klarna'
          ? 'Klarna'
          : 'Card'
    : 'Card';
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')
    return { ref, status: 'succeeded', paymentMethodLabel: label };
  if (session.status === 'expired')
    return {
      ref,
      status: 'failed',
      failureMessage: 'This checkout expired. Please start again.',
      paymentMethodLabel: label,
    };
  return {
    ref,
    status: 'requires_action',
    nextAction: session.url ? { url: session.url } : {},
    paymentMethodLabel: label,
  };
}

export function createStripeProvider(opts: {
  secretKey: string;
  webhookSecret: string;
  apiBase: string | null;
  appUrl?: string;
}): PaymentProvider {
  /** Stripe Checkout needs absolute return addresses: our site paths go on APP_URL */
  const absolute = (url: string) => (opts.appUrl && url.startsWith('/') ? new URL(url, opts.appUrl).toString() : url);
  const base = opts.apiBase ? new URL(opts.apiBase) : null;
  Stripe ??= require('stripe') as typeof StripeSdk;
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: base ? 0 : 2,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
  const expand = ['default_payment_method'];
  // the SDK's typings are strict about every API version's shapes; we pass Stripe's documented params
  type Loose = Record<string, unknown>;
  /** an invoice's payment: `payment_intent`/`charge` on older API versions, `payments` on newer ones */
  type StripeInvoicePayment = {
    payment_intent?: string | { id: string } | null;
    charge?: string | { id: string } | null;
    payments?: {
      data?: {
        payment?: { payment_intent?: string | { id: string } | null; charge?: string | { id: string } | null };
      }[];
    };
  };
  const refOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));
  const invoicePaymentRef = (i: StripeInvoicePayment) => {
    const paid = i.payments?.data?.[0]?.payment;
    return refOf(i.payment_intent) ?? refOf(i.charge) ?? refOf(paid?.payment_intent) ?? refOf(paid?.charge);
  };
  const sdk = stripe as unknown as {
    customers: { create(p: Loose, o: Loose): Promise<{ id: string }> };
    setupIntents: { create(p: Loose, o: Loose): Promise<{ client_secret: string | null }> };
    paymentMethods: { retrieve(id: string): Promise<StripePaymentMethod> };
    paymentIntents: {
      create(
        p: Loose,
        o: Loose,
      ): Promise<{
        id: string;
        status: string;
        client_secret: string | null;
        last_payment_error?: { message?: string } | null;
      }>;
    };
    products: { create(p: Loose, o: Loose): Promise<{ id: string }> };
    coupons: { create(p: Loose, o: Loose): Promise<{ id: string }> };
    subscriptions: {
      create(p: Loose, o: Loose): Promise<StripeSubscription>;
      retrieve(id: string, p?: Loose): Promise<StripeSubscription>;
      update(id: string, p: Loose, o?: Loose): Promise<StripeSubscription>;
      cancel(id: string, p?: Loose, o?: Loose): Promise<StripeSubscription>;
    };
    refunds: { create(p: Loose, o: Loose): Promise<unknown> };
    invoices: {
      pay(id: string, p: Loose, o: Loose): Promise<{ id: string; status: string | null }>;
      retrieve(id: string, p?: Loose): Promise<StripeInvoicePayment & { id: string; status: string | null }>;
      list(p: Loose): Promise<{ data: StripeInvoicePayment[] }>;
    };
    checkout: {
      sessions: {
        create(p: Loose, o: Loose): Promise<StripeCheckoutSession>;
        retrieve(id: string, p?: Loose): Promise<StripeCheckoutSession>;
      };
    };
    events: { retrieve(id: string): Promise<unknown> };
  };

  async function paymentMethod(id: string) {
    try {
      return await sdk.paymentMethods.retrieve(id);
    } catch (err) {
      return refusal(err);
    }
  }
  const priceData = (product: string, priceCents: number, interval: Interval) => ({
    currency: 'usd',
    product,
    unit_amount: priceCents,
    recurring: { interval },
  });

  return {
    name: 'stripe',

    async createCardSetup(input) {
      try {
        const customer = await sdk.customers.create(
          { email: input.email, name: input.name, metadata: input.metadata },
          { idempotencyKey: `${input.idempotencyKey}:customer` },
        );
        const intent = await sdk.setupIntents.create(
          { customer: customer.id, usage: 'off_session', payment_method_types: ['card'], metadata: input.metadata },
          { idempotencyKey: `${input.idempotencyKey}:setup` },
        );
        return { clientSecret: intent.client_secret ?? '' };
      } catch (err) {
        return refusal(err);
      }
    },

    async chargeCard(input): Promise<ChargeResult> {
      const pm = await paymentMethod(input.paymentMethod);
      const label = cardLabel(pm.card);
      try {
        const intent = await sdk.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: 'usd',
            customer: idOf(pm.customer) ?? undefined,
            payment_method: input.paymentMethod,
            confirm: true,
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            description: input.description,
            receipt_email: input.email,
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (intent.status === 'succeeded') return { ref: intent.id, status: 'succeeded', paymentMethodLabel: label };
        if (intent.status === 'requires_action')
          return {
            ref: intent.id,
            status: 'requires_action',
            nextAction: { clientSecret: intent.client_secret ?? '' },
            paymentMethodLabel: label,
          };
        return {
          ref: intent.id,
          status: 'failed',
          failureMessage: intent.last_payment_error?.message ?? COMMERCE_MESSAGES.cardDeclined,
          paymentMethodLabel: label,
        };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError) {
          const pi = (err.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
          return {
            ref: pi?.id ?? `failed_${input.idempotencyKey}`,
            status: 'failed',
            failureMessage: err.message || COMMERCE_MESSAGES.cardDeclined,
            paymentMethodLabel: label,
          };
        }
        return refusal(err);
      }
    },

    async subscribeCard(input) {
      const pm = await paymentMethod(input.paymentMethod);
      try {
        const product = await sdk.products.create(
          { name: input.description, metadata: input.metadata },
          { idempotencyKey: `${input.idempotencyKey}:product` },
        );
        const sub = await sdk.subscriptions.create(
          {
            customer: idOf(pm.customer),
            default_payment_method: input.paymentMethod,
            items: [{ price_data: priceData(product.id, input.priceCents, input.interval) }],
            ...(input.trialDays > 0 ? { trial_period_days: input.trialDays } : {}),
            payment_behavior: 'error_if_incomplete',
            metadata: input.metadata,
            expand,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return mapStripeSubscription(sub);
      } catch (err) {
        return refusal(err);
      }
    },

    async createHostedCheckout(input) {
      try {
        const success = absolute(input.successUrl);
        // Stripe fills {CHECKOUT_SESSION_ID} in; the braces must stay unencoded
        const successUrl = `${success}${success.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
        const session = await sdk.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'usd',
                  unit_amount: input.amountCents,
                  product_data: { name: input.description.slice(0, 250) },
                },
              },
            ],
            payment_method_types: input.methods === 'financing' ? [...STRIPE_FINANCING_METHODS] : ['card'],
            success_url: successUrl,
            cancel_url: absolute(input.cancelUrl),
            ...(input.email ? { customer_email: input.email } : {}),
            metadata: input.metadata,
            payment_intent_data: { metadata: input.metadata, description: input.description },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return { ref: session.id, url: session.url ?? '' };
      } catch (err) {
        return refusal(err);
      }
    },

    async getHostedCheckout(ref) {
      try {
        return mapStripeCheckoutSession(
          await sdk.checkout.sessions.retrieve(ref, { expand: ['payment_intent.payment_method'] }),
        );
      } catch (err) {
        return refusal(err);
      }
    },

    async createPaypalOrder() {
      throw new ProviderError('unsupported', 'PayPal is not offered by the card provider.');
    },
    async capturePaypalOrder() {
      throw new ProviderError('unsupported', 'PayPal is not offered by the card provider.');
    },
    async createPaypalSubscription() {
      throw new ProviderError('unsupported', 'PayPal is not offered by the card provider.');
    },

    async getSubscription(ref) {
      try {
        return mapStripeSubscription(await sdk.subscriptions.retrieve(ref, { expand }));
      } catch (err) {
        return refusal(err);
      }
    },

    async applyDiscount(ref, discount, idempotencyKey) {
      try {
        const coupon = await sdk.coupons.create(
          {
            ...(discount.percentOff
              ? { percent_off: discount.percentOff }
              : { amount_off: discount.amountOffCents, currency: 'usd' }),
            ...(discount.cycles > 1
              ? { duration: 'repeating', duration_in_months: discount.cycles }
              : { duration: 'once' }),
            name: 'Retention offer',
          },
          { idempotencyKey: `${idempotencyKey}:coupon` },
        );
        return mapStripeSubscription(
          await sdk.subscriptions.update(ref, { discounts: [{ coupon: coupon.id }], expand }, { idempotencyKey }),
        );
      } catch (err) {
        return refusal(err);
      }
    },

    async changePlan(ref, plan, idempotencyKey) {
      try {
        const sub = await sdk.subscriptions.retrieve(ref);
        const item = sub.items.data[0]!;
        // a one-off amount off the first invoice of the new plan (the upgrade offer)
        const coupon = plan.firstInvoiceAmountOffCents
          ? await sdk.coupons.create(
              { amount_off: plan.firstInvoiceAmountOffCents, currency: 'usd', duration: 'once', name: 'Upgrade offer' },
              { idempotencyKey: `${idempotencyKey}:coupon` },
            )
          : null;
        const updated = await sdk.subscriptions.update(
          ref,
          {
            items: [{ id: item.id, price_data: priceData(idOf(item.price.product)!, plan.priceCents, plan.interval) }],
            proration_behavior: 'always_invoice',
            billing_cycle_anchor: 'now',
            trial_end: 'now',
            cancel_at_period_end: false,
            payment_behavior: 'error_if_incomplete',
            ...(coupon ? { discounts: [{ coupon: coupon.id }] } : {}),
            expand,
          },
          { idempotencyKey },
        );
        return mapStripeSubscription(updated);
      } catch (err) {
        return refusal(err);
      }
    },

    async pause(ref, opts, idempotencyKey) {
      try {
        const sub = await sdk.subscriptions.retrieve(ref);
        if (sub.metadata?.paused === '1' || sub.pause_collection)
          return mapStripeSubscription(await sdk.subscriptions.retrieve(ref, { expand }));
        const item = sub.items.data[0]!;
        const params =
          opts.feeCents > 0
            ? {
                items: [{ id: item.id, price_data: priceData(idOf(item.price.product)!, opts.feeCents, 'month') }],
                proration_behavior: 'none',
                cancel_at_period_end: false,
                metadata: {
                  paused: '1',
                  resumePriceCents: String(item.price.unit_amount ?? 0),
                  resumeInterval: item.price.recurring?.interval ?? 'month',
                },
              }
            : { pause_collection: { behavior: 'void' }, cancel_at_period_end: false };
        return mapStripeSubscription(await sdk.subscriptions.update(ref, { ...params, expand }, { idempotencyKey }));
      } catch (err) {
        return refusal(err);
      }
    },

    async resume(ref, idempotencyKey) {
      try {
        const sub = await sdk.subscriptions.retrieve(ref);
        const item = sub.items.data[0]!;
        const params =
          sub.metadata?.paused === '1'
            ? {
                items: [
                  {
                    id: item.id,
                    price_data: priceData(
                      idOf(item.price.product)!,
                      Number(sub.metadata.resumePriceCents),
                      sub.metadata.resumeInterval === 'year' ? 'year' : 'month',
                    ),
                  },
                ],
                proration_behavior: 'none',
                metadata: { paused: '', resumePriceCents: '', resumeInterval: '' },
              }
            : { pause_collection: '' };
        return mapStripeSubscription(await sdk.subscriptions.update(ref, { ...params, expand }, { idempotencyKey }));
      } catch (err) {
        return refusal(err);
      }
    },

    async cancel(ref, opts, idempotencyKey) {
      try {
        const sub = opts.atPeriodEnd
          ? await sdk.subscriptions.update(ref, { cancel_at_period_end: true, expand }, { idempotencyKey })
          : await sdk.subscriptions.cancel(ref, { expand }, { idempotencyKey });
        return mapStripeSubscription(sub);
      } catch (err) {
        return refusal(err);
      }
    },

    async refund(chargeRef, idempotencyKey, amountCents) {
      try {
        const target = chargeRef.startsWith('ch_') ? { charge: chargeRef } : { payment_intent: chargeRef };
        await sdk.refunds.create(amountCents === undefined ? target : { ...target, amount: amountCents }, {
          idempotencyKey,
        });
      } catch (err) {
        return refusal(err);
      }
    },

    async createSubscriptionCardSetup(ref, input) {
      try {
        // the new card belongs to the subscription's own customer, so the subscription may use it
        const sub = await sdk.subscriptions.retrieve(ref);
        const intent = await sdk.setupIntents.create(
          {
            customer: idOf(sub.customer),
            usage: 'off_session',
            payment_method_types: ['card'],
            metadata: input.metadata,
          },
          { idempotencyKey: `${input.idempotencyKey}:setup` },
        );
        return { clientSecret: intent.client_secret ?? '' };
      } catch (err) {
        return refusal(err);
      }
    },

    async subscriptionPaymentCharge(subscriptionRef, invoiceRef) {
      try {
        // the first payment is the subscription's oldest invoice (Stripe lists newest first)
        const invoice = invoiceRef
          ? await sdk.invoices.retrieve(invoiceRef, { expand: ['payments'] })
          : (await sdk.invoices.list({ subscription: subscriptionRef, limit: 100, expand: ['data.payments'] })).data.at(
              -1,
            );
        const ref = invoice ? invoicePaymentRef(invoice) : null;
        if (!ref) throw new ProviderError('not_found', 'Stripe has no charge for this payment.');
        return ref;
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        return refusal(err);
      }
    },

    async updatePaymentMethod(ref, paymentMethod, idempotencyKey) {
      try {
        return mapStripeSubscription(
          await sdk.subscriptions.update(ref, { default_payment_method: paymentMethod, expand }, { idempotencyKey }),
        );
      } catch (err) {
        return refusal(err);
      }
    },

    async retryPayment(ref, idempotencyKey): Promise<RetryResult> {
      try {
        const sub = await sdk.subscriptions.retrieve(ref, { expand: ['latest_invoice'] });
        const invoice = sub.latest_invoice;
        const invoiceId = idOf(invoice);
        const open = invoice && typeof invoice !== 'string' ? invoice.status === 'open' : !!invoiceId;
        let failureMessage: string | undefined;
        if (invoiceId && open) {
          try {
            // the invoice due, paid now with the subscription's (new) default payment method
            await sdk.invoices.pay(invoiceId, { off_session: true }, { idempotencyKey });
          } catch (err) {
            if (!(err instanceof Stripe.errors.StripeCardError)) throw err;
            failureMessage = err.message || COMMERCE_MESSAGES.cardDeclined;
          }
        }
        const state = mapStripeSubscription(await sdk.subscriptions.retrieve(ref, { expand }));
        if (failureMessage) return { paid: false, failureMessage, state };
        return {
          paid: state.status !== 'past_due',
          ...(state.status === 'past_due' ? { failureMessage: COMMERCE_MESSAGES.cardDeclined } : {}),
          state,
        };
      } catch (err) {
        return refusal(err);
      }
    },

    async fundingFixUrl() {
      throw new ProviderError('unsupported', 'A card membership is fixed by updating the card.');
    },

    async verifyWebhook(rawBody, headers) {
      const sig = headers['stripe-signature'];
      // the signature alone first: a body that fails it is nobody's event; one that passes is Stripe's,
      // and whatever is wrong with its content is worth an admin's look (MalformedEventError)
      try {
        // the SDK's helper (typed as nullable, always there): the same check constructEvent makes, without the parsing
        stripe.webhooks.signature!.verifyHeader(
          rawBody,
          Array.isArray(sig) ? (sig[0] ?? '') : (sig ?? ''),
          opts.webhookSecret,
        );
      } catch {
        throw new ProviderError('invalid_signature', 'Invalid webhook signature.');
      }
      return mapStripeEvent(eventJson(rawBody));
    },

    async fetchEvent(eventId) {
      let event;
      try {
        event = await sdk.events.retrieve(eventId);
      } catch (err) {
        return refusal(err);
      }
      return mapStripeEvent(event);
    },
  };
}

// ---- webhook events: the parts of each event's object we read, checked before they are used

const metadata = z.record(z.string(), z.string()).nullish();
const idOrObject = z.union([z.string(), z.looseObject({ id: z.string() })]).nullish();

const EVENT_OBJECTS = {
  paymentIntent: z.looseObject({
    id: z.string(),
    amount: z.number(),
    amount_received: z.number().nullish(),
    metadata,
    last_payment_error: z.looseObject({ message: z.string().nullish() }).nullish(),
  }),
  charge: z.looseObject({ id: z.string(), amount_refunded: z.number(), payment_intent: idOrObject, metadata }),
  invoice: z.looseObject({
    id: z.string(),
    period_start: z.number(),
    period_end: z.number(),
    subscription: idOrObject,
    parent: z
      .looseObject({ subscription_details: z.looseObject({ subscription: z.string().nullish() }).nullish() })
      .nullish(),
    lines: z
      .looseObject({
        data: z
          .array(z.looseObject({ period: z.looseObject({ start: z.number(), end: z.number() }).nullish() }))
          .nullish(),
      })
      .nullish(),
    billing_reason: z.string().nullish(),
    attempt_count: z.number().int().nullish(),
    next_payment_attempt: z.number().nullish(),
  }),
  subscription: z.looseObject({
    id: z.string(),
    status: z.string(),
    cancel_at_period_end: z.boolean(),
    trial_end: z.number().nullable(),
    current_period_end: z.number().nullish(),
    pause_collection: z.looseObject({}).nullable(),
    metadata: z.record(z.string(), z.string()),
    default_payment_method: z.union([z.string(), z.looseObject({})]).nullable(),
    items: z.looseObject({
      data: z.array(
        z.looseObject({
          current_period_end: z.number().nullish(),
          price: z.looseObject({
            unit_amount: z.number().nullable(),
            recurring: z.looseObject({ interval: z.string() }).nullable(),
          }),
        }),
      ),
    }),
  }),
};
const eventWith = <O extends z.ZodType>(object: O) =>
  z.looseObject({ id: z.string().min(1), type: z.string().min(1), data: z.looseObject({ object }) });

/**
 * The subscription in an event is as it was when Stripe created the event: `created` (seconds) is
 * its time. Stripe numbers nothing within a second, so two events of the same second are applied
 * in the order they arrive (sequence 0).
 */
const asOf = (event: Record<string, unknown>) =>
  typeof event.created === 'number' && Number.isFinite(event.created)
    ? { asOf: { at: new Date(event.created * 1000), sequence: 0 } }
    : {};

/** Stripe's event (its JSON, signature already checked) → ours; MalformedEventError when it is not in the shape its type promises */
export function mapStripeEvent(json: unknown): ProviderEvent {
  const read = <O extends z.ZodType>(object: O) =>
    readEvent(eventWith(object), json, field(json, 'id'), field(json, 'type'));
  const event = read(z.looseObject({}));
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const o = read(EVENT_OBJECTS.paymentIntent).data.object;
      return {
        id: event.id,
        type: 'charge.succeeded',
        charge: { ref: o.id, amountCents: o.amount_received || o.amount, metadata: o.metadata ?? {} },
      };
    }
    case 'payment_intent.payment_failed': {
      const o = read(EVENT_OBJECTS.paymentIntent).data.object;
      return {
        id: event.id,
        type: 'charge.failed',
        charge: {
          ref: o.id,
          amountCents: o.amount,
          metadata: o.metadata ?? {},
          failureMessage: o.last_payment_error?.message ?? COMMERCE_MESSAGES.cardDeclined,
        },
      };
    }
    case 'charge.refunded': {
      const o = read(EVENT_OBJECTS.charge).data.object;
      return {
        id: event.id,
        type: 'charge.refunded',
        charge: { ref: idOf(o.payment_intent) ?? o.id, amountCents: o.amount_refunded, metadata: o.metadata ?? {} },
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      // the amount an event type reports: what was paid, or what is still due
      const amount = event.type === 'invoice.paid' ? 'amount_paid' : 'amount_due';
      const o = read(EVENT_OBJECTS.invoice.extend({ [amount]: z.number() })).data.object as z.output<
        typeof EVENT_OBJECTS.invoice
      > &
        Record<typeof amount, number>;
      const subscriptionRef = o.parent?.subscription_details?.subscription ?? idOf(o.subscription);
      if (!subscriptionRef) return { id: event.id, type: 'ignored', providerType: event.type };
      const line = o.lines?.data?.[0]?.period;
      return {
        id: event.id,
        type: event.type,
        invoice: {
          ref: o.id,
          subscriptionRef,
          amountCents: o[amount],
          periodStart: new Date((line?.start ?? o.period_start) * 1000),
          periodEnd: new Date((line?.end ?? o.period_end) * 1000),
          ...(o.billing_reason ? { billingReason: o.billing_reason } : {}),
          // a failed payment: Stripe's retries (the account's retry settings) say when it tries again
          ...(event.type === 'invoice.payment_failed' && typeof o.attempt_count === 'number'
            ? {
                attemptCount: o.attempt_count,
                nextAttemptAt:
                  typeof o.next_payment_attempt === 'number' ? new Date(o.next_payment_attempt * 1000) : null,
              }
            : {}),
        },
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed':
      return {
        id: event.id,
        type: 'subscription.updated',
        subscription: {
          ...mapStripeSubscription(read(EVENT_OBJECTS.subscription).data.object as unknown as StripeSubscription),
          ...asOf(event),
        },
      };
    case 'customer.subscription.deleted':
      return {
        id: event.id,
        type: 'subscription.canceled',
        subscription: {
          ...mapStripeSubscription(read(EVENT_OBJECTS.subscription).data.object as unknown as StripeSubscription),
          status: 'canceled',
          ...asOf(event),
        },
      };
    default:
      return { id: event.id, type: 'ignored', providerType: event.type };
  }
}
