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

// The Stripe and PayPal calls of recovery from a failed payment (docs/product/dunning.md) against
// RECORDED provider answers (fixtures/) served from a local HTTP server: a SetupIntent for the
// subscription's customer, the new default card, paying the open invoice now, the retry schedule
// read from Stripe's failed-invoice event, and PayPal's outstanding balance and fix link.

const fixture = (name: string) =>
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', `${name}.json`), 'utf8');

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
/** a route answers its `bodies` in turn (the last one again once they run out) */
type Route = { status?: number; bodies: string[] };
let server: Server;
let base = '';
const seen: Seen[] = [];
let routes: Record<string, Route> = {};
const answer = (body: string, status?: number): Route => ({ bodies: [body], ...(status ? { status } : {}) });

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
      const body = route ? (route.bodies.length > 1 ? route.bodies.shift()! : route.bodies[0]!) : null;
      res.writeHead(route?.status ?? (route ? 200 : 404), {
        'content-type': 'application/json',
        'request-id': 'req_test',
      });
      res.end(body ?? JSON.stringify({ error: { message: 'not recorded', type: 'invalid_request_error' } }));
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

describe('stripe: a new card and Pay now', () => {
  let stripe: PaymentProvider;
  const SUB = 'sub_1QaBcG2eZvKYlo2C';
  beforeAll(() => {
    stripe = createStripeProvider({ secretKey: 'sk_test_123', webhookSecret: 'whsec_test_secret', apiBase: base });
  });

  it('makes the SetupIntent for the subscription’s own customer', async () => {
    routes = {
      [`GET /v1/subscriptions/${SUB}`]: answer(fixture('stripe-subscription-past-due')),
      'POST /v1/setup_intents': answer(fixture('stripe-setup-intent')),
    };
    const r = await stripe.createSubscriptionCardSetup(SUB, {
      idempotencyKey: 'card-7',
      metadata: { userId: '7', subscriptionId: '3' },
    });
    expect(r.clientSecret).toBe('seti_1QaBcD2eZvKYlo2C_secret_RkT0abcdefghijklmnopqrstuv');
    const setup = seen.find((s) => s.path === '/v1/setup_intents')!;
    expect(setup.headers['idempotency-key']).toBe('card-7:setup');
    expect(Object.fromEntries(form(setup.body))).toMatchObject({
      customer: 'cus_RkT0Yq6dEXAMPL',
      usage: 'off_session',
      'payment_method_types[0]': 'card',
      'metadata[subscriptionId]': '3',
    });
  });

  it('makes the confirmed card the subscription’s default payment method', async () => {
    routes = {
      [`POST /v1/subscriptions/${SUB}`]: answer(
        JSON.stringify({
          ...JSON.parse(fixture('stripe-subscription-past-due')),
          default_payment_method: JSON.parse(fixture('stripe-subscription')).default_payment_method,
        }),
      ),
    };
    const s = await stripe.updatePaymentMethod(SUB, 'pm_1QaBcE2eZvKYlo2CxYz', 'card-7:update');
    expect(s).toMatchObject({ status: 'past_due', paymentMethodLabel: 'Visa ending 4242' });
    expect(seen[0]!.headers['idempotency-key']).toBe('card-7:update');
    expect(form(seen[0]!.body).get('default_payment_method')).toBe('pm_1QaBcE2eZvKYlo2CxYz');
  });

  it('pays the open invoice now; the subscription is active again', async () => {
    const active = JSON.stringify({
      ...JSON.parse(fixture('stripe-subscription-past-due')),
      status: 'active',
      latest_invoice: 'in_1QaDun2eZvKYlo2C',
    });
    routes = {
      [`GET /v1/subscriptions/${SUB}`]: { bodies: [fixture('stripe-subscription-past-due'), active] },
      'POST /v1/invoices/in_1QaDun2eZvKYlo2C/pay': answer(fixture('stripe-invoice-paid')),
    };
    const r = await stripe.retryPayment(SUB, 'pay-now-7');
    expect(r).toMatchObject({ paid: true, state: { status: 'active', priceCents: 2900 } });
    expect(decodeURIComponent(seen[0]!.path)).toBe(`/v1/subscriptions/${SUB}?expand[0]=latest_invoice`);
    const pay = seen.find((s) => s.path === '/v1/invoices/in_1QaDun2eZvKYlo2C/pay')!;
    expect(pay.method).toBe('POST');
    expect(pay.headers['idempotency-key']).toBe('pay-now-7');
    expect(form(pay.body).get('off_session')).toBe('true');
  });

  it('answers a decline in Stripe’s words and stays past due', async () => {
    routes = {
      [`GET /v1/subscriptions/${SUB}`]: answer(fixture('stripe-subscription-past-due')),
      'POST /v1/invoices/in_1QaDun2eZvKYlo2C/pay': answer(fixture('stripe-card-declined'), 402),
    };
    const r = await stripe.retryPayment(SUB, 'pay-now-8');
    expect(r).toMatchObject({ paid: false, failureMessage: 'Your card was declined.', state: { status: 'past_due' } });
  });

  it('reads the retry schedule from the failed invoice event', async () => {
    const payload = JSON.stringify({
      id: 'evt_1QaDunFail',
      object: 'event',
      type: 'invoice.payment_failed',
      data: { object: JSON.parse(fixture('stripe-invoice-payment-failed')) },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_test_secret' });
    const event = await stripe.verifyWebhook(Buffer.from(payload), { 'stripe-signature': header });
    expect(event).toEqual({
      id: 'evt_1QaDunFail',
      type: 'invoice.payment_failed',
      invoice: {
        ref: 'in_1QaDun2eZvKYlo2C',
        subscriptionRef: SUB,
        amountCents: 2900,
        periodStart: new Date(1790604802 * 1000),
        periodEnd: new Date(1793196802 * 1000),
        billingReason: 'subscription_cycle',
        attemptCount: 2,
        nextAttemptAt: new Date(1791036802 * 1000),
      },
    });
    // the last attempt: Stripe has no next one
    const last = JSON.stringify({
      id: 'evt_1QaDunLast',
      object: 'event',
      type: 'invoice.payment_failed',
      data: {
        object: {
          ...JSON.parse(fixture('stripe-invoice-payment-failed')),
          attempt_count: 4,
          next_payment_attempt: null,
        },
      },
    });
    const e2 = await stripe.verifyWebhook(Buffer.from(last), {
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: last, secret: 'whsec_test_secret' }),
    });
    expect(e2).toMatchObject({ type: 'invoice.payment_failed', invoice: { attemptCount: 4, nextAttemptAt: null } });
  });
});

