/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { COMMERCE_MESSAGES as M, DEFAULT_CHECKOUT, SANDBOX_CARDS } from '#shared/commerce';
import { checkoutPlans, entitlements, invoices, orders, sandboxObjects, subscriptions } from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let keys = 0;
const key = () => `attempt-${Date.now()}-${++keys}-abcdef`;

/** what the card form does: a client secret, then the sandbox's "Stripe API" confirms the card */
async function paymentMethod(client: TestClient, number: string = SANDBOX_CARDS.succeeds): Promise<string> {
  const secret = await client.get('/order/stripe-client-secret');
  expect(secret.statusCode).toBe(200);
  const res = await client.post('/sandbox/setup-intents/confirm', {
    client_secret: secret.json().clientSecret,
    number,
    exp_month: 12,
    exp_year: new Date().getUTCFullYear() + 2,
    cvc: '123',
    name: 'Ann Drummer',
  });
  expect(res.statusCode).toBe(200);
  return res.json().payment_method as string;
}

async function userOrders(userId: number) {
  return t.app.deps.db.select().from(orders).where(eq(orders.userId, userId));
}
async function membership(userId: number) {
  return t.app.deps.db
    .select()
    .from(entitlements)
    .where(and(eq(entitlements.userId, userId), eq(entitlements.kind, 'membership')));
}
async function sandboxCharges() {
  return (await t.app.deps.db.select().from(sandboxObjects).where(eq(sandboxObjects.kind, 'charge'))).length;
}

describe('GET /api/checkout/{slug}', () => {
  it('answers the default checkout plan object in dollars, seeded at start-up', async () => {
    const visitor = await t.client();
    const res = await visitor.get('/api/checkout/academy');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.plan).toEqual({
      slug: 'academy',
      heading: DEFAULT_CHECKOUT.heading,
      subheading: DEFAULT_CHECKOUT.subheading,
      has_trial: true,
      lifetime_price: 750,
      yearly_price: 249,
      monthly_price: 29,
      lifetime_crossed_out_price: 999,
      yearly_crossed_out_price: 348,
      monthly_crossed_out_price: 39,
      lifetime_sales_tag: 'Pay once',
      yearly_sales_tag: 'Best value',
      monthly_sales_tag: null,
      monthly_title: 'Monthly',
      yearly_trial_days: 14,
      monthly_trial_days: 7,
    });
    expect(body.user).toBeNull();
    expect(body.subscribed).toBe(false);
    expect(body.payments).toEqual(['card', 'paypal']);
  });

  it('names the signed-in buyer and says when they already hold the membership', async () => {
    const { user, client } = await t.signedIn();
    expect((await client.get('/api/checkout/academy')).json()).toMatchObject({
      user: { email: user.email, name: user.name },
      subscribed: false,
    });
    const member = await t.signedIn({ entitlements: ['membership'] });
    expect((await member.client.get('/api/checkout/academy')).json().subscribed).toBe(true);
  });

  it('is 404 for an unknown checkout', async () => {
    const visitor = await t.client();
    expect((await visitor.get('/api/checkout/no-such-plan')).statusCode).toBe(404);
  });

  it('does not overwrite an edited plan on the next start', async () => {
    await t.app.deps.db
      .update(checkoutPlans)
      .set({ monthlyPriceCents: 31_00 })
      .where(eq(checkoutPlans.slug, 'academy'));
    const { createCheckoutService } = await import('./service.ts');
    await createCheckoutService({ db: t.app.deps.db, payments: t.app.deps.services.payments }).ensureDefaultPlan();
    const visitor = await t.client();
    expect((await visitor.get('/api/checkout/academy')).json().plan.monthly_price).toBe(31);
    await t.app.deps.db
      .update(checkoutPlans)
      .set({ monthlyPriceCents: DEFAULT_CHECKOUT.monthlyPriceCents })
      .where(eq(checkoutPlans.slug, 'academy'));
  });
});

