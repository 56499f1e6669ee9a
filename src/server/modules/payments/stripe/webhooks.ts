import { z } from '#shared/zod';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { ProviderError, type PaymentProvider, type ProviderEvent } from '../provider.ts';
import { eventJson, field, readEvent } from '../webhook-content.ts';
import { refusal, type StripeContext } from './client.ts';
import { idOf, mapStripeSubscription, type StripeSubscription } from './objects.ts';

/** Stripe's webhooks: the signature checked with the SDK, the event read into ours (mapStripeEvent). */

export function webhookMethods(ctx: StripeContext): Pick<PaymentProvider, 'verifyWebhook' | 'fetchEvent'> {
  const { stripe, sdk, opts } = ctx;
  return {
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
