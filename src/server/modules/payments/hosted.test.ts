import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeProvider, mapStripeCheckoutSession, mapStripeEvent } from './stripe/index.ts';
import { createPaypalProvider } from './paypal/index.ts';
import { ProviderError } from './provider.ts';

// The hosted checkout on the Stripe adapter: the Checkout Session it asks for (mode,
// methods, absolute return addresses, metadata on the payment, the idempotency key) and how a
// session maps to a charge result. Session bodies follow Stripe's documented Checkout Session shape.

const seen: { method: string; path: string; body: string; idempotencyKey: string | undefined }[] = [];
let server: Server;
let base = '';
const session = (over: Record<string, unknown>) =>
  JSON.stringify({
    id: 'cs_test_a1',
    object: 'checkout.session',
    url: 'https://checkout.stripe.com/c/pay/cs_test_a1',
    status: 'open',
    payment_status: 'unpaid',
    amount_total: 390000,
    payment_intent: null,
    ...over,
  });

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const key = req.headers['idempotency-key'];
      seen.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        body: Buffer.concat(chunks).toString('utf8'),
        idempotencyKey: Array.isArray(key) ? key[0] : key,
      });
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_test' });
      if (req.method === 'POST') res.end(session({}));
      else
        res.end(
          session({
            status: 'complete',
            payment_status: 'paid',
            payment_intent: { id: 'pi_9', status: 'succeeded', payment_method: { type: 'klarna' } },
          }),
        );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('stripe hosted checkout', () => {
  it('creates a payment-mode Checkout Session with the financing methods, absolute return addresses and the order metadata', async () => {
    const stripe = createStripeProvider({
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_x',
      apiBase: base,
      appUrl: 'https://drums.example',
    });
    const approval = await stripe.createHostedCheckout({
      amountCents: 390000,
      description: 'Backbeat mentorship ($3,900.00)',
      successUrl: '/mentorship/checkout/complete?order=12',
      cancelUrl: '/mentorship/stripe/finance?checkout=cancelled',
      methods: 'financing',
      email: 'sam@example.test',
      idempotencyKey: 'mentorship_hosted_k1',
      metadata: { orderId: '12' },
    });
    expect(approval).toEqual({ ref: 'cs_test_a1', url: 'https://checkout.stripe.com/c/pay/cs_test_a1' });
    const call = seen.find((s) => s.method === 'POST')!;
    expect(call.path).toBe('/v1/checkout/sessions');
    expect(call.idempotencyKey).toBe('mentorship_hosted_k1');
    const body = new URLSearchParams(call.body);
    expect(body.get('mode')).toBe('payment');
    expect([0, 1, 2, 3].map((i) => body.get(`payment_method_types[${i}]`))).toEqual(['card', 'affirm', 'klarna', null]);
    expect(body.get('line_items[0][price_data][unit_amount]')).toBe('390000');
    expect(body.get('success_url')).toBe(
      'https://drums.example/mentorship/checkout/complete?order=12&session_id={CHECKOUT_SESSION_ID}',
    );
    expect(body.get('cancel_url')).toBe('https://drums.example/mentorship/stripe/finance?checkout=cancelled');
    expect(body.get('metadata[orderId]')).toBe('12');
    expect(body.get('payment_intent_data[metadata][orderId]')).toBe('12');
    expect(body.get('customer_email')).toBe('sam@example.test');
  });

  it('reads a paid session as a succeeded charge on its payment intent', async () => {
    const stripe = createStripeProvider({ secretKey: 'sk_test_123', webhookSecret: 'whsec_x', apiBase: base });
    expect(await stripe.getHostedCheckout('cs_test_a1')).toEqual({
      ref: 'pi_9',
      status: 'succeeded',
      paymentMethodLabel: 'Klarna',
    });
    expect(seen.some((s) => s.method === 'GET' && s.path.startsWith('/v1/checkout/sessions/cs_test_a1'))).toBe(true);
  });

  it('maps open and expired sessions', () => {
    const open = mapStripeCheckoutSession({
      id: 'cs_1',
      url: 'https://checkout.stripe.com/x',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 1,
      payment_intent: null,
    });
    expect(open).toMatchObject({
      ref: 'cs_1',
      status: 'requires_action',
      nextAction: { url: 'https://checkout.stripe.com/x' },
    });
    const expired = mapStripeCheckoutSession({
      id: 'cs_2',
      url: null,
      status: 'expired',
      payment_status: 'unpaid',
      amount_total: 1,
      payment_intent: 'pi_2',
    });
    expect(expired).toMatchObject({ ref: 'pi_2', status: 'failed' });
  });

  it("keeps Stripe's billing_reason on invoice events (the first invoice of a subscription)", () => {
    const e = mapStripeEvent({
      id: 'evt_1',
      type: 'invoice.paid',
      data: {
        object: {
          id: 'in_1',
          subscription: 'sub_1',
          amount_paid: 65000,
          period_start: 1,
          period_end: 2,
          billing_reason: 'subscription_create',
        },
      },
    });
    expect(e).toMatchObject({
      type: 'invoice.paid',
      invoice: { ref: 'in_1', subscriptionRef: 'sub_1', billingReason: 'subscription_create' },
    });
  });
});

it('PayPal offers no hosted card checkout', async () => {
  const paypal = createPaypalProvider({ clientId: 'x', clientSecret: 'y', webhookId: 'z', apiBase: base });
  await expect(
    paypal.createHostedCheckout({
      amountCents: 1,
      description: 'x',
      successUrl: '/',
      cancelUrl: '/',
      methods: 'card',
      idempotencyKey: 'k',
      metadata: {},
    }),
  ).rejects.toBeInstanceOf(ProviderError);
  await expect(paypal.getHostedCheckout('x')).rejects.toMatchObject({ code: 'unsupported' });
});
