/* eslint-disable max-lines -- every provider event the webhooks handle, in order and out of order, sharing the signed-event helpers at its top */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookEvents, webhookFailures } from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { WEBHOOK_RETRY_MESSAGES, type AdminWebhookFailureRow } from '#shared/admin-commerce';
import { signSandboxPayload } from './sandbox/index.ts';
import { WEBHOOK_MESSAGES } from './routes.ts';

// A provider retries every delivery we do not accept, for days. So: a signed event we cannot read is a
// 400 (retrying the same bytes cannot help) and is kept for admins; an event that fails while being
// applied keeps its error status (the retry may well succeed) and is kept too; a bad signature is a 400
// and is kept nowhere (anyone can send one).

const fixture = (name: string) =>
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', `${name}.json`), 'utf8');

const failures = (t: TestApp) => t.app.deps.db.select().from(webhookFailures).orderBy(webhookFailures.id);
const applied = async (t: TestApp, eventId: string) =>
  (await t.app.deps.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, eventId))).length;

describe('sandbox webhooks', () => {
  let t: TestApp;
  let admin: TestClient;
  const secret = 'whsec_sandbox_test';
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.signedIn({ role: 'admin' })).client;
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.app.deps.db.delete(webhookFailures);
  });

  const send = (body: string | Buffer, signature = signSandboxPayload(secret, Buffer.from(body).toString('utf8'))) =>
    t.app.inject({
      method: 'POST',
      url: '/webhooks/sandbox',
      payload: body,
      headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
    });

  it('a signed event without its object: 400 that says what is missing, recorded (id, type, outline, no values), not applied', async () => {
    const body = JSON.stringify({
      id: 'evt_no_charge',
      type: 'charge.succeeded',
      created: 1764000000,
      note: 'ann@example.com',
    });
    const res = await send(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: WEBHOOK_MESSAGES.malformed('charge is missing') });
    const [row] = await failures(t);
    expect(row).toMatchObject({
      provider: 'sandbox',
      eventId: 'evt_no_charge',
      eventType: 'charge.succeeded',
      kind: 'rejected',
      reason: 'charge is missing',
      outline: '{id, type, created, note}',
      deliveries: 1,
      resolvedAt: null,
    });
    // the outline keeps keys, never values (events carry names and emails)
    expect(JSON.stringify(row)).not.toContain('ann@example.com');
    expect(await applied(t, 'evt_no_charge')).toBe(0);
  });

  it('each shape problem is named by its path', async () => {
    const cases: Array<[object, string]> = [
      [
        { id: 'evt_a', type: 'charge.refunded', charge: { ref: 'ch_1', amountCents: 'ten', metadata: {} } },
        'charge.amountCents is not a number',
      ],
      [
        {
          id: 'evt_b',
          type: 'invoice.paid',
          invoice: {
            ref: 'in_1',
            subscriptionRef: 'sub_1',
            amountCents: 100,
            periodStart: 'yesterday',
            periodEnd: new Date().toISOString(),
          },
        },
        'invoice.periodStart: not a date',
      ],
      [
        { id: 'evt_c', type: 'subscription.updated', subscription: { ref: 'sub_1' } },
        'subscription.status: Status is required.',
      ],
      [{ type: 'charge.succeeded' }, 'id is missing'],
      [[1, 2, 3], 'the event is not an object'],
    ];
    for (const [event, reason] of cases) {
      const res = await send(JSON.stringify(event));
      expect(res.statusCode, JSON.stringify(event)).toBe(400);
      expect((res.json() as { message: string }).message).toBe(WEBHOOK_MESSAGES.malformed(reason));
    }
    expect((await failures(t)).map((r) => [r.eventId, r.reason])).toEqual(
      cases.map(([e, reason]) => [(e as { id?: string }).id ?? null, reason]),
    );
  });

  it('a signed body that is not JSON, or not UTF-8, is a 400 recorded without an id', async () => {
    expect((await send('{"id": "evt_cut", "type": "charge.succ')).json()).toEqual({
      message: WEBHOOK_MESSAGES.malformed('the body is not JSON'),
    });
    const latin1 = Buffer.concat([
      Buffer.from('{"id":"evt_latin1","type":"charge.succeeded","note":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    // the sandbox signs text: the signature over the bytes read as UTF-8 is still good
    const res = await send(latin1, signSandboxPayload(secret, latin1.toString('utf8')));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: WEBHOOK_MESSAGES.malformed('the body is not UTF-8 text') });
    expect((await failures(t)).map((r) => [r.eventId, r.kind, r.reason])).toEqual([
      [null, 'rejected', 'the body is not JSON'],
      [null, 'rejected', 'the body is not UTF-8 text'],
    ]);
  });

  it('the provider retrying the same malformed event counts deliveries on one row', async () => {
    const body = JSON.stringify({ id: 'evt_retry', type: 'invoice.paid' });
    for (let i = 0; i < 3; i++) expect((await send(body)).statusCode).toBe(400);
    expect((await failures(t)).map((r) => [r.eventId, r.deliveries])).toEqual([['evt_retry', 3]]);
  });

  it('a bad, stale or missing signature stays a 400 and is recorded nowhere', async () => {
    const body = JSON.stringify({ id: 'evt_forged_shape', type: 'charge.succeeded' });
    for (const signature of [
      signSandboxPayload('wrong', body),
      signSandboxPayload(secret, body, Math.floor(Date.now() / 1000) - 3600),
      'garbage',
      '',
    ]) {
      const res = await send(body, signature);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: WEBHOOK_MESSAGES.badSignature });
    }
    expect(await failures(t)).toEqual([]);
  });

  it('an event that fails while being applied: 500 so the provider retries, recorded with the error; the retry that applies it resolves the row', async () => {
    const remove = t.app.deps.services.payments.registerOwner({
      orderKind: 'test-exploding',
      subscriptionEvent: async () => {
        throw new Error('relation "instalment_plans" is being rebuilt; try again');
      },
    });
    const body = JSON.stringify({
      id: 'evt_apply_fails',
      type: 'invoice.paid',
      invoice: {
        ref: 'in_x',
        subscriptionRef: 'sub_nobody',
        amountCents: 100,
        periodStart: new Date().toISOString(),
        periodEnd: new Date().toISOString(),
      },
    });
    const res = await send(body);
    expect(res.statusCode).toBe(500);
    expect((res.json() as { message: string }).message).toMatch(/^Something went wrong on our side/);
    expect(await failures(t)).toMatchObject([
      {
        eventId: 'evt_apply_fails',
        eventType: 'invoice.paid',
        kind: 'failed',
        reason: 'relation "instalment_plans" is being rebuilt; try again',
        resolvedAt: null,
      },
    ]);
    expect(await applied(t, 'evt_apply_fails')).toBe(0);

    remove();
    expect((await send(body)).json()).toEqual({ received: true, result: 'applied' });
    const [row] = await failures(t);
    expect(row!.resolvedAt).toBeInstanceOf(Date);
  });

  it('valid events still apply; unknown types are still accepted and ignored', async () => {
    expect(
      (
        await send(JSON.stringify({ id: 'evt_unknown_type', type: 'customer.created', customer: { id: 'cus_1' } }))
      ).json(),
    ).toEqual({ received: true, result: 'ignored' });
    expect(
      (
        await send(
          JSON.stringify({
            id: 'evt_refund_nobody',
            type: 'charge.refunded',
            charge: { ref: 'ch_nobody', amountCents: 100, metadata: {} },
          }),
        )
      ).json(),
    ).toEqual({ received: true, result: 'applied' });
    expect(await failures(t)).toEqual([]);
  });

  it('admins list them (newest delivery first, filters, search); members may not', async () => {
    await send(JSON.stringify({ id: 'evt_list_1', type: 'charge.succeeded' }));
    await send(JSON.stringify({ id: 'evt_list_2', type: 'invoice.paid' }));
    await send('not json');
    const all = (await admin.get('/api/admin/webhook-failures')).json() as {
      data: AdminWebhookFailureRow[];
      total: number;
      sort: string;
      dir: string;
    };
    expect(all).toMatchObject({ total: 3, sort: 'last_at', dir: 'desc' });
    expect(all.data.map((r) => r.event_id)).toEqual([null, 'evt_list_2', 'evt_list_1']);
    expect(all.data[1]).toMatchObject({
      provider: 'sandbox',
      event_type: 'invoice.paid',
      kind: 'rejected',
      reason: 'invoice is missing',
      outline: '{id, type}',
      deliveries: 1,
      resolved_at: null,
    });
    const searched = (
      await admin.get('/api/admin/webhook-failures?q=invoice&kind=rejected&state=open&provider=sandbox')
    ).json() as { data: AdminWebhookFailureRow[] };
    expect(searched.data.map((r) => r.event_id)).toEqual(['evt_list_2']);
    expect((await admin.get('/api/admin/webhook-failures?state=resolved')).json()).toMatchObject({ total: 0 });
    const member = (await t.signedIn({ entitlements: ['membership'] })).client;
    expect((await member.get('/api/admin/webhook-failures')).statusCode).toBe(403);
  });
});

