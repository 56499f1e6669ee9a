/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { MENTORSHIP_CHECKOUT_MESSAGES, MENTORSHIP_MESSAGES as M } from '#shared/mentorship';
import {
  entitlements,
  instalmentPlans,
  mentorships,
  notifications,
  orders,
  sandboxObjects,
  users,
} from '#server/db/schema/index';
import { signSandboxPayload } from '#server/modules/payments/sandbox/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { MENTORSHIP_ACCESS_RULES } from './access.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let keys = 0;
const key = () => `attempt-${Date.now()}-${++keys}-mentorship`;
const db = () => t.app.deps.db;

async function mentor(name = 'Mia Mentor') {
  const admin = await t.createUser({ name, role: 'admin' });
  await db().update(users).set({ isMentor: true }).where(eq(users.id, admin.id));
  return admin;
}
/** an admin lets links offer the two lower prices ($2,600 and the $1,600 downsell), or stops them */
async function offerLowerPricesByLink(on: boolean) {
  const { client } = await t.signedIn({ role: 'admin' });
  const res = await client.request('PUT', '/api/admin/mentorship-pricing', {
    price2600: false,
    price3900: false,
    downsell: false,
    showsix: false,
    price2600ByLink: on,
    downsellByLink: on,
  });
  expect(res.statusCode).toBe(200);
}
const access = async (userId: number) =>
  (await t.app.deps.services.users.activeEntitlements(userId)).includes('mentorship');
const mentorshipOf = async (userId: number) =>
  (await db().select().from(mentorships).where(eq(mentorships.studentId, userId)))[0] ?? null;
const ordersOf = (userId: number) => db().select().from(orders).where(eq(orders.userId, userId));
const notes = (userId: number) =>
  db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.area, 'mentorship')));
const sandboxCount = async (kind: string) =>
  (await db().select().from(sandboxObjects).where(eq(sandboxObjects.kind, kind))).length;

/** the card form: a client secret, then the sandbox's "Stripe API" confirms the card */
async function paymentMethod(client: TestClient, number: string = SANDBOX_CARDS.succeeds): Promise<string> {
  const secret = await client.get('/order/stripe-client-secret');
  expect(secret.statusCode).toBe(200);
  const res = await client.post('/sandbox/setup-intents/confirm', {
    client_secret: secret.json().clientSecret,
    number,
    exp_month: 12,
    exp_year: new Date().getUTCFullYear() + 2,
    cvc: '123',
    name: 'Sam Student',
  });
  expect(res.statusCode).toBe(200);
  return res.json().payment_method as string;
}

/** the buyer on the sandbox's hosted checkout page */
async function payHosted(client: TestClient, url: string, number: string = SANDBOX_CARDS.succeeds) {
  const ref = url.split('/').pop()!;
  return client.post(
    `/sandbox/checkout/${ref}/pay`,
    {
      method: 'card',
      number,
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 2,
      cvc: '123',
      name: 'Sam Student',
    },
    { csrf: false },
  );
}

/** a signed sandbox webhook, as the sandbox (or a replaying provider) sends it */
async function sendEvent(client: TestClient, event: Record<string, unknown>) {
  const body = JSON.stringify({ created: Math.floor(Date.now() / 1000), ...event });
  const res = await client.request('POST', '/webhooks/sandbox', body, {
    csrf: false,
    headers: {
      'content-type': 'application/json',
      'sandbox-signature': signSandboxPayload(t.config.payments.sandboxWebhookSecret, body),
    },
  });
  expect(res.statusCode).toBe(200);
  return res.json().result as string;
}