describe('permissions: a visitor pays nothing', () => {
  it('answers 401 to every payment call', async () => {
    const visitor = await t.client();
    expect((await visitor.get('/order/stripe-client-secret')).statusCode).toBe(401);
    expect(
      (await visitor.post('/order/stripe', { checkout: 'academy', stripeToken: 'pm_x', plan: 'monthly' })).statusCode,
    ).toBe(401);
    expect((await visitor.post('/order/stripe', {})).statusCode).toBe(401);
    expect((await visitor.post('/paypal/get-approval-url', { checkout: 'academy', plan: 'monthly' })).statusCode).toBe(
      401,
    );
    expect((await visitor.post('/paypal/lifetime-checkout', { checkout: 'academy' })).statusCode).toBe(401);
    expect((await visitor.get('/api/order')).statusCode).toBe(401);
    expect((await visitor.get('/paypal/return?order=1')).statusCode).toBe(401);
  });

  it('needs the CSRF token', async () => {
    const { client } = await t.signedIn();
    expect(
      (
        await client.post(
          '/order/stripe',
          { checkout: 'academy', stripeToken: 'pm_x', plan: 'monthly' },
          { csrf: false },
        )
      ).statusCode,
    ).toBe(419);
  });
});

describe('POST /order/stripe', () => {
  it("refuses a missing or unknown plan with the checkout's message", async () => {
    const { client } = await t.signedIn();
    for (const plan of [undefined, '', 'weekly']) {
      const res = await client.post('/order/stripe', {
        checkout: 'academy',
        stripeToken: 'pm_x',
        ...(plan === undefined ? {} : { plan }),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ message: M.planRequired, errors: { plan: [M.planRequired] } });
    }
  });

  it('subscribes monthly with the trial, grants the membership, and charges what the server says', async () => {
    const { user, client } = await t.signedIn();
    const pm = await paymentMethod(client);
    const res = await client.post(
      '/order/stripe',
      { checkout: 'academy', stripeToken: pm, plan: 'monthly', amount: 1, price: 0.01, monthly_price: 1 },
      { headers: { 'Idempotency-Key': key() } },
    );
    expect(res.statusCode).toBe(200);
    const url = res.json().url as string;
    expect(url).toMatch(/^\/order\?order=\d+$/);
    const [order] = await userOrders(user.id);
    expect(order).toMatchObject({
      kind: 'membership',
      plan: 'monthly',
      amountCents: DEFAULT_CHECKOUT.monthlyPriceCents,
      status: 'paid',
      provider: 'sandbox',
    });
    const [sub] = await t.app.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(sub).toMatchObject({ plan: 'monthly', status: 'trialing', priceCents: 29_00, checkoutSlug: 'academy' });
    const granted = await membership(user.id);
    expect(granted).toHaveLength(1);
    expect(granted[0]!.endsAt).not.toBeNull();
    expect((await client.get('/api/checkout/academy')).json().subscribed).toBe(true);

    // the confirmation page's call
    const answer = await client.get(`/api/order?order=${order!.id}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().order).toMatchObject({
      id: order!.id,
      plan: 'monthly',
      amount: 29,
      status: 'paid',
      lifetime: false,
      payment_method: 'Visa ending 4242',
    });
    expect(answer.json().order.trial_ends_at).not.toBeNull();
    expect(answer.json().order.next_billing_date).not.toBeNull();
    const latest = await client.get('/api/order');
    expect(latest.json().order.id).toBe(order!.id);
  });

  it('charges a yearly plan without a trial when the checkout has none', async () => {
    await t.app.deps.db.insert(checkoutPlans).values({
      slug: 'no-trial',
      heading: 'No trial',
      hasTrial: false,
      monthlyPriceCents: 10_00,
      yearlyPriceCents: 100_00,
      lifetimePriceCents: 300_00,
      monthlyTrialDays: 7,
      yearlyTrialDays: 7,
    });
    const { user, client } = await t.signedIn();
    const pm = await paymentMethod(client);
    const res = await client.post(
      '/order/stripe',
      { checkout: 'no-trial', stripeToken: pm, plan: 'yearly' },
      { headers: { 'Idempotency-Key': key() } },
    );
    expect(res.statusCode).toBe(200);
    const [sub] = await t.app.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(sub).toMatchObject({ plan: 'yearly', status: 'active', priceCents: 100_00, trialEndsAt: null });
    const paid = await t.app.deps.db.select().from(invoices).where(eq(invoices.userId, user.id));
    expect(paid.map((i) => i.amountCents)).toEqual([100_00]);
  });

  it('grants a lifetime membership with no end for the server price, whatever the body says', async () => {
    const { user, client } = await t.signedIn();
    const pm = await paymentMethod(client);
    const res = await client.post(
      '/order/stripe',
      { checkout: 'academy', stripeToken: pm, plan: 'lifetime', amount: 1, amount_cents: 100, lifetime_price: 1 },
      { headers: { 'Idempotency-Key': key() } },
    );
    expect(res.statusCode).toBe(200);
    const [order] = await userOrders(user.id);
    expect(order).toMatchObject({ plan: 'lifetime', amountCents: 750_00, status: 'paid' });
    const granted = await membership(user.id);
    expect(granted).toHaveLength(1);
    expect(granted[0]!.endsAt).toBeNull();
    const paid = await t.app.deps.db.select().from(invoices).where(eq(invoices.userId, user.id));
    expect(paid.map((i) => i.amountCents)).toEqual([750_00]);
    expect((await client.get('/api/order')).json().order).toMatchObject({
      lifetime: true,
      next_billing_date: null,
      amount: 750,
    });
  });

  it('is one order and one charge for a double submit with the same key', async () => {
    const { user, client } = await t.signedIn();
    const pm = await paymentMethod(client);
    const attempt = key();
    const before = await sandboxCharges();
    const body = { checkout: 'academy', stripeToken: pm, plan: 'lifetime' };
    const [a, b] = await Promise.all([
      client.post('/order/stripe', body, { headers: { 'Idempotency-Key': attempt } }),
      client.post('/order/stripe', body, { headers: { 'Idempotency-Key': attempt } }),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().url).toBe(b.json().url);
    // and a third, later retry of the same attempt
    const c = await client.post('/order/stripe', body, { headers: { 'Idempotency-Key': attempt } });
    expect(c.statusCode).toBe(200);
    expect(c.json().url).toBe(a.json().url);
    expect(await userOrders(user.id)).toHaveLength(1);
    expect((await sandboxCharges()) - before).toBe(1);
    expect(await t.app.deps.db.select().from(invoices).where(eq(invoices.userId, user.id))).toHaveLength(1);
  });

  it('refuses an already subscribed member with 409 and charges nothing', async () => {
    const { user, client } = await t.signedIn();
    const pm = await paymentMethod(client);
    expect(
      (
        await client.post(
          '/order/stripe',
          { checkout: 'academy', stripeToken: pm, plan: 'monthly' },
          { headers: { 'Idempotency-Key': key() } },
        )
      ).statusCode,
    ).toBe(200);
    const before = await sandboxCharges();
    const again = await client.post(
      '/order/stripe',
      { checkout: 'academy', stripeToken: pm, plan: 'lifetime' },
      { headers: { 'Idempotency-Key': key() } },
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(M.alreadySubscribed);
    expect(await sandboxCharges()).toBe(before);
    expect(await userOrders(user.id)).toHaveLength(1);
    expect(await t.app.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).toHaveLength(1);

    const member = await t.signedIn({ entitlements: ['membership'] });
    const res = await member.client.post('/paypal/get-approval-url', { checkout: 'academy', plan: 'yearly' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(M.alreadySubscribed);
    expect((await member.client.post('/paypal/lifetime-checkout', { checkout: 'academy' })).statusCode).toBe(409);
  });

  it('answers a declined card with 402 and the provider message under errors.card, granting nothing', async () => {
    const { user, client } = await t.signedIn();
    // this card attaches, then every charge is declined
    const pm = await paymentMethod(client, SANDBOX_CARDS.failsLater);
    const res = await client.post(
      '/order/stripe',
      { checkout: 'academy', stripeToken: pm, plan: 'lifetime' },
      { headers: { 'Idempotency-Key': key() } },
    );
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: M.cardDeclined, errors: { card: [M.cardDeclined] } });
    const [order] = await userOrders(user.id);
    expect(order).toMatchObject({ status: 'failed', failureMessage: M.cardDeclined });
    expect(await membership(user.id)).toHaveLength(0);
    expect((await client.get('/api/checkout/academy')).json().subscribed).toBe(false);

    // a subscription's first payment declined (no trial on this checkout)
    const sub = await client.post(
      '/order/stripe',
      { checkout: 'no-trial', stripeToken: pm, plan: 'monthly' },
      { headers: { 'Idempotency-Key': key() } },
    );
    expect(sub.statusCode).toBe(402);
    expect(sub.json().errors.card[0]).toBe(M.cardDeclined);
    expect(await membership(user.id)).toHaveLength(0);

    // a new attempt with a good card works
    const good = await paymentMethod(client);
    const retry = await client.post(
      '/order/stripe',
      { checkout: 'academy', stripeToken: good, plan: 'lifetime' },
      { headers: { 'Idempotency-Key': key() } },
    );
    expect(retry.statusCode).toBe(200);
    expect(await membership(user.id)).toHaveLength(1);
  });

  it('asks for authentication when the card needs it, then pays on the retry', async () => {
    const { user, client } = await t.signedIn();
    const secret = (await client.get('/order/stripe-client-secret')).json().clientSecret;
    const confirm = await client.post('/sandbox/setup-intents/confirm', {
      client_secret: secret,
      number: SANDBOX_CARDS.needsAuthentication,
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 2,
      cvc: '123',
    });
    const pm = confirm.json().payment_method as string;
    const attempt = key();
    const first = await client.post(
      '/order/stripe',
      { checkout: 'academy', stripeToken: pm, plan: 'lifetime' },
      { headers: { 'Idempotency-Key': attempt } },
    );
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ requires_action: true });
    expect(first.json().url ?? first.json().client_secret).toBeTruthy();
    expect(await membership(user.id)).toHaveLength(0);
    expect((await client.post(`/sandbox/authenticate/${pm}`, { outcome: 'complete' })).statusCode).toBe(200);
    const retry = await client.post(
      '/order/stripe',
      { checkout: 'academy', stripeToken: pm, plan: 'lifetime' },
      { headers: { 'Idempotency-Key': attempt } },
    );
    expect(retry.statusCode).toBe(200);
    expect(retry.json().url).toMatch(/^\/order\?order=\d+$/);
    expect(await userOrders(user.id)).toHaveLength(1);
    expect(await membership(user.id)).toHaveLength(1);
  });

  it('needs the card token', async () => {
    const { client } = await t.signedIn();
    const res = await client.post('/order/stripe', { checkout: 'academy', plan: 'monthly' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.stripeToken).toBeDefined();
  });
});

describe('GET /order/stripe-client-secret', () => {
  it('answers a client secret for a signed-in member', async () => {
    const { client } = await t.signedIn();
    const res = await client.get('/order/stripe-client-secret');
    expect(res.statusCode).toBe(200);
    expect(res.json().clientSecret).toMatch(/_secret_/);
  });
});

describe('PayPal', () => {
  const refOf = (url: string) => url.split('/').pop()!;

  it('yearly: approval url, approve, return → subscription, membership, /order', async () => {
    const { user, client } = await t.signedIn();
    const res = await client.post('/paypal/get-approval-url', { checkout: 'academy', plan: 'yearly', amount: 1 });
    expect(res.statusCode).toBe(200);
    const url = res.json().url as string;
    expect(url).toMatch(/^\/sandbox\/paypal\/approve\//);
    const [order] = await userOrders(user.id);
    expect(order).toMatchObject({ plan: 'yearly', amountCents: 249_00, status: 'pending', provider: 'sandbox' });
    expect(await membership(user.id)).toHaveLength(0);

    const approved = await client.post(`/sandbox/paypal/approve/${refOf(url)}`);
    expect(approved.statusCode).toBe(200);
    const back = approved.json().url as string;
    expect(back).toContain(`/paypal/return?order=${order!.id}`);
    const ret = await client.get(back);
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe(`/order?order=${order!.id}`);
    const [sub] = await t.app.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(sub).toMatchObject({ plan: 'yearly', status: 'trialing', priceCents: 249_00 });
    expect(await membership(user.id)).toHaveLength(1);
    // a refresh of the return address changes nothing
    expect((await client.get(back)).headers.location).toBe(`/order?order=${order!.id}`);
    expect(await t.app.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).toHaveLength(1);
    expect((await client.get(`/api/order?order=${order!.id}`)).json().order).toMatchObject({
      plan: 'yearly',
      status: 'paid',
      amount: 249,
    });
  });

  it('lifetime: approve and capture grants the membership for good', async () => {
    const { user, client } = await t.signedIn();
    const res = await client.post('/paypal/lifetime-checkout', { checkout: 'academy', plan: 'monthly', amount: 5 });
    expect(res.statusCode).toBe(200);
    const url = res.json().url as string;
    const [order] = await userOrders(user.id);
    expect(order).toMatchObject({ plan: 'lifetime', amountCents: 750_00 });
    const back = (await client.post(`/sandbox/paypal/approve/${refOf(url)}`)).json().url as string;
    const ret = await client.get(back);
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe(`/order?order=${order!.id}`);
    const granted = await membership(user.id);
    expect(granted).toHaveLength(1);
    expect(granted[0]!.endsAt).toBeNull();
  });

  it('a member by card meanwhile (another tab): the PayPal lifetime is not captured, the subscription approval is cancelled', async () => {
    const { user, client } = await t.signedIn();
    const lifetimeUrl = (
      await client.post('/paypal/lifetime-checkout', { checkout: 'academy', idempotency_key: key() })
    ).json().url as string;
    const monthlyUrl = (
      await client.post('/paypal/get-approval-url', { checkout: 'academy', plan: 'monthly', idempotency_key: key() })
    ).json().url as string;
    const lifetimeBack = (await client.post(`/sandbox/paypal/approve/${refOf(lifetimeUrl)}`)).json().url as string;
    const monthlyBack = (await client.post(`/sandbox/paypal/approve/${refOf(monthlyUrl)}`)).json().url as string;
    // the card tab finishes first
    const paid = await client.post('/order/stripe', {
      checkout: 'academy',
      plan: 'yearly',
      stripeToken: await paymentMethod(client),
      idempotency_key: key(),
    });
    expect(paid.statusCode).toBe(200);
    const charges = await sandboxCharges();
    for (const back of [lifetimeBack, monthlyBack]) {
      const ret = await client.get(back);
      expect(ret.statusCode).toBe(303);
      expect(ret.headers.location).toBe('/join?paypal=failed');
    }
    expect(await sandboxCharges()).toBe(charges);
    expect(await t.app.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).toHaveLength(1);
    const [approved] = await t.app.deps.db
      .select()
      .from(sandboxObjects)
      .where(eq(sandboxObjects.id, refOf(monthlyUrl)));
    expect(approved!.data.status).toBe('canceled');
    expect((await userOrders(user.id)).map((o) => o.status).sort()).toEqual(['failed', 'failed', 'paid']);
  });

  it('a cancelled approval returns to the checkout with the flag and grants nothing', async () => {
    const { user, client } = await t.signedIn();
    const url = (await client.post('/paypal/lifetime-checkout', { checkout: 'academy' })).json().url as string;
    const cancelled = await client.post(`/sandbox/paypal/cancel/${refOf(url)}`);
    expect(cancelled.json().url).toMatch(/^\/join\?paypal=cancelled/);
    const [order] = await userOrders(user.id);
    // coming back to the return address anyway does not capture a cancelled order
    const ret = await client.get(`/paypal/return?order=${order!.id}&token=${refOf(url)}`);
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toMatch(/^\/join\?paypal=/);
    expect(await membership(user.id)).toHaveLength(0);
  });

  it('refuses another member’s order and a mismatched subscription id', async () => {
    const a = await t.signedIn();
    const b = await t.signedIn();
    const url = (await a.client.post('/paypal/get-approval-url', { checkout: 'academy', plan: 'monthly' })).json()
      .url as string;
    const [order] = await userOrders(a.user.id);
    await a.client.post(`/sandbox/paypal/approve/${refOf(url)}`);
    expect((await b.client.get(`/paypal/return?order=${order!.id}&subscription_id=${refOf(url)}`)).statusCode).toBe(
      404,
    );
    expect((await b.client.get(`/api/order?order=${order!.id}`)).statusCode).toBe(404);
    const wrong = await a.client.get(`/paypal/return?order=${order!.id}&subscription_id=I-SOMEONEELSE`);
    expect(wrong.headers.location).toBe('/join?paypal=failed');
    expect(await membership(a.user.id)).toHaveLength(0);
  });

  it('validates the plan', async () => {
    const { client } = await t.signedIn();
    const res = await client.post('/paypal/get-approval-url', { checkout: 'academy' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(M.planRequired);
  });

  it('answers the same approval link for the same attempt', async () => {
    const { user, client } = await t.signedIn();
    const attempt = key();
    const a = await client.post(
      '/paypal/get-approval-url',
      { checkout: 'academy', plan: 'monthly' },
      { headers: { 'Idempotency-Key': attempt } },
    );
    const b = await client.post(
      '/paypal/get-approval-url',
      { checkout: 'academy', plan: 'monthly' },
      { headers: { 'Idempotency-Key': attempt } },
    );
    expect(a.json().url).toBe(b.json().url);
    expect(await userOrders(user.id)).toHaveLength(1);
  });
});

describe('GET /api/order', () => {
  it('answers null when nothing was bought, and 404 for an unknown order', async () => {
    const { client } = await t.signedIn();
    expect((await client.get('/api/order')).json()).toEqual({ order: null });
    expect((await client.get('/api/order?order=999999')).statusCode).toBe(404);
  });
});