describe('paypal: the funding source and the outstanding balance', () => {
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
  const token = { 'POST /v1/oauth2/token': answer(fixture('paypal-token')) };

  it('captures the outstanding balance with PayPal-Request-Id', async () => {
    const settled = JSON.stringify({
      ...JSON.parse(fixture('paypal-subscription-past-due')),
      billing_info: { ...JSON.parse(fixture('paypal-subscription')).billing_info },
    });
    routes = {
      ...token,
      'GET /v1/billing/subscriptions/I-BW452GLLEP1G': { bodies: [fixture('paypal-subscription-past-due'), settled] },
      'POST /v1/billing/subscriptions/I-BW452GLLEP1G/capture': answer('', 202),
    };
    const r = await paypal.retryPayment('I-BW452GLLEP1G', 'pay-now-9');
    expect(r).toMatchObject({ paid: true, state: { ref: 'I-BW452GLLEP1G', status: 'active', priceCents: 2900 } });
    const capture = seen.find((s) => s.path.endsWith('/capture'))!;
    expect(capture.headers['paypal-request-id']).toBe('pay-now-9');
    expect(JSON.parse(capture.body)).toEqual({
      note: 'Membership payment due',
      capture_type: 'OUTSTANDING_BALANCE',
      amount: { currency_code: 'USD', value: '29.00' },
    });
  });

  it('answers PayPal’s decline when the funding source still fails', async () => {
    routes = {
      ...token,
      'GET /v1/billing/subscriptions/I-BW452GLLEP1G': answer(fixture('paypal-subscription-past-due')),
      'POST /v1/billing/subscriptions/I-BW452GLLEP1G/capture': answer(
        JSON.stringify({
          name: 'UNPROCESSABLE_ENTITY',
          details: [{ issue: 'INSTRUMENT_DECLINED', description: 'The instrument presented was declined.' }],
        }),
        422,
      ),
    };
    const r = await paypal.retryPayment('I-BW452GLLEP1G', 'pay-now-10');
    expect(r).toMatchObject({
      paid: false,
      failureMessage: 'PayPal declined this payment. Please choose another way to pay.',
    });
  });

  it('sends the subscriber to PayPal’s automatic payments page, of the sandbox or the live site', async () => {
    expect(await paypal.fundingFixUrl('I-BW452GLLEP1G')).toBe('https://www.paypal.com/myaccount/autopay/');
    const sandboxed = createPaypalProvider({
      clientId: 'a',
      clientSecret: 'b',
      webhookId: 'c',
      apiBase: 'https://api-m.sandbox.paypal.com',
    });
    expect(await sandboxed.fundingFixUrl('I-BW452GLLEP1G')).toBe('https://www.sandbox.paypal.com/myaccount/autopay/');
    await expect(paypal.updatePaymentMethod('I-BW452GLLEP1G', 'pm_x', 'k')).rejects.toMatchObject({
      code: 'unsupported',
    });
  });
});