describe('permissions and validation', () => {
  const paying: [string, Record<string, unknown>][] = [
    ['/mentorship/create-checkout', { price: 3200 }],
    ['/mentorship/paypal/subscription', { plan: '6' }],
    ['/mentorship/payment-plan', { agreement_id: 'I-NOPE' }],
    ['/mentorship/stripe/charge', { payment: '3200', payment_method: 'pm_x' }],
    ['/mentorship/stripe/checkout', {}],
  ];
  it.each(paying)('a visitor gets 401 from POST %s, before any validation', async (url) => {
    const visitor = await t.client();
    const res = await visitor.post(url, { nonsense: true });
    expect(res.statusCode).toBe(401);
  });

  it('422 for a price, plan or card payment that is not offered', async () => {
    const { client } = await t.signedIn();
    for (const [url, body, field] of [
      ['/mentorship/create-checkout', { price: 999 }, 'price'],
      ['/mentorship/create-checkout', { price: 'abc' }, 'price'],
      ['/mentorship/paypal/subscription', { plan: '12' }, 'plan'],
      ['/mentorship/stripe/charge', { payment: '999', payment_method: 'pm_x' }, 'payment'],
      ['/mentorship/stripe/charge', { payment: 'finance', payment_method: 'pm_x' }, 'payment'],
      ['/mentorship/stripe/charge', { payment: '3200', payment_method: '' }, 'payment_method'],
      ['/mentorship/payment-plan', { agreement_id: '' }, 'agreement_id'],
    ] as const) {
      const res = await client.post(url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(422);
      expect(res.json().errors[field]).toBeDefined();
    }
    expect(await ordersOf((await client.get('/api/me')).json().user.id)).toEqual([]);
  });

  it('the lower prices are refused until an admin offers them; the options say what links may offer', async () => {
    const { user, client } = await t.signedIn();
    for (const price of [1600, 2600]) {
      const res = await client.post('/mentorship/create-checkout', { price, idempotency_key: key() });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.price).toEqual([M.priceNotOffered]);
    }
    expect(await ordersOf(user.id)).toHaveLength(0);
    expect((await client.get('/api/mentorship/checkout/options')).json().flags).toMatchObject({
      price2600ByLink: false,
      downsellByLink: false,
    });
    await offerLowerPricesByLink(true);
    try {
      expect((await client.get('/api/mentorship/checkout/options')).json().flags).toMatchObject({
        price2600ByLink: true,
        downsellByLink: true,
      });
      expect(
        (await client.post('/mentorship/create-checkout', { price: 1600, idempotency_key: key() })).statusCode,
      ).toBe(200);
      expect((await ordersOf(user.id))[0]!.amountCents).toBe(160000);
    } finally {
      await offerLowerPricesByLink(false);
    }
  });

  it('GET /api/mentorship/checkout names the buyer and whether they already are a student', async () => {
    const visitor = await t.client();
    expect((await visitor.get('/api/mentorship/checkout')).json()).toEqual({ user: null, enrolled: false });
    const { user, client } = await t.signedIn();
    expect((await client.get('/api/mentorship/checkout')).json()).toEqual({
      user: { name: user.name, email: user.email },
      enrolled: false,
    });
    const student = await t.signedIn({ entitlements: ['mentorship'] });
    expect((await student.client.get('/api/mentorship/checkout')).json().enrolled).toBe(true);
  });

  it('GET /api/mentorship/access-rules: 401 visitor, 403 member, the rules for an admin', async () => {
    expect((await (await t.client()).get('/api/mentorship/access-rules')).statusCode).toBe(401);
    expect((await (await t.signedIn()).client.get('/api/mentorship/access-rules')).statusCode).toBe(403);
    const admin = await t.signedIn({ role: 'admin' });
    const res = await admin.client.get('/api/mentorship/access-rules');
    expect(res.statusCode).toBe(200);
    expect(res.json().rules).toEqual(MENTORSHIP_ACCESS_RULES);
    expect(res.json().rules.join(' ')).toMatch(/7 days/);
  });

  it('a student (the demo student holds the entitlement) gets 409 from every paying call and nothing is charged', async () => {
    const { user, client } = await t.signedIn({ entitlements: ['mentorship'] });
    const pm = await paymentMethod(client);
    const charges = await sandboxCount('charge');
    for (const [url, body] of [
      ['/mentorship/create-checkout', { price: 3200 }],
      ['/mentorship/paypal/subscription', { plan: '6' }],
      ['/mentorship/stripe/charge', { payment: '3200', payment_method: pm }],
      ['/mentorship/stripe/charge', { payment: '650', payment_method: pm }],
      ['/mentorship/stripe/checkout', {}],
    ] as const) {
      const res = await client.post(url, { ...body, idempotency_key: key() });
      expect(res.statusCode, url).toBe(409);
      expect(res.json().message).toBe(M.alreadyEnrolled);
    }
    expect(await ordersOf(user.id)).toEqual([]);
    expect(await sandboxCount('charge')).toBe(charges);
  });
});

