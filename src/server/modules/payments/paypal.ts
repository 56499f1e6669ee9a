import { z } from '#shared/zod';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import {
  ProviderError,
  type ChargeResult,
  type PaymentProvider,
  type ProviderEvent,
  type RetryResult,
  type SubscriptionState,
} from './provider.ts';
import { eventJson, field, readEvent } from './webhook-content.ts';

/**
 * The PayPal provider on PayPal's REST API with fetch: an OAuth client-credentials token,
 * Orders v2 for one-time payments (create, approve at PayPal, capture on return) and Subscriptions
 * v1 for plans (one catalog product and billing plan per subscription, then the subscription the
 * buyer approves). Every creating call sends PayPal-Request-Id (PayPal's idempotency key). Webhooks
 * are checked with /v1/notifications/verify-webhook-signature.
 *
 * PAYPAL_API_BASE: https://api-m.sandbox.paypal.com (PayPal's sandbox), https://api-m.paypal.com
 * (live), or a local server in tests.
 */

interface PaypalLink {
  href: string;
  rel: string;
}
interface PaypalSubscription {
  id: string;
  status: string;
  custom_id?: string;
  subscriber?: { email_address?: string };
  billing_info?: {
    next_billing_time?: string;
    cycle_executions?: { tenure_type: string; cycles_completed: number; total_cycles: number }[];
    last_payment?: { amount?: { value: string }; time?: string };
    last_failed_payment?: { amount?: { value: string }; time?: string };
    outstanding_balance?: { value: string; currency_code?: string };
    failed_payments_count?: number;
  };
  plan?: {
    billing_cycles?: {
      tenure_type: string;
      frequency: { interval_unit: string; interval_count: number };
      pricing_scheme?: { fixed_price?: { value: string } };
    }[];
  };
  status_update_time?: string;
  links?: PaypalLink[];
}

const cents = (value: string | undefined) => Math.round(Number(value ?? 0) * 100);
const money = (amountCents: number) => ({ currency_code: 'USD', value: (amountCents / 100).toFixed(2) });
const payerLabel = (email: string | undefined) => (email ? `PayPal (${email})` : 'PayPal');

export function mapPaypalSubscription(sub: PaypalSubscription): SubscriptionState {
  const regular = sub.plan?.billing_cycles?.find((c) => c.tenure_type === 'REGULAR');
  const trial = sub.billing_info?.cycle_executions?.find((c) => c.tenure_type === 'TRIAL');
  const inTrial = !!trial && trial.cycles_completed < trial.total_cycles;
  const statusMap: Record<string, SubscriptionState['status']> = {
    APPROVAL_PENDING: 'approval_pending',
    APPROVED: 'approval_pending',
    ACTIVE: inTrial ? 'trialing' : 'active',
    SUSPENDED: 'paused',
    CANCELLED: 'canceled',
    EXPIRED: 'canceled',
  };
  const next = sub.billing_info?.next_billing_time;
  return {
    ref: sub.id,
    status: statusMap[sub.status] ?? 'incomplete',
    interval: regular?.frequency.interval_unit === 'YEAR' ? 'year' : 'month',
    priceCents: cents(regular?.pricing_scheme?.fixed_price?.value),
    currentPeriodEnd: next ? new Date(next) : new Date(sub.status_update_time ?? Date.now()),
    trialEndsAt: inTrial && next ? new Date(next) : null,
    cancelAtPeriodEnd: false,
    paymentMethodLabel: payerLabel(sub.subscriber?.email_address),
  };
}

