/* eslint-disable max-lines -- the same contract run against each payment provider's adapter (sandbox, Stripe, PayPal) with their fakes */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { createStripeProvider } from './stripe/index.ts';
import { createPaypalProvider } from './paypal/index.ts';
import type { PaymentProvider } from './provider.ts';

// The Stripe and PayPal adapters against RECORDED provider answers (fixtures/) served from a local
// HTTP server: the requests they send (method, path, body, idempotency headers) and how they map
// the answers.

const fixture = (name: string) =>
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', `${name}.json`), 'utf8');

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let base = '';
const seen: Seen[] = [];
let routes: Record<string, { status?: number; body: string }> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const route = routes[`${req.method} ${url.pathname}`];
      res.writeHead(route?.status ?? (route ? 200 : 404), {
        'content-type': 'application/json',
        'request-id': 'req_test',
      });
      res.end(route?.body ?? JSON.stringify({ error: { message: 'not recorded', type: 'invalid_request_error' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  routes = {};
});
const form = (body: string) => new URLSearchParams(body);

describe('stripe adapter', () => {
  let stripe: PaymentProvider;
  beforeAll(() => {
    stripe = createStripeProvider({ secretKey: 'sk_test_123', webhookSecret: 'whsec_test_secret', apiBase: base });
  });

  it('creates a customer and a setup intent with idempotency keys', async () => {
    routes = {
      'POST /v1/customers': { body: fixture('stripe-customer') },
      'POST /v1/setup_intents': { body: fixture('stripe-setup-intent') },
    };
    const r = await stripe.createCardSetup({
      email: 'ann@example.com',
      name: 'Ann Drummer',
      idempotencyKey: 'k1',
      metadata: { userId: '7' },
    });
    expect(r.clientSecret).toBe('seti_1QaBcD2eZvKYlo2C_secret_RkT0abcdefghijklmnopqrstuv');
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /v1/customers', 'POST /v1/setup_intents']);
    expect(seen[0]!.headers['idempotency-key']).toBe('k1:customer');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk_test_123');
    expect(form(seen[0]!.body).get('email')).toBe('ann@example.com');
    expect(seen[1]!.headers['idempotency-key']).toBe('k1:setup');
    expect(Object.fromEntries(form(seen[1]!.body))).toMatchObject({
      customer: 'cus_RkT0Yq6dEXAMPL',
      usage: 'off_session',
      'payment_method_types[0]': 'card',
      'metadata[userId]': '7',
    });
  });

  it('charges a card: the payment intent and its mapping; a decline is the provider message', async () => {
    routes = {
      'GET /v1/payment_methods/pm_1QaBcE2eZvKYlo2CxYz': { body: fixture('stripe-payment-method') },
      'POST /v1/payment_intents': { body: fixture('stripe-payment-intent') },
    };
    const r = await stripe.chargeCard({
      email: 'ann@example.com',
      name: 'Ann',
      paymentMethod: 'pm_1QaBcE2eZvKYlo2CxYz',
      amountCents: 750_00,
      description: 'Lifetime membership',
      idempotencyKey: 'order-41',
      metadata: { orderId: '41' },
    });
    expect(r).toEqual({ ref: 'pi_3QaBcF2eZvKYlo2C1', status: 'succeeded', paymentMethodLabel: 'Visa ending 4242' });
    const pi = seen.find((s) => s.path === '/v1/payment_intents')!;
    expect(pi.headers['idempotency-key']).toBe('order-41');
    expect(Object.fromEntries(form(pi.body))).toMatchObject({
      amount: '75000',
      currency: 'usd',
      customer: 'cus_RkT0Yq6dEXAMPL',
      payment_method: 'pm_1QaBcE2eZvKYlo2CxYz',
      confirm: 'true',
      'metadata[orderId]': '41',
    });

    routes['POST /v1/payment_intents'] = { status: 402, body: fixture('stripe-card-declined') };
    const declined = await stripe.chargeCard({
      email: 'ann@example.com',
      name: 'Ann',
      paymentMethod: 'pm_1QaBcE2eZvKYlo2CxYz',
      amountCents: 750_00,
      description: 'x',
      idempotencyKey: 'order-42',
      metadata: {},
    });
    expect(declined).toMatchObject({
      ref: 'pi_3QaDecl2eZvKYlo2C',
      status: 'failed',
      failureMessage: 'Your card was declined.',
    });
  });

  it('subscribes with a trial and maps the subscription', async () => {
    routes = {
      'GET /v1/payment_methods/pm_1QaBcE2eZvKYlo2CxYz': { body: fixture('stripe-payment-method') },
      'POST /v1/products': { body: fixture('stripe-product') },
      'POST /v1/subscriptions': { body: fixture('stripe-subscription') },
    };
    const s = await stripe.subscribeCard({
      email: 'a',
      name: 'Ann',
      paymentMethod: 'pm_1QaBcE2eZvKYlo2CxYz',
      priceCents: 29_00,
      interval: 'month',
      trialDays: 7,
      description: 'Monthly',
      idempotencyKey: 'sub-7',
      metadata: { userId: '7' },
    });
    expect(s).toEqual({
      ref: 'sub_1QaBcG2eZvKYlo2C',
      status: 'trialing',
      interval: 'month',
      priceCents: 2900,
      currentPeriodEnd: new Date(1790604802 * 1000),
      trialEndsAt: new Date(1790604802 * 1000),
      cancelAtPeriodEnd: false,
      paymentMethodLabel: 'Visa ending 4242',
    });
    const sub = seen.find((x) => x.path === '/v1/subscriptions')!;
    expect(sub.headers['idempotency-key']).toBe('sub-7');
    expect(Object.fromEntries(form(sub.body))).toMatchObject({
      customer: 'cus_RkT0Yq6dEXAMPL',
      default_payment_method: 'pm_1QaBcE2eZvKYlo2CxYz',
      'items[0][price_data][unit_amount]': '2900',
      'items[0][price_data][recurring][interval]': 'month',
      'items[0][price_data][product]': 'prod_RkT0MonthlyAcad',
      trial_period_days: '7',
      payment_behavior: 'error_if_incomplete',
    });
    expect(seen.find((x) => x.path === '/v1/products')!.headers['idempotency-key']).toBe('sub-7:product');
  });

  it('cancels at period end with an update', async () => {
    const canceled = JSON.stringify({
      ...JSON.parse(fixture('stripe-subscription')),
      status: 'active',
      cancel_at_period_end: true,
    });
    routes = { 'POST /v1/subscriptions/sub_1QaBcG2eZvKYlo2C': { body: canceled } };
    const s = await stripe.cancel('sub_1QaBcG2eZvKYlo2C', { atPeriodEnd: true }, 'cancel-1');
    expect(s).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(form(seen[0]!.body).get('cancel_at_period_end')).toBe('true');
    expect(seen[0]!.headers['idempotency-key']).toBe('cancel-1');
  });

  it('checks webhook signatures with the real Stripe header and maps the event', async () => {
    const payload = JSON.stringify({
      id: 'evt_1QaBcI2eZvKYlo2C',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: JSON.parse(fixture('stripe-payment-intent')) },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_test_secret' });
    const event = await stripe.verifyWebhook(Buffer.from(payload), { 'stripe-signature': header });
    expect(event).toEqual({
      id: 'evt_1QaBcI2eZvKYlo2C',
      type: 'charge.succeeded',
      charge: { ref: 'pi_3QaBcF2eZvKYlo2C1', amountCents: 75000, metadata: { orderId: '41' } },
    });
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    await expect(stripe.verifyWebhook(Buffer.from(payload), { 'stripe-signature': forged })).rejects.toMatchObject({
      code: 'invalid_signature',
    });
    await expect(
      stripe.verifyWebhook(Buffer.from(payload.replace('75000', '1')), { 'stripe-signature': header }),
    ).rejects.toMatchObject({ code: 'invalid_signature' });

    const deleted = JSON.stringify({
      id: 'evt_2',
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: { ...JSON.parse(fixture('stripe-subscription')), status: 'canceled' } },
    });
    const e2 = await stripe.verifyWebhook(Buffer.from(deleted), {
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: deleted, secret: 'whsec_test_secret' }),
    });
    expect(e2).toMatchObject({
      type: 'subscription.canceled',
      subscription: { ref: 'sub_1QaBcG2eZvKYlo2C', status: 'canceled' },
    });
  });

  it("reads an event again from Stripe for an admin's retry; an unknown one is not_found", async () => {
    const event = {
      id: 'evt_1QaBcI2eZvKYlo2C',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: JSON.parse(fixture('stripe-payment-intent')) },
    };
    routes = { 'GET /v1/events/evt_1QaBcI2eZvKYlo2C': { body: JSON.stringify(event) } };
    expect(await stripe.fetchEvent('evt_1QaBcI2eZvKYlo2C')).toEqual({
      id: 'evt_1QaBcI2eZvKYlo2C',
      type: 'charge.succeeded',
      charge: { ref: 'pi_3QaBcF2eZvKYlo2C1', amountCents: 75000, metadata: { orderId: '41' } },
    });
    routes = {
      'GET /v1/events/evt_gone': {
        status: 404,
        body: JSON.stringify({
          error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such event' },
        }),
      },
    };
    await expect(stripe.fetchEvent('evt_gone')).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('paypal adapter', () => {
  let paypal: PaymentProvider;
  beforeEach(() => {
    paypal = createPaypalProvider({
      clientId: 'client-id',
      clientSecret: 'client-secret',
      webhookId: 'WH-ID-1',
      apiBase: base,
      appUrl: 'http://app.test',
    });
  });
  const token = { 'POST /v1/oauth2/token': { body: fixture('paypal-token') } };

  it('creates an order with PayPal-Request-Id after an OAuth token (our return paths made absolute on APP_URL), and captures it', async () => {
    routes = {
      ...token,
      'POST /v2/checkout/orders': { status: 201, body: fixture('paypal-order-created') },
      'POST /v2/checkout/orders/5O190127TN364715T/capture': { status: 201, body: fixture('paypal-order-captured') },
    };
    const a = await paypal.createPaypalOrder({
      amountCents: 750_00,
      description: 'Lifetime membership',
      returnUrl: '/order?x=1',
      cancelUrl: '/join',
      idempotencyKey: 'order-41',
      metadata: { orderId: '41' },
    });
    expect(a).toEqual({
      ref: '5O190127TN364715T',
      url: 'https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T',
    });
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/v1/oauth2/token', body: 'grant_type=client_credentials' });
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('client-id:client-secret').toString('base64')}`);
    const create = seen[1]!;
    expect(create.headers['paypal-request-id']).toBe('order-41');
    expect(create.headers.authorization).toBe('Bearer A21AAFakeSandboxAccessToken');
    expect(JSON.parse(create.body)).toMatchObject({
      intent: 'CAPTURE',
      purchase_units: [{ amount: { currency_code: 'USD', value: '750.00' }, custom_id: '41' }],
      payment_source: {
        paypal: { experience_context: { return_url: 'http://app.test/order?x=1', cancel_url: 'http://app.test/join' } },
      },
    });
    const c = await paypal.capturePaypalOrder('5O190127TN364715T', 'capture-41');
    expect(c).toEqual({
      ref: '5O190127TN364715T',
      status: 'succeeded',
      paymentMethodLabel: 'PayPal (customer@example.com)',
    });
    expect(seen.at(-1)!.headers['paypal-request-id']).toBe('capture-41');
    // the token is reused
    expect(seen.filter((s) => s.path === '/v1/oauth2/token')).toHaveLength(1);
  });

  it('a capture before approval is refused in words', async () => {
    routes = {
      ...token,
      'POST /v2/checkout/orders/5O190127TN364715T/capture': { status: 422, body: fixture('paypal-order-not-approved') },
    };
    await expect(paypal.capturePaypalOrder('5O190127TN364715T', 'k')).rejects.toMatchObject({
      code: 'provider_error',
      message: 'The PayPal payment has not been approved.',
    });
  });

  it('creates product, plan (trial then regular) and subscription; reads and suspends it', async () => {
    routes = {
      ...token,
      'POST /v1/catalogs/products': { status: 201, body: fixture('paypal-product') },
      'POST /v1/billing/plans': { status: 201, body: fixture('paypal-plan') },
      'POST /v1/billing/subscriptions': { status: 201, body: fixture('paypal-subscription-created') },
      'GET /v1/billing/subscriptions/I-BW452GLLEP1G': { body: fixture('paypal-subscription') },
      'POST /v1/billing/subscriptions/I-BW452GLLEP1G/suspend': { status: 204, body: '' },
    };
    const a = await paypal.createPaypalSubscription({
      priceCents: 249_00,
      interval: 'year',
      trialDays: 14,
      description: 'Yearly membership',
      returnUrl: 'http://app.test/order',
      cancelUrl: 'http://app.test/join',
      idempotencyKey: 'sub-7',
      metadata: { userId: '7' },
    });
    expect(a).toEqual({
      ref: 'I-BW452GLLEP1G',
      url: 'https://www.sandbox.paypal.com/webapps/billing/subscriptions?ba_token=BA-2M539689T3856352J',
    });
    const plan = seen.find((s) => s.path === '/v1/billing/plans')!;
    expect(plan.headers['paypal-request-id']).toBe('sub-7:plan');
    expect(JSON.parse(plan.body)).toMatchObject({
      product_id: 'PROD-5FD60555F23244316',
      billing_cycles: [
        { tenure_type: 'TRIAL', frequency: { interval_unit: 'DAY', interval_count: 14 }, total_cycles: 1 },
        {
          tenure_type: 'REGULAR',
          frequency: { interval_unit: 'YEAR', interval_count: 1 },
          sequence: 2,
          pricing_scheme: { fixed_price: { value: '249.00', currency_code: 'USD' } },
        },
      ],
    });
    const sub = seen.find((s) => s.path === '/v1/billing/subscriptions')!;
    expect(sub.headers['paypal-request-id']).toBe('sub-7:subscription');
    expect(JSON.parse(sub.body)).toMatchObject({
      plan_id: 'P-17M15335A8501272JLXLLNKI',
      custom_id: '7',
      application_context: { return_url: 'http://app.test/order', cancel_url: 'http://app.test/join' },
    });

    expect(await paypal.getSubscription('I-BW452GLLEP1G')).toEqual({
      ref: 'I-BW452GLLEP1G',
      status: 'active',
      interval: 'year',
      priceCents: 249_00,
      currentPeriodEnd: new Date('2027-11-22T10:00:00Z'),
      trialEndsAt: null,
      cancelAtPeriodEnd: false,
      paymentMethodLabel: 'PayPal (customer@example.com)',
    });
    expect(seen.at(-1)!.path).toBe('/v1/billing/subscriptions/I-BW452GLLEP1G?fields=plan');
    await paypal.pause('I-BW452GLLEP1G', { feeCents: 0 }, 'pause-1');
    const suspend = seen.find((s) => s.path.endsWith('/suspend'))!;
    expect(suspend.headers['paypal-request-id']).toBe('pause-1');
    expect(JSON.parse(suspend.body)).toEqual({ reason: 'Paused by the member' });
  });

  it('verifies webhooks at PayPal and maps them; a failed verification is refused', async () => {
    routes = {
      ...token,
      'POST /v1/notifications/verify-webhook-signature': { body: JSON.stringify({ verification_status: 'SUCCESS' }) },
    };
    const raw = Buffer.from(fixture('paypal-webhook-capture-completed'));
    const headers = {
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-1',
      'paypal-transmission-id': 'tid-1',
      'paypal-transmission-sig': 'sig==',
      'paypal-transmission-time': '2026-11-22T21:06:00Z',
    };
    const event = await paypal.verifyWebhook(raw, headers);
    expect(event).toEqual({
      id: 'WH-58D329510W468432D-8HN650336L201105X',
      type: 'charge.succeeded',
      charge: { ref: '5O190127TN364715T', amountCents: 750_00, metadata: { orderId: '41' } },
    });
    const verify = JSON.parse(seen.find((s) => s.path === '/v1/notifications/verify-webhook-signature')!.body);
    expect(verify).toMatchObject({
      auth_algo: 'SHA256withRSA',
      transmission_id: 'tid-1',
      transmission_sig: 'sig==',
      webhook_id: 'WH-ID-1',
      webhook_event: { id: 'WH-58D329510W468432D-8HN650336L201105X' },
    });

    routes['POST /v1/notifications/verify-webhook-signature'] = {
      body: JSON.stringify({ verification_status: 'FAILURE' }),
    };
    await expect(paypal.verifyWebhook(raw, headers)).rejects.toMatchObject({ code: 'invalid_signature' });
  });

  it("reads an event again from PayPal for an admin's retry; an unknown one is not_found", async () => {
    const raw = fixture('paypal-webhook-capture-completed');
    const id = (JSON.parse(raw) as { id: string }).id;
    routes = { ...token, [`GET /v1/notifications/webhooks-events/${id}`]: { body: raw } };
    expect(await paypal.fetchEvent(id)).toEqual({
      id,
      type: 'charge.succeeded',
      charge: { ref: '5O190127TN364715T', amountCents: 750_00, metadata: { orderId: '41' } },
    });
    await expect(paypal.fetchEvent('WH-UNKNOWN')).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('payment configuration', () => {
  it('defaults to the sandbox and refuses a live provider without its keys', async () => {
    const { loadConfig } = await import('#server/config');
    expect(loadConfig({ NODE_ENV: 'test' }, []).payments).toMatchObject({
      card: 'sandbox',
      paypal: 'sandbox',
      sandboxWebhookSecret: 'whsec_sandbox_test',
    });
    expect(() => loadConfig({ PAYMENTS_CARD_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1' }, [])).toThrow(
      /STRIPE_PUBLISHABLE_KEY/,
    );
    expect(() => loadConfig({ PAYMENTS_PAYPAL_PROVIDER: 'paypal' }, [])).toThrow(/PAYPAL_CLIENT_ID/);
    const live = loadConfig(
      {
        PAYMENTS_PAYPAL_PROVIDER: 'paypal',
        PAYPAL_CLIENT_ID: 'a',
        PAYPAL_CLIENT_SECRET: 'b',
        PAYPAL_WEBHOOK_ID: 'c',
        PAYPAL_API_BASE: 'https://api-m.paypal.com/',
      },
      [],
    );
    expect(live.payments.paypalApi.apiBase).toBe('https://api-m.paypal.com');
  });
});