describe('one-time payment on the hosted checkout', () => {
  beforeAll(async () => offerLowerPricesByLink(true));
  afterAll(async () => offerLowerPricesByLink(false));

  it('two hosted checkouts opened in two tabs and both paid: one enrolment, the second payment refunded', async () => {
    await mentor();
    const { user, client } = await t.signedIn({ name: 'Two Tabs' });
    // opening a checkout holds nothing: both tabs get one
    const urls = [];
    for (let i = 0; i < 2; i++) {
      const res = await client.post('/mentorship/create-checkout', { idempotency_key: key() });
      expect(res.statusCode).toBe(200);
      urls.push(res.json().url as string);
    }
    const first = await payHosted(client, urls[0]!);
    expect((await client.get(first.json().url)).headers.location).toBe('/mentorship');
    const second = await payHosted(client, urls[1]!);
    expect(second.statusCode).toBe(200);
    // back on the checkout, which says they are a student already
    expect((await client.get(second.json().url)).headers.location).toBe('/mentorship/checkout');
    const rows = await ordersOf(user.id);
    expect(rows.map((o) => o.status).sort()).toEqual(['paid', 'refunded']);
    const refunded = rows.find((o) => o.status === 'refunded')!;
    expect(refunded.failureMessage).toBe(M.alreadyEnrolled);
    const charges = (await db().select().from(sandboxObjects).where(eq(sandboxObjects.kind, 'charge'))).filter(
      (c) => c.data.metadata && (c.data.metadata as Record<string, string>).userId === String(user.id),
    );
    expect(charges.map((c) => c.data.refunded).sort()).toEqual([false, true]);
    expect(await db().select().from(mentorships).where(eq(mentorships.studentId, user.id))).toHaveLength(1);
    expect(await access(user.id)).toBe(true);
  });

  it('create-checkout → sandbox hosted page with 4242 → complete: paid, enrolled, a mentor assigned, both told', async () => {
    const busy = await mentor('Busy Mentor');
    const free = await mentor('Free Mentor');
    // Busy already has a student
    const other = await t.createUser();
    await db()
      .insert(mentorships)
      .values({ studentId: other.id, mentorId: busy.id, option: 'onetime', status: 'active' });

    const { user, client } = await t.signedIn({ name: 'Sam Student' });
    const res = await client.post('/mentorship/create-checkout', { idempotency_key: key() });
    expect(res.statusCode).toBe(200);
    const { url } = res.json();
    expect(url).toMatch(/^\/sandbox\/checkout\/cs_test_/);
    const [order] = await ordersOf(user.id);
    expect(order).toMatchObject({ kind: 'mentorship', productSlug: 'onetime', amountCents: 320000, status: 'pending' });

    const info = await client.get(`/sandbox/checkout-sessions/${url.split('/').pop()}`);
    expect(info.json()).toMatchObject({ amountCents: 320000, methods: 'card', status: 'open' });

    // the webhook (charge.succeeded) arrives while the buyer is still on the provider's page
    const paid = await payHosted(client, url);
    expect(paid.statusCode).toBe(200);
    expect(paid.json().url).toMatch(
      new RegExp(`^/mentorship/checkout/complete\\?order=${order!.id}&session_id=cs_test_`),
    );
    expect(await access(user.id)).toBe(true);

    const back = await client.get(paid.json().url);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/mentorship');
    const again = await client.get(paid.json().url);
    expect(again.headers.location).toBe('/mentorship');

    expect((await ordersOf(user.id))[0]).toMatchObject({ status: 'paid' });
    const m = await mentorshipOf(user.id);
    expect(m).toMatchObject({ option: 'onetime', orderId: order!.id, status: 'active', mentorId: free.id });
    const studentNotes = await notes(user.id);
    expect(studentNotes).toHaveLength(1);
    expect(studentNotes[0]!.body).toContain('Free Mentor');
    expect(studentNotes[0]!.url).toBe('/mentorship');
    const mentorNotes = await notes(free.id);
    expect(mentorNotes).toHaveLength(1);
    expect(mentorNotes[0]!.body).toContain('Sam Student');
    // one entitlement row, whatever the repeats
    expect(
      await db()
        .select()
        .from(entitlements)
        .where(and(eq(entitlements.userId, user.id), eq(entitlements.kind, 'mentorship'))),
    ).toHaveLength(1);
    // enrolled: a second purchase is refused
    const second = await client.post('/mentorship/create-checkout', { price: 3200, idempotency_key: key() });
    expect(second.statusCode).toBe(409);
  });

  it('the return before the webhook: complete verifies with the provider; the late webhook and its replays change nothing', async () => {
    await mentor();
    const sandbox = t.app.deps.services.payments.sandbox!;
    const { user, client } = await t.signedIn();
    const { url } = (await client.post('/mentorship/create-checkout', { price: 2600, idempotency_key: key() })).json();
    const [order] = await ordersOf(user.id);
    expect(order!.amountCents).toBe(260000);
    expect(order!.productSlug).toBe('onetime2600');
    // hold the sandbox's webhooks back
    const held: { raw: Buffer; headers: Record<string, string> }[] = [];
    sandbox.setDeliverer(async (raw, headers) => void held.push({ raw, headers }));
    let paid;
    try {
      paid = await payHosted(client, url);
    } finally {
      const { receiveWebhook } = await import('#server/modules/payments/routes');
      sandbox.setDeliverer(async (raw, headers) => void (await receiveWebhook(t.app, 'sandbox', raw, headers)));
    }
    expect(await access(user.id)).toBe(false);
    const back = await client.get(paid.json().url);
    expect(back.headers.location).toBe('/mentorship');
    expect(await access(user.id)).toBe(true);
    const notesBefore = (await notes(user.id)).length;
    // now the webhook, twice
    expect(held).toHaveLength(1);
    const body = JSON.parse(held[0]!.raw.toString());
    expect(body.type).toBe('charge.succeeded');
    expect(await sendEvent(client, body)).toBe('applied');
    expect(await sendEvent(client, body)).toBe('duplicate');
    expect(await notes(user.id)).toHaveLength(notesBefore);
    expect(await ordersOf(user.id)).toHaveLength(1);
    expect((await mentorshipOf(user.id))!.status).toBe('active');
  });

  it('a declined card on the hosted page is refused with the provider message; cancel returns to the checkout', async () => {
    const { user, client } = await t.signedIn();
    const { url } = (await client.post('/mentorship/create-checkout', { price: 1600, idempotency_key: key() })).json();
    const declined = await payHosted(client, url, SANDBOX_CARDS.declined);
    expect(declined.statusCode).toBe(402);
    expect(declined.json().error.message).toBe(COMMERCE_MESSAGES.cardDeclined);
    const ref = url.split('/').pop();
    const cancel = await client.post(`/sandbox/checkout/${ref}/cancel`, {}, { csrf: false });
    expect(cancel.json().url).toMatch(/^\/mentorship\/checkout\?checkout=cancelled/);
    const [order] = await ordersOf(user.id);
    const back = await client.get(`/mentorship/checkout/complete?order=${order!.id}`);
    expect(back.headers.location).toBe('/mentorship/checkout?checkout=failed');
    expect(await access(user.id)).toBe(false);
    // someone else's order is not found; a visitor is sent to sign in
    const stranger = await t.signedIn();
    expect((await stranger.client.get(`/mentorship/checkout/complete?order=${order!.id}`)).statusCode).toBe(404);
    const visitor = await t.client();
    const v = await visitor.get(`/mentorship/checkout/complete?order=${order!.id}`);
    expect(v.statusCode).toBe(303);
    expect(v.headers.location).toBe(
      `/login?to=${encodeURIComponent(`/mentorship/checkout/complete?order=${order!.id}`)}`,
    );
  });

  it('a double submit is one order and one checkout', async () => {
    const { user, client } = await t.signedIn();
    const k = key();
    const [a, b] = await Promise.all([
      client.post('/mentorship/create-checkout', { price: 3900, idempotency_key: k }),
      client.post('/mentorship/create-checkout', { price: 3900, idempotency_key: k }),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().url).toBe(b.json().url);
    expect(await ordersOf(user.id)).toHaveLength(1);
  });

  it('the financing option: POST /mentorship/stripe/checkout opens a 3,900 financing checkout; "Pay over time" pays it', async () => {
    await mentor();
    const { user, client } = await t.signedIn();
    const res = await client.post('/mentorship/stripe/checkout', { idempotency_key: key() });
    expect(res.statusCode).toBe(200);
    const ref = res.json().url.split('/').pop();
    expect((await client.get(`/sandbox/checkout-sessions/${ref}`)).json()).toMatchObject({
      amountCents: 390000,
      methods: 'financing',
    });
    const paid = await client.post(`/sandbox/checkout/${ref}/pay`, { method: 'financing' }, { csrf: false });
    expect(paid.statusCode).toBe(200);
    expect((await client.get(paid.json().url)).headers.location).toBe('/mentorship');
    expect(await mentorshipOf(user.id)).toMatchObject({ option: 'finance', status: 'active' });
    // a card-only checkout has no financing
    const other = await t.signedIn();
    const card = (await other.client.post('/mentorship/create-checkout', { idempotency_key: key() }))
      .json()
      .url.split('/')
      .pop();
    expect(
      (await other.client.post(`/sandbox/checkout/${card}/pay`, { method: 'financing' }, { csrf: false })).statusCode,
    ).toBe(402);
  });
});

describe('card checkout: POST /mentorship/stripe/charge', () => {
  it('3200 charges once; a double submit of the same card is one order and one charge', async () => {
    await mentor();
    const { user, client } = await t.signedIn();
    const pm = await paymentMethod(client);
    const charges = await sandboxCount('charge');
    const [a, b] = await Promise.all([
      client.post('/mentorship/stripe/charge', { payment: '3200', payment_method: pm }),
      client.post('/mentorship/stripe/charge', { payment: '3200', payment_method: pm }),
    ]);
    expect(a.json()).toEqual({ url: '/mentorship' });
    expect(b.json()).toEqual({ url: '/mentorship' });
    expect(await sandboxCount('charge')).toBe(charges + 1);
    const rows = await ordersOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ productSlug: 'card3200', amountCents: 320000, status: 'paid' });
    expect(await access(user.id)).toBe(true);
    // the page reloaded: the same answer, no charge
    expect((await client.post('/mentorship/stripe/charge', { payment: '3200', payment_method: pm })).json()).toEqual({
      url: '/mentorship',
    });
    expect(await sandboxCount('charge')).toBe(charges + 1);
  });

  it('2700 charges the Black Friday price', async () => {
    const { user, client } = await t.signedIn();
    const pm = await paymentMethod(client);
    expect((await client.post('/mentorship/stripe/charge', { payment: '2700', payment_method: pm })).statusCode).toBe(
      200,
    );
    expect((await ordersOf(user.id))[0]).toMatchObject({
      productSlug: 'card2700',
      amountCents: 270000,
      status: 'paid',
    });
  });

  it('a card declined at the charge: 402 with the provider message under card, nothing granted', async () => {
    for (const payment of ['3200', '1300'] as const) {
      const { user, client } = await t.signedIn();
      const pm = await paymentMethod(client, SANDBOX_CARDS.failsLater);
      const res = await client.post('/mentorship/stripe/charge', { payment, payment_method: pm });
      expect(res.statusCode, payment).toBe(402);
      expect(res.json().errors.card).toEqual([COMMERCE_MESSAGES.cardDeclined]);
      expect(await access(user.id)).toBe(false);
      expect((await ordersOf(user.id))[0]!.status).toBe('failed');
      // another card works
      const good = await paymentMethod(client);
      expect((await client.post('/mentorship/stripe/charge', { payment, payment_method: good })).json()).toEqual({
        url: '/mentorship',
      });
      expect(await access(user.id)).toBe(true);
    }
  });

  it('a card that still needs authentication answers the 3-D Secure step, then charges after it', async () => {
    const { user, client } = await t.signedIn();
    const secret = (await client.get('/order/stripe-client-secret')).json().clientSecret;
    const confirm = await client.post('/sandbox/setup-intents/confirm', {
      client_secret: secret,
      number: SANDBOX_CARDS.needsAuthentication,
      exp_month: 12,
      exp_year: 2040,
      cvc: '123',
    });
    const pm = confirm.json().payment_method;
    const first = await client.post('/mentorship/stripe/charge', { payment: '3200', payment_method: pm });
    expect(first.json()).toEqual({ requires_action: true, url: `/sandbox/authenticate/${pm}` });
    await client.post(`/sandbox/authenticate/${pm}`, { outcome: 'complete' }, { csrf: false });
    expect((await client.post('/mentorship/stripe/charge', { payment: '3200', payment_method: pm })).json()).toEqual({
      url: '/mentorship',
    });
    expect(await access(user.id)).toBe(true);
    expect(await ordersOf(user.id)).toHaveLength(1);
  });
});