export function createPaypalProvider(opts: {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  apiBase: string;
  appUrl?: string;
}): PaymentProvider {
  /** our return addresses are site paths; PayPal needs them absolute (on APP_URL) */
  const absolute = (url: string) => (opts.appUrl && url.startsWith('/') ? new URL(url, opts.appUrl).toString() : url);
  let token: { value: string; expiresAt: number } | null = null;

  async function accessToken() {
    if (token && token.expiresAt > Date.now() + 60_000) return token.value;
    const res = await fetch(`${opts.apiBase}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    if (!res.ok) throw new ProviderError('provider_error', 'PayPal refused our credentials.');
    const data = (await res.json()) as { access_token: string; expires_in: number };
    token = { value: data.access_token, expiresAt: Date.now() + data.expires_in * 1000 };
    return token.value;
  }

  async function call<T>(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
    requestId?: string,
  ): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${await accessToken()}`,
      Accept: 'application/json',
      Prefer: 'return=representation',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (requestId) headers['PayPal-Request-Id'] = requestId;
    const res = await fetch(`${opts.apiBase}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok) {
      const issue = (data.details as { issue?: string; description?: string }[] | undefined)?.[0];
      if (res.status === 404) throw new ProviderError('not_found', String(data.message ?? 'Not found at PayPal.'));
      if (issue?.issue === 'ORDER_NOT_APPROVED')
        throw new ProviderError('provider_error', 'The PayPal payment has not been approved.');
      if (issue?.issue === 'INSTRUMENT_DECLINED')
        throw new ProviderError('card_declined', 'PayPal declined this payment. Please choose another way to pay.');
      throw new ProviderError(
        'provider_error',
        String(issue?.description ?? data.message ?? 'PayPal could not do that.'),
      );
    }
    return data as T;
  }

  const approveLink = (links: PaypalLink[] | undefined) =>
    links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')?.href ?? '';

  async function getSubscription(ref: string) {
    return mapPaypalSubscription(
      await call<PaypalSubscription>('GET', `/v1/billing/subscriptions/${encodeURIComponent(ref)}?fields=plan`),
    );
  }

  async function subscriptionAction(
    ref: string,
    action: 'suspend' | 'activate' | 'cancel',
    reason: string,
    requestId: string,
  ) {
    await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(ref)}/${action}`, { reason }, requestId);
    return getSubscription(ref);
  }

  const unsupported = async (): Promise<never> => {
    throw new ProviderError('unsupported', 'Cards are not taken through PayPal here.');
  };

  return {
    name: 'paypal',
    createCardSetup: unsupported,
    chargeCard: unsupported,
    subscribeCard: unsupported,
    /** hosted card checkout is the card provider's */
    async createHostedCheckout() {
      throw new ProviderError('unsupported', 'A hosted card checkout is not offered through PayPal.');
    },
    async getHostedCheckout() {
      throw new ProviderError('unsupported', 'A hosted card checkout is not offered through PayPal.');
    },

    async createPaypalOrder(input) {
      const order = await call<{ id: string; links?: PaypalLink[] }>(
        'POST',
        '/v2/checkout/orders',
        {
          intent: 'CAPTURE',
          purchase_units: [
            {
              amount: money(input.amountCents),
              description: input.description.slice(0, 127),
              custom_id: input.metadata.orderId ?? undefined,
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                return_url: absolute(input.returnUrl),
                cancel_url: absolute(input.cancelUrl),
                user_action: 'PAY_NOW',
                shipping_preference: 'NO_SHIPPING',
                brand_name: 'Backbeat',
              },
            },
          },
        },
        input.idempotencyKey,
      );
      return { ref: order.id, url: approveLink(order.links) };
    },

    async capturePaypalOrder(ref, idempotencyKey): Promise<ChargeResult> {
      const order = await call<{
        id: string;
        status: string;
        payer?: { email_address?: string };
        payment_source?: { paypal?: { email_address?: string } };
      }>('POST', `/v2/checkout/orders/${encodeURIComponent(ref)}/capture`, {}, idempotencyKey);
      const label = payerLabel(order.payment_source?.paypal?.email_address ?? order.payer?.email_address);
      if (order.status === 'COMPLETED') return { ref: order.id, status: 'succeeded', paymentMethodLabel: label };
      return {
        ref: order.id,
        status: 'failed',
        failureMessage: COMMERCE_MESSAGES.paymentCanceled,
        paymentMethodLabel: label,
      };
    },

    async createPaypalSubscription(input) {
      const key = input.idempotencyKey;
      const product = await call<{ id: string }>(
        'POST',
        '/v1/catalogs/products',
        { name: input.description.slice(0, 127), type: 'SERVICE', category: 'EDUCATIONAL_AND_TEXTBOOKS' },
        `${key}:product`,
      );
      const unit = input.interval === 'year' ? 'YEAR' : 'MONTH';
      const cycles = [
        ...(input.trialDays > 0
          ? [
              {
                frequency: { interval_unit: 'DAY', interval_count: input.trialDays },
                tenure_type: 'TRIAL',
                sequence: 1,
                total_cycles: 1,
              },
            ]
          : []),
        {
          frequency: { interval_unit: unit, interval_count: 1 },
          tenure_type: 'REGULAR',
          sequence: input.trialDays > 0 ? 2 : 1,
          total_cycles: 0,
          pricing_scheme: { fixed_price: money(input.priceCents) },
        },
      ];
      const plan = await call<{ id: string }>(
        'POST',
        '/v1/billing/plans',
        {
          product_id: product.id,
          name: input.description.slice(0, 127),
          status: 'ACTIVE',
          billing_cycles: cycles,
          payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 2 },
        },
        `${key}:plan`,
      );
      const sub = await call<PaypalSubscription>(
        'POST',
        '/v1/billing/subscriptions',
        {
          plan_id: plan.id,
          custom_id: input.metadata.orderId ?? input.metadata.userId ?? undefined,
          application_context: {
            brand_name: 'Backbeat',
            user_action: 'SUBSCRIBE_NOW',
            shipping_preference: 'NO_SHIPPING',
            return_url: absolute(input.returnUrl),
            cancel_url: absolute(input.cancelUrl),
          },
        },
        `${key}:subscription`,
      );
      return { ref: sub.id, url: approveLink(sub.links) };
    },

    getSubscription,
    async applyDiscount() {
      throw new ProviderError('unsupported', 'PayPal subscriptions cannot be discounted here.');
    },
    async changePlan() {
      throw new ProviderError('unsupported', 'PayPal subscriptions cannot change plan here.');
    },
    /** PayPal's pause is free (docs/product/retention.md): the fee is ignored */
    pause: (ref, _opts, key) => subscriptionAction(ref, 'suspend', 'Paused by the member', key),
    resume: (ref, key) => subscriptionAction(ref, 'activate', 'Resumed by the member', key),
    /** PayPal cancels at once; the ledger keeps access to the paid period's end */
    cancel: (ref, _opts, key) => subscriptionAction(ref, 'cancel', 'Cancelled by the member', key),

    async refund(chargeRef, idempotencyKey, amountCents) {
      const amount =
        amountCents === undefined ? {} : { amount: { value: (amountCents / 100).toFixed(2), currency_code: 'USD' } };
      if (chargeRef.startsWith('sale:')) {
        // a subscription's payment (a sale): the v1 payments API refunds it
        const sale = chargeRef.slice('sale:'.length);
        const total =
          amountCents === undefined ? {} : { amount: { total: (amountCents / 100).toFixed(2), currency: 'USD' } };
        await call('POST', `/v1/payments/sale/${encodeURIComponent(sale)}/refund`, total, idempotencyKey);
        return;
      }
      const order = await call<{ purchase_units?: { payments?: { captures?: { id: string }[] } }[] }>(
        'GET',
        `/v2/checkout/orders/${encodeURIComponent(chargeRef)}`,
      );
      const capture = order.purchase_units?.[0]?.payments?.captures?.[0]?.id;
      if (!capture) throw new ProviderError('not_found', 'This PayPal payment has no capture to refund.');
      await call('POST', `/v2/payments/captures/${encodeURIComponent(capture)}/refund`, amount, idempotencyKey);
    },

    /** a subscription payment is a sale (the ledger keeps its id); the first is the subscription's oldest completed transaction */
    async subscriptionPaymentCharge(subscriptionRef, invoiceRef) {
      if (invoiceRef) return `sale:${invoiceRef}`;
      const sub = await call<{ create_time?: string }>(
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(subscriptionRef)}`,
      );
      const from = new Date(new Date(sub.create_time ?? Date.now()).getTime() - 86_400_000).toISOString();
      const list = await call<{ transactions?: { id: string; status: string; time: string }[] }>(
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(subscriptionRef)}/transactions?start_time=${encodeURIComponent(from)}&end_time=${encodeURIComponent(new Date().toISOString())}`,
      );
      const first = (list.transactions ?? [])
        .filter((t) => t.status === 'COMPLETED')
        .sort((a, b) => a.time.localeCompare(b.time))[0];
      if (!first) throw new ProviderError('not_found', 'PayPal has no payment for this subscription.');
      return `sale:${first.id}`;
    },

    createSubscriptionCardSetup: unsupported,
    updatePaymentMethod: unsupported,

    /** collect the subscription's outstanding balance now, from the funding source the subscriber chose at PayPal */
    async retryPayment(ref, idempotencyKey): Promise<RetryResult> {
      const sub = await call<PaypalSubscription>(
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(ref)}?fields=plan`,
      );
      const outstanding = sub.billing_info?.outstanding_balance;
      let failureMessage: string | undefined;
      if (outstanding && cents(outstanding.value) > 0) {
        try {
          await call(
            'POST',
            `/v1/billing/subscriptions/${encodeURIComponent(ref)}/capture`,
            {
              note: 'Membership payment due',
              capture_type: 'OUTSTANDING_BALANCE',
              amount: { currency_code: outstanding.currency_code ?? 'USD', value: outstanding.value },
            },
            idempotencyKey,
          );
        } catch (err) {
          if (!(err instanceof ProviderError) || err.code !== 'card_declined') throw err;
          failureMessage = err.message;
        }
      }
      const state = await getSubscription(ref);
      return failureMessage ? { paid: false, failureMessage, state } : { paid: true, state };
    },

    /**
     * PayPal keeps the subscriber's funding source: they change it on PayPal's automatic payments
     * page (the sandbox's or the live site's, as the API base is), then come back and pay.
     */
    async fundingFixUrl() {
      return /sandbox/.test(opts.apiBase)
        ? 'https://www.sandbox.paypal.com/myaccount/autopay/'
        : 'https://www.paypal.com/myaccount/autopay/';
    },

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
      return mapPaypalEvent(eventJson(rawBody), getSubscription);
    },

    async fetchEvent(eventId) {
      const event = await call<unknown>('GET', `/v1/notifications/webhooks-events/${encodeURIComponent(eventId)}`);
      return mapPaypalEvent(event, getSubscription);
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
  getSubscription: (ref: string) => Promise<SubscriptionState>,
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
        subscription: await getSubscription(read(RESOURCES.subscription).resource.id),
      };
    case 'BILLING.SUBSCRIPTION.CANCELLED':
    case 'BILLING.SUBSCRIPTION.EXPIRED':
      return {
        id: event.id,
        type: 'subscription.canceled',
        subscription: { ...(await getSubscription(read(RESOURCES.subscription).resource.id)), status: 'canceled' },
      };
    default:
      return { id: event.id, type: 'ignored', providerType: event.event_type };
  }
}
