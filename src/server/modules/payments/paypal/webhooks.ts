import { z } from '#shared/zod';
import { ProviderError, type PaymentProvider, type ProviderEvent, type SubscriptionState } from '../provider.ts';
import { eventJson, field, readEvent } from '../webhook-content.ts';
import { call, cents, getSubscription, type PaypalContext } from './api.ts';

/** PayPal's webhooks: checked by PayPal itself (/v1/notifications/verify-webhook-signature), then read into ours. */

export function webhookMethods(ctx: PaypalContext): Pick<PaymentProvider, 'verifyWebhook' | 'fetchEvent'> {
  const { opts } = ctx;
  const readSubscription = (ref: string) => getSubscription(ctx, ref);
  return {
    async verifyWebhook(rawBody, headers) {
      const h = (name: string) => {
        const v = headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      // PayPal checks the event it is sent back: a body that is not JSON cannot be checked, so it is nobody's event
      let event: unknown;
      try {
        event = JSON.parse(rawBody.toString('utf8')) as unknown;
      } catch {
        throw new ProviderError('invalid_signature', 'Invalid webhook signature.');
      }
      const verification = await call<{ verification_status: string }>(
        ctx,
        'POST',
        '/v1/notifications/verify-webhook-signature',
        {
          auth_algo: h('paypal-auth-algo'),
          cert_url: h('paypal-cert-url'),
          transmission_id: h('paypal-transmission-id'),
          transmission_sig: h('paypal-transmission-sig'),
          transmission_time: h('paypal-transmission-time'),
          webhook_id: opts.webhookId,
          webhook_event: event,
        },
      ).catch(() => ({ verification_status: 'FAILURE' }));
      if (verification.verification_status !== 'SUCCESS')
        throw new ProviderError('invalid_signature', 'Invalid webhook signature.');
      // PayPal's own: read strictly from here on (the bytes as UTF-8, the shape its type promises)
      return mapPaypalEvent(eventJson(rawBody), readSubscription);
    },

    async fetchEvent(eventId) {
      const event = await call<unknown>(ctx, 'GET', `/v1/notifications/webhooks-events/${encodeURIComponent(eventId)}`);
      return mapPaypalEvent(event, readSubscription);
    },
  };
}

// ---- webhook events: the parts of each event's resource we read, checked before they are used

const amountText = z.string().regex(/^\d+(\.\d+)?$/, 'not an amount');
const RESOURCES = {
  capture: z.looseObject({
    id: z.string(),
    amount: z.looseObject({ value: amountText }),
    custom_id: z.string().nullish(),
    supplementary_data: z
      .looseObject({ related_ids: z.looseObject({ order_id: z.string().nullish() }).nullish() })
      .nullish(),
  }),
  sale: z.looseObject({
    id: z.string(),
    billing_agreement_id: z.string().nullish(),
    create_time: z.string().nullish(),
    amount: z.looseObject({ total: amountText.nullish(), value: amountText.nullish() }),
  }),
  subscription: z.looseObject({ id: z.string() }),
  failedPayment: z.looseObject({
    id: z.string(),
    billing_info: z
      .looseObject({
        last_failed_payment: z
          .looseObject({ amount: z.looseObject({ value: amountText }).nullish(), time: z.string().nullish() })
          .nullish(),
      })
      .nullish(),
  }),
};
const eventWith = <R extends z.ZodType>(resource: R) =>
  z.looseObject({ id: z.string().min(1), event_type: z.string().min(1), resource });

/**
 * PayPal's event (its JSON, verified) → ours; MalformedEventError when it is not in the shape its type
 * promises. Subscription events read the subscription fresh: webhooks carry no plan.
 */
export async function mapPaypalEvent(
  json: unknown,
  readSubscription: (ref: string) => Promise<SubscriptionState>,
): Promise<ProviderEvent> {
  const read = <R extends z.ZodType>(resource: R) =>
    readEvent(eventWith(resource), json, field(json, 'id'), field(json, 'event_type'));
  const event = read(z.looseObject({}));
  switch (event.event_type) {
    case 'PAYMENT.CAPTURE.COMPLETED':
    case 'PAYMENT.CAPTURE.DENIED':
    case 'PAYMENT.CAPTURE.DECLINED':
    case 'PAYMENT.CAPTURE.REFUNDED': {
      const r = read(RESOURCES.capture).resource;
      const metadata: Record<string, string> = r.custom_id ? { orderId: r.custom_id } : {};
      const charge = {
        ref: r.supplementary_data?.related_ids?.order_id ?? r.id,
        amountCents: cents(r.amount.value),
        metadata,
      };
      if (event.event_type === 'PAYMENT.CAPTURE.COMPLETED') return { id: event.id, type: 'charge.succeeded', charge };
      if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED') return { id: event.id, type: 'charge.refunded', charge };
      return {
        id: event.id,
        type: 'charge.failed',
        charge: { ...charge, failureMessage: 'PayPal declined this payment. Please choose another way to pay.' },
      };
    }
    case 'PAYMENT.SALE.COMPLETED': {
      const r = read(RESOURCES.sale).resource;
      if (!r.billing_agreement_id) return { id: event.id, type: 'ignored', providerType: event.event_type };
      const at = new Date(r.create_time ?? Date.now());
      return {
        id: event.id,
        type: 'invoice.paid',
        invoice: {
          ref: r.id,
          subscriptionRef: r.billing_agreement_id,
          amountCents: cents(r.amount.total ?? r.amount.value ?? undefined),
          periodStart: at,
          periodEnd: at,
        },
      };
    }
    case 'BILLING.SUBSCRIPTION.PAYMENT.FAILED': {
      const r = read(RESOURCES.failedPayment).resource;
      const failed = r.billing_info?.last_failed_payment;
      const at = new Date(failed?.time ?? Date.now());
      return {
        id: event.id,
        type: 'invoice.payment_failed',
        invoice: {
          ref: `${r.id}:${event.id}`,
          subscriptionRef: r.id,
          amountCents: cents(failed?.amount?.value),
          periodStart: at,
          periodEnd: at,
        },
      };
    }
    case 'BILLING.SUBSCRIPTION.ACTIVATED':
    case 'BILLING.SUBSCRIPTION.UPDATED':
    case 'BILLING.SUBSCRIPTION.SUSPENDED':
    case 'BILLING.SUBSCRIPTION.RE-ACTIVATED':
      return {
        id: event.id,
        type: 'subscription.updated',
        subscription: await readSubscription(read(RESOURCES.subscription).resource.id),
      };
    case 'BILLING.SUBSCRIPTION.CANCELLED':
    case 'BILLING.SUBSCRIPTION.EXPIRED':
      return {
        id: event.id,
        type: 'subscription.canceled',
        subscription: { ...(await readSubscription(read(RESOURCES.subscription).resource.id)), status: 'canceled' },
      };
    default:
      return { id: event.id, type: 'ignored', providerType: event.event_type };
  }
}