describe('PayPal instalments', () => {
  it('subscription → approval → payment-plan: plan 1 of 6, enrolled; repeats change nothing; someone else cannot claim it', async () => {
    await mentor();
    const { user, client } = await t.signedIn();
    const res = await client.post('/mentorship/paypal/subscription', { plan: '6', idempotency_key: key() });
    expect(res.statusCode).toBe(200);
    const ref = res.json().url.split('/').pop();
    expect(res.json().url).toBe(`/sandbox/paypal/approve/${ref}`);
    // not approved yet
    const early = await client.post('/mentorship/payment-plan', { agreement_id: ref });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(MENTORSHIP_CHECKOUT_MESSAGES.notApproved);
    const approved = await client.post(`/sandbox/paypal/approve/${ref}`, {}, { csrf: false });
    const back = new URL(approved.json().url, 'http://x');
    expect(back.pathname).toBe('/mentorship/checkout');
    expect(back.searchParams.get('plan')).toBe('6');
    expect(back.searchParams.get('subscription_id')).toBe(ref);
    const stranger = await t.signedIn();
    expect((await stranger.client.post('/mentorship/payment-plan', { agreement_id: ref })).statusCode).toBe(404);
    const body = {
      contact_name: 'Sam',
      contact_email: 'sam@example.test',
      name: 'Sam',
      email: 'sam@example.test',
      agreement_id: ref,
    };
    const plan = await client.post('/mentorship/payment-plan', body);
    expect(plan.statusCode).toBe(200);
    expect(plan.json()).toEqual({ url: '/mentorship' });
    expect((await client.post('/mentorship/payment-plan', body)).json()).toEqual({ url: '/mentorship' });
    const plans = await db().select().from(instalmentPlans).where(eq(instalmentPlans.userId, user.id));
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({
      option: '6',
      instalmentsPaid: 1,
      instalmentsTotal: 6,
      amountCents: 65000,
      status: 'active',
      providerRef: ref,
    });
    expect(await mentorshipOf(user.id)).toMatchObject({ option: '6', status: 'active' });
    expect(await access(user.id)).toBe(true);
    expect((await ordersOf(user.id))[0]).toMatchObject({ status: 'paid', amountCents: 65000 });
  });

  it('enrolled meanwhile: payment-plan answers 409, cancels the PayPal subscription and refunds its first payment', async () => {
    const { client } = await t.signedIn();
    const ref = (await client.post('/mentorship/paypal/subscription', { plan: '3', idempotency_key: key() }))
      .json()
      .url.split('/')
      .pop();
    await client.post(`/sandbox/paypal/approve/${ref}`, {}, { csrf: false });
    // paid in full in another tab
    const pm = await paymentMethod(client);
    expect((await client.post('/mentorship/stripe/charge', { payment: '3200', payment_method: pm })).statusCode).toBe(
      200,
    );
    const res = await client.post('/mentorship/payment-plan', { agreement_id: ref });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(M.alreadyEnrolled);
    const [sub] = await db().select().from(sandboxObjects).where(eq(sandboxObjects.id, ref));
    expect((sub!.data as { status: string }).status).toBe('canceled');
    // the first instalment PayPal took on approval goes back: one payment for one mentorship
    const firstCharge = (sub!.data as { firstCharge: string }).firstCharge;
    const [charge] = await db().select().from(sandboxObjects).where(eq(sandboxObjects.id, firstCharge));
    expect(charge!.data).toMatchObject({ amountCents: 1200_00, refunded: true });
  });

  it('a PayPal double submit is one order with one approval address', async () => {
    const { user, client } = await t.signedIn();
    const k = key();
    const [a, b] = await Promise.all([
      client.post('/mentorship/paypal/subscription', { plan: '3', idempotency_key: k }),
      client.post('/mentorship/paypal/subscription', { plan: '3', idempotency_key: k }),
    ]);
    expect(a.json().url).toBe(b.json().url);
    expect(await ordersOf(user.id)).toHaveLength(1);
  });
});