describe('Stripe and PayPal webhooks', () => {
  let t: TestApp;
  let server: Server;
  let paypalVerification = 'SUCCESS';
  let paypalSubscriptionStatus = 200;
  const paypalEvents = new Map<string, string>();
  const whsec = 'whsec_webhook_test';

  beforeAll(async () => {
    // PayPal's API as far as webhooks use it: a token, the signature check, the subscription read
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const url = req.url ?? '';
        res.setHeader('content-type', 'application/json');
        if (url === '/v1/oauth2/token') return res.end(fixture('paypal-token'));
        if (url === '/v1/notifications/verify-webhook-signature')
          return res.end(JSON.stringify({ verification_status: paypalVerification }));
        // PayPal's copy of the events it sent, read again by an admin's retry
        const sent = paypalEvents.get(decodeURIComponent(url.replace('/v1/notifications/webhooks-events/', '')));
        if (url.startsWith('/v1/notifications/webhooks-events/') && sent) return res.end(sent);
        if (url.startsWith('/v1/billing/subscriptions/')) {
          res.statusCode = paypalSubscriptionStatus;
          return res.end(
            paypalSubscriptionStatus === 200
              ? fixture('paypal-subscription')
              : JSON.stringify({ name: 'INTERNAL_SERVICE_ERROR', message: 'An internal service error has occurred.' }),
          );
        }
        res.statusCode = 404;
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const defaults = (await import('#server/config')).loadConfig({ NODE_ENV: 'test' }, []).payments;
    t = await createTestApp({
      payments: {
        ...defaults,
        card: 'stripe',
        paypal: 'paypal',
        stripe: {
          secretKey: 'sk_test_webhooks',
          publishableKey: 'pk_test_webhooks',
          webhookSecret: whsec,
          apiBase: base,
        },
        paypalApi: { clientId: 'client', clientSecret: 'secret', webhookId: 'WH-1', apiBase: base },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(async () => {
    await t.app.deps.db.delete(webhookFailures);
    paypalVerification = 'SUCCESS';
    paypalSubscriptionStatus = 200;
  });

  const stripe = (payload: string, secret = whsec) =>
    t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
      },
    });
  const paypalHeaders = {
    'content-type': 'application/json',
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.paypal.com/certs/1',
    'paypal-transmission-id': 'tid',
    'paypal-transmission-sig': 'sig==',
    'paypal-transmission-time': '2026-11-26T10:00:00Z',
  };
  const paypal = (payload: string) => {
    const id = (JSON.parse(payload) as { id?: string }).id;
    if (id) paypalEvents.set(id, payload);
    return t.app.inject({ method: 'POST', url: '/webhooks/paypal', payload, headers: paypalHeaders });
  };

  it('Stripe: a signed event with no data.object is a 400 that says so, recorded', async () => {
    const res = await stripe(
      JSON.stringify({ id: 'evt_1QnoObject', object: 'event', type: 'payment_intent.succeeded', data: {} }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: WEBHOOK_MESSAGES.malformed('data.object is missing') });
    expect(await failures(t)).toMatchObject([
      {
        provider: 'stripe',
        eventId: 'evt_1QnoObject',
        eventType: 'payment_intent.succeeded',
        kind: 'rejected',
        outline: '{id, object, type, data: {}}',
      },
    ]);
  });

  it('Stripe: objects missing what their type needs, and bodies that are not JSON, are 400s', async () => {
    const intent = JSON.parse(fixture('stripe-payment-intent')) as Record<string, unknown>;
    const sub = JSON.parse(fixture('stripe-subscription')) as Record<string, unknown>;
    const cases: Array<[string, string]> = [
      [
        JSON.stringify({
          id: 'evt_2',
          object: 'event',
          type: 'payment_intent.succeeded',
          data: { object: { ...intent, amount: undefined } },
        }),
        'data.object.amount is missing',
      ],
      [
        JSON.stringify({
          id: 'evt_3',
          object: 'event',
          type: 'customer.subscription.updated',
          data: { object: { ...sub, items: null } },
        }),
        'data.object.items is not an object',
      ],
      [
        JSON.stringify({
          id: 'evt_4',
          object: 'event',
          type: 'invoice.paid',
          data: { object: { id: 'in_1', subscription: 'sub_1', amount_due: 100, period_start: 1, period_end: 2 } },
        }),
        'data.object.amount_paid is missing',
      ],
      [JSON.stringify({ id: 'evt_5', object: 'event', type: 'charge.refunded' }), 'data is missing'],
      ['{"id": "evt_6", "type": ', 'the body is not JSON'],
    ];
    for (const [payload, reason] of cases) {
      const res = await stripe(payload);
      expect(res.statusCode, payload).toBe(400);
      expect((res.json() as { message: string }).message).toBe(WEBHOOK_MESSAGES.malformed(reason));
    }
    expect((await failures(t)).map((r) => r.reason)).toEqual(cases.map(([, reason]) => reason));
  });

  it('Stripe: a well-formed event still applies; an unknown type is accepted and ignored', async () => {
    const ok = await stripe(
      JSON.stringify({
        id: 'evt_ok',
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: JSON.parse(fixture('stripe-payment-intent')) },
      }),
    );
    expect(ok.json()).toEqual({ received: true, result: 'applied' });
    const unknown = await stripe(
      JSON.stringify({
        id: 'evt_unknown',
        object: 'event',
        type: 'customer.tax_id.created',
        data: { object: { id: 'txi_1' } },
      }),
    );
    expect(unknown.json()).toEqual({ received: true, result: 'ignored' });
    expect(await failures(t)).toEqual([]);
  });

  it('Stripe: a bad signature stays a 400 and is not recorded, whatever the body', async () => {
    const res = await stripe(
      JSON.stringify({ id: 'evt_forged', object: 'event', type: 'payment_intent.succeeded', data: {} }),
      'whsec_someone_else',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: WEBHOOK_MESSAGES.badSignature });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: 'not even json',
      headers: { 'content-type': 'text/plain' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await failures(t)).toEqual([]);
  });

  it('PayPal: a verified event without resource, or a capture without its amount, is a 400 recorded', async () => {
    const capture = JSON.parse(fixture('paypal-webhook-capture-completed')) as { resource: Record<string, unknown> };
    const noResource = await paypal(
      JSON.stringify({
        id: 'WH-NO-RESOURCE',
        event_type: 'PAYMENT.CAPTURE.COMPLETED',
        resource_type: 'capture',
        summary: 'Payment completed',
      }),
    );
    expect(noResource.statusCode).toBe(400);
    expect(noResource.json()).toEqual({ message: WEBHOOK_MESSAGES.malformed('resource is missing') });
    const noAmount = await paypal(
      JSON.stringify({ ...capture, id: 'WH-NO-AMOUNT', resource: { ...capture.resource, amount: undefined } }),
    );
    expect(noAmount.json()).toEqual({ message: WEBHOOK_MESSAGES.malformed('resource.amount is missing') });
    const badAmount = await paypal(
      JSON.stringify({
        ...capture,
        id: 'WH-BAD-AMOUNT',
        resource: { ...capture.resource, amount: { currency_code: 'USD', value: 'lots' } },
      }),
    );
    expect(badAmount.json()).toEqual({ message: WEBHOOK_MESSAGES.malformed('resource.amount.value: not an amount') });
    expect((await failures(t)).map((r) => [r.provider, r.eventId, r.eventType, r.kind])).toEqual([
      ['paypal', 'WH-NO-RESOURCE', 'PAYMENT.CAPTURE.COMPLETED', 'rejected'],
      ['paypal', 'WH-NO-AMOUNT', 'PAYMENT.CAPTURE.COMPLETED', 'rejected'],
      ['paypal', 'WH-BAD-AMOUNT', 'PAYMENT.CAPTURE.COMPLETED', 'rejected'],
    ]);
  });

  it('PayPal: a failed verification stays a 400 and is not recorded; a well-formed event applies', async () => {
    paypalVerification = 'FAILURE';
    const forged = await paypal(JSON.stringify({ id: 'WH-FORGED', event_type: 'PAYMENT.CAPTURE.COMPLETED' }));
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ message: WEBHOOK_MESSAGES.badSignature });
    expect(await failures(t)).toEqual([]);
    paypalVerification = 'SUCCESS';
    expect((await paypal(fixture('paypal-webhook-capture-completed'))).json()).toEqual({
      received: true,
      result: 'applied',
    });
  });

  it('PayPal: when PayPal cannot be asked about the subscription, 502 so it retries, recorded as failed', async () => {
    paypalSubscriptionStatus = 500;
    const res = await paypal(
      JSON.stringify({
        id: 'WH-SUB-1',
        event_type: 'BILLING.SUBSCRIPTION.ACTIVATED',
        resource: { id: 'I-BW452GLLEP1G', status: 'ACTIVE' },
      }),
    );
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: WEBHOOK_MESSAGES.providerUnreachable });
    expect(await failures(t)).toMatchObject([
      {
        provider: 'paypal',
        eventId: 'WH-SUB-1',
        eventType: 'BILLING.SUBSCRIPTION.ACTIVATED',
        kind: 'failed',
        reason: 'An internal service error has occurred.',
      },
    ]);
  });

  it('an admin retries a failed delivery: read again from PayPal, applied once PayPal answers, then resolved', async () => {
    const admin = (await t.signedIn({ role: 'admin' })).client;
    paypalSubscriptionStatus = 500;
    await paypal(
      JSON.stringify({
        id: 'WH-RETRY-1',
        event_type: 'BILLING.SUBSCRIPTION.ACTIVATED',
        resource: { id: 'I-BW452GLLEP1G', status: 'ACTIVE' },
      }),
    );
    const [row] = await failures(t);
    expect(row).toMatchObject({ eventId: 'WH-RETRY-1', kind: 'failed', deliveries: 1 });
    const retry = () => admin.post(`/api/admin/webhook-failures/${row!.id}/retry`, {});
    // PayPal still failing: 502 in words, nothing applied, the failure stays open
    const down = await retry();
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toBe(WEBHOOK_RETRY_MESSAGES.providerUnreachable('PayPal'));
    expect(await applied(t, 'WH-RETRY-1')).toBe(0);
    paypalSubscriptionStatus = 200;
    const ok = await retry();
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: WEBHOOK_RETRY_MESSAGES.applied, outcome: 'applied' });
    expect(await applied(t, 'WH-RETRY-1')).toBe(1);
    expect((await failures(t))[0]!.resolvedAt).not.toBeNull();
    const again = await retry();
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(WEBHOOK_RETRY_MESSAGES.resolved);
    const audit = (await admin.get('/api/admin/audit-log?q=webhook')).json() as { data: { summary: string }[] };
    expect(audit.data.map((a) => a.summary)).toContain(`Retried webhook failure #${row!.id}: applied`);
  });

  it('a retry says why it cannot run: an event PayPal does not know, a delivery without an id, a failure that does not exist; members may not', async () => {
    const admin = (await t.signedIn({ role: 'admin' })).client;
    await t.app.deps.db.insert(webhookFailures).values([
      {
        provider: 'paypal',
        eventId: 'WH-NOT-AT-PAYPAL',
        eventType: 'PAYMENT.CAPTURE.COMPLETED',
        kind: 'failed',
        reason: 'the database was away',
      },
      { provider: 'paypal', eventId: null, eventType: null, kind: 'rejected', reason: 'the body is not JSON' },
    ]);
    const [unknown, anonymous] = await failures(t);
    const unknownRes = await admin.post(`/api/admin/webhook-failures/${unknown!.id}/retry`, {});
    expect(unknownRes.statusCode).toBe(422);
    expect(unknownRes.json().message).toBe(WEBHOOK_RETRY_MESSAGES.unknownToProvider('PayPal'));
    const anonymousRes = await admin.post(`/api/admin/webhook-failures/${anonymous!.id}/retry`, {});
    expect(anonymousRes.statusCode).toBe(422);
    expect(anonymousRes.json().message).toBe(WEBHOOK_RETRY_MESSAGES.noEventId);
    expect((await admin.post('/api/admin/webhook-failures/999999/retry', {})).statusCode).toBe(404);
    const member = (await t.signedIn({ entitlements: ['membership'] })).client;
    expect((await member.post(`/api/admin/webhook-failures/${unknown!.id}/retry`, {})).statusCode).toBe(403);
  });
});