describe('webhooks: replays and out-of-order events of an instalment plan', () => {
  it('an invoice paid before its failure: counted once, the late failure ignored, replays duplicate', async () => {
    const { user, client } = await t.signedIn();
    const pm = await paymentMethod(client);
    expect((await client.post('/mentorship/stripe/charge', { payment: '1300', payment_method: pm })).statusCode).toBe(
      200,
    );
    const [plan] = await db().select().from(instalmentPlans).where(eq(instalmentPlans.userId, user.id));
    expect(plan).toMatchObject({ option: 'card1300', instalmentsPaid: 1, instalmentsTotal: 3, status: 'active' });
    const invoice = {
      ref: 'in_ooo_1',
      subscriptionRef: plan!.providerRef,
      amountCents: 130000,
      periodStart: new Date().toISOString(),
      periodEnd: new Date(Date.now() + 30 * 86400_000).toISOString(),
    };
    expect(await sendEvent(client, { id: 'evt_ooo_paid', type: 'invoice.paid', invoice })).toBe('applied');
    expect(await sendEvent(client, { id: 'evt_ooo_failed', type: 'invoice.payment_failed', invoice })).toBe('applied');
    expect(await sendEvent(client, { id: 'evt_ooo_paid', type: 'invoice.paid', invoice })).toBe('duplicate');
    // the same invoice sent again under another event id (a provider resend) is still one payment
    expect(await sendEvent(client, { id: 'evt_ooo_paid_again', type: 'invoice.paid', invoice })).toBe('applied');
    const [after] = await db().select().from(instalmentPlans).where(eq(instalmentPlans.id, plan!.id));
    expect(after).toMatchObject({ instalmentsPaid: 2, status: 'active', pastDueSince: null });
    expect((await notes(user.id)).filter((n) => n.body.includes('could not collect'))).toHaveLength(0);
    // Stripe's first invoice (billing_reason subscription_create) was counted when the plan started
    expect(
      await sendEvent(client, {
        id: 'evt_first',
        type: 'invoice.paid',
        invoice: { ...invoice, ref: 'in_first', billingReason: 'subscription_create' },
      }),
    ).toBe('applied');
    expect(
      (await db().select().from(instalmentPlans).where(eq(instalmentPlans.id, plan!.id)))[0]!.instalmentsPaid,
    ).toBe(2);
    // an event for a subscription nobody knows is applied as a no-op
    expect(
      await sendEvent(client, {
        id: 'evt_unknown',
        type: 'invoice.paid',
        invoice: { ...invoice, subscriptionRef: 'sub_nobody' },
      }),
    ).toBe('applied');
  });
});
