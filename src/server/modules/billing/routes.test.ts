/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { CANCEL_REASONS, COMMERCE_MESSAGES, DEFAULT_CHECKOUT, RETENTION, SANDBOX_CARDS } from '#shared/commerce';
import {
  BILLING_MESSAGES,
  discountFlag,
  lifetimeOfferCents,
  yearlyOfferCents,
  type BillingState,
  type CancellationsPage,
} from '#shared/billing';
import {
  cancellationFeedback,
  entitlements as entitlementRows,
  invoices,
  orders,
  sandboxObjects,
  subscriptions,
} from '#server/db/schema/index';
import type { SandboxProvider } from '#server/modules/payments/sandbox/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const db = () => t.app.deps.db;
const payments = () => t.app.deps.services.payments;
const sandbox = () => payments().providerFor('card') as unknown as SandboxProvider;
const REASON = { reason: CANCEL_REASONS[0].value, reason_description: '' };
const OTHER = CANCEL_REASONS.find((r) => r.value === 'Other')!.value;
const SWITCHING = CANCEL_REASONS.find((r) => r.value.startsWith('Switching'))!.value;
const STRIPE_CALLS = ['discount', 'upgrade-yearly', 'upgrade-lifetime', 'pause', 'cancel'].map(
  (a) => `/account/billing/stripe/${a}`,
);
const PAYPAL_CALLS = ['suspend', 'cancel', 'lifetime-checkout'].map((a) => `/account/billing/paypal/${a}`);

async function authUser(id: number) {
  const { users } = t.app.deps.services;
  return users.toAuthUser((await users.findById(id))!);
}
const entitlements = (userId: number) => t.app.deps.services.users.activeEntitlements(userId);
const subRow = async (id: number) => (await db().select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const feedbackOf = (userId: number) =>
  db().select().from(cancellationFeedback).where(eq(cancellationFeedback.userId, userId));
const sandboxSub = async (ref: string) =>
  (await db().select().from(sandboxObjects).where(eq(sandboxObjects.id, ref)))[0]!.data as Record<string, unknown>;

/** a member who bought a membership by card in the sandbox (card 4242…), as the checkout does */
async function cardMember(plan: 'monthly' | 'yearly' = 'monthly') {
  const { user, client } = await t.signedIn();
  const me = await authUser(user.id);
  const card = sandbox();
  const key = `test:${user.id}:${plan}`;
  const { clientSecret } = await card.createCardSetup({
    email: me.email,
    name: me.name,
    idempotencyKey: `${key}:setup`,
    metadata: {},
  });
  const confirmed = await card.confirmSetup({
    clientSecret,
    number: SANDBOX_CARDS.succeeds,
    expMonth: 12,
    expYear: 2040,
    cvc: '123',
    name: me.name,
  });
  const priceCents = plan === 'monthly' ? DEFAULT_CHECKOUT.monthlyPriceCents : DEFAULT_CHECKOUT.yearlyPriceCents;
  const { order } = await payments().startOrder(me, {
    kind: 'membership',
    productSlug: 'academy',
    plan,
    amountCents: priceCents,
    provider: 'sandbox',
    affiliate: null,
    idempotencyKey: key,
    metadata: { payment_type: 'card' },
  });
  const state = await card.subscribeCard({
    email: me.email,
    name: me.name,
    paymentMethod: confirmed.paymentMethod,
    priceCents,
    interval: plan === 'monthly' ? 'month' : 'year',
    trialDays: 0,
    description: 'Backbeat membership',
    idempotencyKey: key,
    metadata: { order_id: String(order.id) },
  });
  const sub = await payments().recordSubscription(user.id, order.id, 'academy', 'sandbox', state);
  return { user, client, sub };
}

/** a member who subscribed through the sandbox's PayPal approval */
async function paypalMember() {
  const { user, client } = await t.signedIn();
  const me = await authUser(user.id);
  const paypal = payments().providerFor('paypal') as unknown as SandboxProvider;
  const key = `test:${user.id}:paypal`;
  const { order } = await payments().startOrder(me, {
    kind: 'membership',
    productSlug: 'academy',
    plan: 'monthly',
    amountCents: DEFAULT_CHECKOUT.monthlyPriceCents,
    provider: 'sandbox',
    affiliate: null,
    idempotencyKey: key,
    metadata: { payment_type: 'paypal' },
  });
  const approval = await paypal.createPaypalSubscription({
    priceCents: DEFAULT_CHECKOUT.monthlyPriceCents,
    interval: 'month',
    trialDays: 0,
    description: 'Backbeat membership',
    returnUrl: '/order',
    cancelUrl: '/join',
    idempotencyKey: key,
    metadata: {},
  });
  await paypal.approvePaypal(approval.ref);
  const sub = await payments().recordSubscription(
    user.id,
    order.id,
    'academy',
    'sandbox',
    await paypal.getSubscription(approval.ref),
  );
  return { user, client, sub };
}

/** a subscription row written straight to the ledger (read and validation tests) */
async function insertedMember(opts: { paypal?: boolean } = {}) {
  const { user, client } = await t.signedIn({ entitlements: ['membership'] });
  const [sub] = await db()
    .insert(subscriptions)
    .values({
      userId: user.id,
      provider: 'sandbox',
      providerRef: `${opts.paypal ? 'I-' : 'sub_'}row${user.id}`,
      checkoutSlug: 'academy',
      plan: 'monthly',
      status: 'active',
      priceCents: 29_00,
      paymentMethod: opts.paypal ? 'PayPal (buyer@sandbox.test)' : 'Visa ending 4242',
      currentPeriodEnd: new Date(Date.now() + 20 * 86_400_000),
    })
    .returning();
  return { user, client, sub: sub! };
}

const billing = async (client: TestClient) => (await client.get('/api/billing')).json() as BillingState;

describe('GET /api/billing', () => {
  it('answers 401 to a visitor', async () => {
    const visitor = await t.client();
    expect((await visitor.get('/api/billing')).statusCode).toBe(401);
  });

  it('answers no subscription for a member who never paid', async () => {
    const { client } = await t.signedIn();
    expect(await billing(client)).toEqual({
      subscription: null,
      lifetime: false,
      invoices: [],
      memberships: [],
      mentorships: [],
      courses: [],
    });
  });

  it('shows the plan, price, next billing date, payment method, offers and invoices', async () => {
    const { client, sub } = await cardMember();
    const b = await billing(client);
    expect(b.subscription).toMatchObject({
      id: sub.id,
      plan: 'monthly',
      cycle: 'month',
      status: 'active',
      price: DEFAULT_CHECKOUT.monthlyPriceCents,
      paymentMethod: 'Visa ending 4242',
      provider: 'card',
      cancelAtPeriodEnd: false,
      pausedAt: null,
      canUseDiscount: true,
      skipPause: false,
      lifetimePrice: RETENTION.defaultLifetimePriceCents,
      lifetimeOfferPrice: 600_00,
      yearlyPrice: DEFAULT_CHECKOUT.yearlyPriceCents,
      yearlyOfferPrice: DEFAULT_CHECKOUT.yearlyPriceCents - 50_00,
      discount: null,
    });
    expect(new Date(b.subscription!.nextBillingDate).getTime()).toBe(sub.currentPeriodEnd.getTime());
    expect(b.lifetime).toBe(false);
    expect(b.invoices[0]).toMatchObject({ amount: DEFAULT_CHECKOUT.monthlyPriceCents, status: 'paid' });
  });

  it('tells a PayPal subscription by its provider kind', async () => {
    const { client } = await paypalMember();
    expect((await billing(client)).subscription).toMatchObject({
      provider: 'paypal',
      paymentMethod: 'PayPal (buyer@sandbox.test)',
    });
  });
});

describe('permissions and validation of every call', () => {
  it('answers 401 to a visitor, whatever the body', async () => {
    const visitor = await t.client();
    for (const url of [...STRIPE_CALLS, ...PAYPAL_CALLS, '/account/billing/resume']) {
      expect((await visitor.post(url, REASON)).statusCode, url).toBe(401);
      expect((await visitor.post(url, {})).statusCode, url).toBe(401);
    }
  });

  it('refuses a call without the CSRF token (419)', async () => {
    const { client } = await insertedMember();
    expect((await client.post('/account/billing/stripe/cancel', REASON, { csrf: false })).statusCode).toBe(419);
  });

  it('answers 404 with the product message to a member without a subscription', async () => {
    const { client } = await t.signedIn();
    for (const url of [...STRIPE_CALLS, ...PAYPAL_CALLS, '/account/billing/resume']) {
      const res = await client.post(url, REASON);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe(COMMERCE_MESSAGES.noSubscription);
    }
  });

  it('answers 404 when the subscription is of the other provider kind', async () => {
    const card = await insertedMember();
    for (const url of PAYPAL_CALLS)
      expect((await card.client.post(url, REASON)).json().message, url).toBe(COMMERCE_MESSAGES.noSubscription);
    const paypal = await insertedMember({ paypal: true });
    for (const url of STRIPE_CALLS)
      expect((await paypal.client.post(url, REASON)).json().message, url).toBe(COMMERCE_MESSAGES.noSubscription);
  });

  it("checks the reason with the cancel flow's messages on every retention call", async () => {
    const card = await insertedMember();
    const paypal = await insertedMember({ paypal: true });
    for (const [client, url] of [
      ...STRIPE_CALLS.map((u) => [card.client, u] as const),
      ...PAYPAL_CALLS.map((u) => [paypal.client, u] as const),
    ]) {
      // the upgrades need the reason when sent from the cancel flow (discount=1)
      const flag = url.includes('/stripe/upgrade-') ? { discount: '1' } : {};
      const none = await client.post(url, flag);
      expect(none.statusCode, url).toBe(422);
      expect(none.json().errors.reason, url).toEqual([COMMERCE_MESSAGES.reasonRequired]);
      expect((await client.post(url, { reason: 'I just feel like it', ...flag })).json().errors.reason, url).toEqual([
        COMMERCE_MESSAGES.reasonRequired,
      ]);
      for (const reason of [OTHER, SWITCHING]) {
        const res = await client.post(url, { reason, reason_description: '   ', ...flag });
        expect(res.statusCode, url).toBe(422);
        expect(res.json().message).toBe(COMMERCE_MESSAGES.reasonDescriptionRequired);
        expect(res.json().errors.reason_description).toEqual([COMMERCE_MESSAGES.reasonDescriptionRequired]);
      }
    }
    // nothing was stored and nothing changed
    expect(await feedbackOf(card.user.id)).toEqual([]);
    expect((await subRow(card.sub.id)).status).toBe('active');
  });

  it("leaves another member's subscription alone", async () => {
    const owner = await cardMember();
    const other = await t.signedIn();
    for (const url of STRIPE_CALLS) expect((await other.client.post(url, REASON)).statusCode).toBe(404);
    const row = await subRow(owner.sub.id);
    expect(row).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, discountUsedAt: null, plan: 'monthly' });
    expect(await entitlements(owner.user.id)).toContain('membership');
  });
});

describe('card retention offers', () => {
  it('discount: monthly 30% off the next 3 invoices, once only', async () => {
    const { user, client, sub } = await cardMember();
    const res = await client.post('/account/billing/stripe/discount', {
      reason: OTHER,
      reason_description: 'Money is tight',
      discount: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BILLING_MESSAGES.discount('month'));
    expect((await sandboxSub(sub.providerRef)).discount).toEqual({ percentOff: 30, cyclesLeft: 3 });
    const row = await subRow(sub.id);
    expect(row.discountUsedAt).not.toBeNull();
    const b = await billing(client);
    expect(b.subscription).toMatchObject({ canUseDiscount: false, status: 'active' });
    expect(b.subscription!.discount).toContain('30%');
    const fb = await feedbackOf(user.id);
    expect(fb).toHaveLength(1);
    expect(fb[0]).toMatchObject({
      provider: 'card',
      cycle: 'month',
      reason: OTHER,
      description: 'Money is tight',
      outcome: 'discount',
      subscriptionId: sub.id,
    });
    const again = await client.post('/account/billing/stripe/discount', REASON);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(COMMERCE_MESSAGES.discountUsed);
    expect(await feedbackOf(user.id)).toHaveLength(1);
  });

  it('discount: yearly 30 dollars off the next invoice', async () => {
    const { client, sub } = await cardMember('yearly');
    expect((await client.post('/account/billing/stripe/discount', REASON)).statusCode).toBe(200);
    expect((await sandboxSub(sub.providerRef)).discount).toEqual({ amountOffCents: 30_00, cyclesLeft: 1 });
    expect((await billing(client)).subscription!.cycle).toBe('year');
  });

  it('upgrade-yearly: the first year at the yearly price less 50 dollars, later years at the full price; membership kept', async () => {
    const { user, client, sub } = await cardMember();
    const res = await client.post('/account/billing/stripe/upgrade-yearly', { ...REASON, discount: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BILLING_MESSAGES.upgradeYearly);
    const s = await sandboxSub(sub.providerRef);
    expect(s).toMatchObject({ interval: 'year', priceCents: DEFAULT_CHECKOUT.yearlyPriceCents });
    const [first] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.subscriptionId, sub.id))
      .orderBy(desc(invoices.id))
      .limit(1);
    expect(first).toMatchObject({
      amountCents: yearlyOfferCents(DEFAULT_CHECKOUT.yearlyPriceCents),
      description: 'Yearly membership',
    });
    expect(await subRow(sub.id)).toMatchObject({ plan: 'yearly', status: 'active' });
    expect(await entitlements(user.id)).toContain('membership');
    expect((await feedbackOf(user.id))[0]).toMatchObject({ outcome: 'upgrade-yearly', cycle: 'month' });
  });

  it('upgrade-lifetime: charges the lifetime price less 20% on the saved card, grants membership with no end, ends the subscription', async () => {
    const { user, client, sub } = await cardMember();
    const res = await client.post('/account/billing/stripe/upgrade-lifetime', { ...REASON, discount: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BILLING_MESSAGES.upgradeLifetime);
    const [order] = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.userId, user.id), eq(orders.plan, 'lifetime')));
    expect(order).toMatchObject({
      status: 'paid',
      amountCents: lifetimeOfferCents(RETENTION.defaultLifetimePriceCents),
    });
    expect(order!.amountCents).toBe(600_00);
    expect((await sandboxSub(sub.providerRef)).status).toBe('canceled');
    expect(await entitlements(user.id)).toContain('membership');
    const b = await billing(client);
    expect(b.lifetime).toBe(true);
    expect((await feedbackOf(user.id))[0]).toMatchObject({ outcome: 'upgrade-lifetime' });
    // a second submit changes nothing
    expect((await client.post('/account/billing/stripe/upgrade-lifetime', REASON)).statusCode).toBeLessThan(500);
    expect(
      await db()
        .select()
        .from(orders)
        .where(and(eq(orders.userId, user.id), eq(orders.plan, 'lifetime'))),
    ).toHaveLength(1);
  });

  it('discount=1 on an upgrade still requires the reason and applies the offer', async () => {
    const { user, client, sub } = await cardMember();
    const none = await client.post('/account/billing/stripe/upgrade-yearly', { discount: 1 });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.reason).toEqual([COMMERCE_MESSAGES.reasonRequired]);
    expect((await subRow(sub.id)).plan).toBe('monthly');
    const res = await client.post('/account/billing/stripe/upgrade-yearly', { ...REASON, discount: 'true' });
    expect(res.json().message).toBe(BILLING_MESSAGES.upgradeYearly);
    // the plan is the full yearly price; the offer came off the first year's invoice
    expect(await subRow(sub.id)).toMatchObject({ plan: 'yearly', priceCents: DEFAULT_CHECKOUT.yearlyPriceCents });
    const [first] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.subscriptionId, sub.id))
      .orderBy(desc(invoices.id))
      .limit(1);
    expect(first!.amountCents).toBe(yearlyOfferCents(DEFAULT_CHECKOUT.yearlyPriceCents));
    expect(await feedbackOf(user.id)).toHaveLength(1);
  });

  it("reads the cancel flow's discount flag", () => {
    for (const v of [1, '1', true, 'true', 'on']) expect(discountFlag(v), String(v)).toBe(true);
    for (const v of [undefined, 0, '0', '', false, 'false']) expect(discountFlag(v), String(v)).toBe(false);
  });
});

describe('plain upgrades (the Upgrade modal: no discount, no reason)', () => {
  it('GET /api/billing answers the full yearly and lifetime prices', async () => {
    const { client } = await cardMember();
    expect((await billing(client)).subscription).toMatchObject({
      yearlyFullPrice: DEFAULT_CHECKOUT.yearlyPriceCents,
      lifetimeFullPrice: RETENTION.defaultLifetimePriceCents,
    });
  });

  it('upgrade-yearly: the yearly plan at the full yearly price; no reason needed and no feedback stored', async () => {
    const { user, client, sub } = await cardMember();
    const res = await client.post('/account/billing/stripe/upgrade-yearly', {});
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BILLING_MESSAGES.upgradeYearlyFull);
    expect(await sandboxSub(sub.providerRef)).toMatchObject({
      interval: 'year',
      priceCents: DEFAULT_CHECKOUT.yearlyPriceCents,
    });
    expect(await subRow(sub.id)).toMatchObject({
      plan: 'yearly',
      status: 'active',
      priceCents: DEFAULT_CHECKOUT.yearlyPriceCents,
    });
    expect(await entitlements(user.id)).toContain('membership');
    expect(await feedbackOf(user.id)).toEqual([]);
    expect((await billing(client)).subscription).toMatchObject({
      plan: 'yearly',
      cycle: 'year',
      price: DEFAULT_CHECKOUT.yearlyPriceCents,
    });
    // a second submit changes nothing
    const again = await client.post('/account/billing/stripe/upgrade-yearly', {});
    expect(again.json().message).toBe(BILLING_MESSAGES.alreadyYearly);
    expect((await subRow(sub.id)).priceCents).toBe(DEFAULT_CHECKOUT.yearlyPriceCents);
  });

  it('upgrade-lifetime: charges the full lifetime price, grants membership with no end, stores no feedback', async () => {
    const { user, client, sub } = await cardMember();
    const headers = { 'idempotency-key': 'upgrade-click' };
    const [a, b] = await Promise.all([
      client.request('POST', '/account/billing/stripe/upgrade-lifetime', {}, { headers }),
      client.request('POST', '/account/billing/stripe/upgrade-lifetime', {}, { headers }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().message).toBe(BILLING_MESSAGES.upgradeLifetime);
    const lifetimeOrders = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.userId, user.id), eq(orders.plan, 'lifetime')));
    expect(lifetimeOrders).toHaveLength(1);
    expect(lifetimeOrders[0]).toMatchObject({ status: 'paid', amountCents: RETENTION.defaultLifetimePriceCents });
    expect((await sandboxSub(sub.providerRef)).status).toBe('canceled');
    const grants = await db()
      .select()
      .from(entitlementRows)
      .where(and(eq(entitlementRows.userId, user.id), eq(entitlementRows.kind, 'membership')));
    expect(grants.some((g) => g.endsAt === null && g.revokedAt === null)).toBe(true);
    expect(await entitlements(user.id)).toContain('membership');
    expect((await billing(client)).lifetime).toBe(true);
    expect(await feedbackOf(user.id)).toEqual([]);
  });

  it('keeps the 404 for a PayPal subscription', async () => {
    const { client } = await paypalMember();
    for (const call of ['upgrade-yearly', 'upgrade-lifetime']) {
      const res = await client.post(`/account/billing/stripe/${call}`, {});
      expect(res.statusCode, call).toBe(404);
      expect(res.json().message).toBe(COMMERCE_MESSAGES.noSubscription);
    }
  });
});

describe('card retention, pause and cancel', () => {
  it('pause: 5 dollars a month, access suspended; resume restores it', async () => {
    const { user, client, sub } = await cardMember();
    const res = await client.post('/account/billing/stripe/pause', REASON);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BILLING_MESSAGES.pause);
    expect(await sandboxSub(sub.providerRef)).toMatchObject({
      status: 'paused',
      pauseFeeCents: RETENTION.cardPauseFeeCents,
    });
    expect((await subRow(sub.id)).status).toBe('paused');
    expect(await entitlements(user.id)).not.toContain('membership');
    expect((await billing(client)).subscription).toMatchObject({ status: 'paused', skipPause: true });
    expect((await feedbackOf(user.id))[0]).toMatchObject({ outcome: 'pause' });

    const resumed = await client.post('/account/billing/resume', {});
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().message).toBe(BILLING_MESSAGES.resume);
    expect((await subRow(sub.id)).status).toBe('active');
    expect(await entitlements(user.id)).toContain('membership');
    // a pause was used: the cancel flow skips the offer from now on
    expect((await billing(client)).subscription!.skipPause).toBe(true);
  });

  it('a subscription is paused once: pause, resume, pause again is 409 with the reason, and the page shows the pause as used', async () => {
    const { user, client, sub } = await cardMember();
    expect((await billing(client)).subscription).toMatchObject({ pauseUsed: false, skipPause: false });
    expect((await client.post('/account/billing/stripe/pause', REASON)).statusCode).toBe(200);
    // another tab while it is paused
    const paused = await client.post('/account/billing/stripe/pause', REASON);
    expect(paused.statusCode).toBe(409);
    expect(paused.json().message).toBe(BILLING_MESSAGES.pauseUsed);
    expect((await client.post('/account/billing/resume', {})).statusCode).toBe(200);

    const again = await client.post('/account/billing/stripe/pause', REASON);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(BILLING_MESSAGES.pauseUsed);
    // nothing changed: still active here and at the provider, the membership kept, one pause on record
    expect((await subRow(sub.id)).status).toBe('active');
    expect(await sandboxSub(sub.providerRef)).toMatchObject({ status: 'active' });
    expect(await entitlements(user.id)).toContain('membership');
    expect((await feedbackOf(user.id)).filter((f) => f.outcome === 'pause')).toHaveLength(1);
    expect((await billing(client)).subscription).toMatchObject({ status: 'active', pauseUsed: true, skipPause: true });
  });

  it('a PayPal subscription is suspended once too', async () => {
    const { client } = await paypalMember();
    expect((await client.post('/account/billing/paypal/suspend', REASON)).statusCode).toBe(200);
    expect((await client.post('/account/billing/resume', {})).statusCode).toBe(200);
    const again = await client.post('/account/billing/paypal/suspend', REASON);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(BILLING_MESSAGES.pauseUsed);
  });

  it('a pause the provider refuses is not used up', async () => {
    const { client, sub } = await cardMember();
    // the provider no longer has the subscription's card on file: its pause call fails
    await db().update(sandboxObjects).set({ kind: 'gone' }).where(eq(sandboxObjects.id, sub.providerRef));
    expect((await client.post('/account/billing/stripe/pause', REASON)).statusCode).toBeGreaterThanOrEqual(400);
    await db().update(sandboxObjects).set({ kind: 'subscription' }).where(eq(sandboxObjects.id, sub.providerRef));
    expect((await billing(client)).subscription).toMatchObject({ pauseUsed: false });
    expect((await client.post('/account/billing/stripe/pause', REASON)).statusCode).toBe(200);
  });

  it('resume refuses a subscription that is not paused', async () => {
    const { client } = await insertedMember();
    const res = await client.post('/account/billing/resume', {});
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(BILLING_MESSAGES.notPaused);
    const { client: c2, sub } = await insertedMember();
    await db().update(subscriptions).set({ status: 'canceled' }).where(eq(subscriptions.id, sub.id));
    expect((await c2.post('/account/billing/resume', {})).statusCode).toBeGreaterThanOrEqual(404);
  });

  it('cancel: at the period end, access kept until then', async () => {
    const { user, client, sub } = await cardMember();
    const res = await client.post('/account/billing/stripe/cancel', {
      reason: SWITCHING,
      reason_description: 'Another site',
    });
    expect(res.statusCode).toBe(200);
    expect(await sandboxSub(sub.providerRef)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    const row = await subRow(sub.id);
    expect(row.cancelAtPeriodEnd).toBe(true);
    expect(row.currentPeriodEnd.getTime()).toBe(sub.currentPeriodEnd.getTime());
    expect(await entitlements(user.id)).toContain('membership');
    const b = await billing(client);
    expect(b.subscription).toMatchObject({ cancelAtPeriodEnd: true });
    expect((await feedbackOf(user.id))[0]).toMatchObject({
      outcome: 'cancel',
      reason: SWITCHING,
      description: 'Another site',
    });
  });

  it('a plain form post with _token answers 303 to the billing page', async () => {
    const { client } = await cardMember();
    const res = await client.request(
      'POST',
      '/account/billing/stripe/cancel',
      { ...REASON, _token: client.csrfToken },
      { form: true, csrf: false, headers: { accept: 'text/html' } },
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account/billing');
  });

  it('a double submit changes nothing twice', async () => {
    const { user, client, sub } = await cardMember();
    const headers = { 'idempotency-key': 'click-1' };
    const [a, b] = await Promise.all([
      client.request('POST', '/account/billing/stripe/pause', REASON, { headers }),
      client.request('POST', '/account/billing/stripe/pause', REASON, { headers }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await feedbackOf(user.id)).toHaveLength(1);
    expect((await subRow(sub.id)).status).toBe('paused');

    const other = await cardMember();
    const [d1, d2] = await Promise.all([
      other.client.post('/account/billing/stripe/discount', REASON),
      other.client.post('/account/billing/stripe/discount', REASON),
    ]);
    expect([d1.statusCode, d2.statusCode].sort()).toEqual([200, 409]);
    expect((await feedbackOf(other.user.id)).filter((f) => f.outcome === 'discount')).toHaveLength(1);

    const third = await cardMember();
    const cancels = await Promise.all([1, 2, 3].map(() => third.client.post('/account/billing/stripe/cancel', REASON)));
    expect(cancels.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await feedbackOf(third.user.id)).toHaveLength(1);
  });

  it('after a card cancel the membership ends when the paid period does', async () => {
    const { user, client } = await cardMember();
    expect((await client.post('/account/billing/stripe/cancel', REASON)).statusCode).toBe(200);
    expect(await entitlements(user.id)).toContain('membership');
    await sandbox().advanceClock(40);
    expect(await entitlements(user.id)).not.toContain('membership');
  });
});

describe('PayPal retention (the PayPal cancel modal)', () => {
  it('suspend: free, access suspended; resume restores it', async () => {
    const { user, client, sub } = await paypalMember();
    const res = await client.post('/account/billing/paypal/suspend', REASON);
    expect(res.statusCode).toBe(200);
    expect(await sandboxSub(sub.providerRef)).toMatchObject({ status: 'paused', pauseFeeCents: 0 });
    expect(await entitlements(user.id)).not.toContain('membership');
    expect((await feedbackOf(user.id))[0]).toMatchObject({ provider: 'paypal', outcome: 'pause' });
    expect((await client.post('/account/billing/resume', {})).statusCode).toBe(200);
    expect(await entitlements(user.id)).toContain('membership');
  });

  it('cancel: the provider stops now, membership lasts to the paid period end', async () => {
    const { user, client, sub } = await paypalMember();
    const res = await client.post('/account/billing/paypal/cancel', REASON);
    expect(res.statusCode).toBe(200);
    expect((await sandboxSub(sub.providerRef)).status).toBe('canceled');
    expect(await entitlements(user.id)).toContain('membership');
    const b = await billing(client);
    expect(b.subscription).toMatchObject({ cancelAtPeriodEnd: true });
    expect(new Date(b.subscription!.nextBillingDate).getTime()).toBe(sub.currentPeriodEnd.getTime());
    expect((await feedbackOf(user.id))[0]).toMatchObject({ provider: 'paypal', outcome: 'cancel' });
  });

  it('lifetime-checkout: a PayPal order at 20% off; on return the lifetime membership is granted and the subscription ends', async () => {
    const { user, client, sub } = await paypalMember();
    const res = await client.post('/account/billing/paypal/lifetime-checkout', { ...REASON, discount: 1 });
    expect(res.statusCode).toBe(200);
    const url: string = res.json().url;
    expect(url).toMatch(/^\/sandbox\/paypal\/approve\//);
    // a plain form post is sent to the same approval page
    const form = await client.request(
      'POST',
      '/account/billing/paypal/lifetime-checkout',
      { ...REASON, discount: 1, _token: client.csrfToken },
      { form: true, csrf: false, headers: { accept: 'text/html' } },
    );
    expect(form.statusCode).toBe(303);
    const ref = url.split('/').pop()!;
    const [order] = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.userId, user.id), eq(orders.plan, 'lifetime')));
    expect(order).toMatchObject({ amountCents: 600_00, status: 'pending', providerRef: ref });
    const back = await (payments().providerFor('paypal') as unknown as SandboxProvider).approvePaypal(ref);
    expect(back).toContain('/account/billing/paypal/lifetime-return?order=');
    const ret = await client.get(back);
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe('/account/billing');
    expect((await db().select().from(orders).where(eq(orders.id, order!.id)))[0]!.status).toBe('paid');
    expect((await sandboxSub(sub.providerRef)).status).toBe('canceled');
    expect(await entitlements(user.id)).toContain('membership');
    expect((await billing(client)).lifetime).toBe(true);
    expect((await feedbackOf(user.id))[0]).toMatchObject({
      outcome: 'lifetime-checkout',
      provider: 'paypal',
      reason: REASON.reason,
    });
    // the return address again: nothing twice
    expect((await client.get(back)).statusCode).toBe(303);
    expect(await feedbackOf(user.id)).toHaveLength(1);
    // someone else's order is not theirs to capture
    const other = await t.signedIn();
    expect((await other.client.get(`/account/billing/paypal/lifetime-return?order=${order!.id}`)).statusCode).toBe(404);
  });
});

describe('GET /api/admin/cancellations', () => {
  it('is for admins only', async () => {
    const visitor = await t.client();
    expect((await visitor.get('/api/admin/cancellations')).statusCode).toBe(401);
    const { client } = await t.signedIn();
    expect((await client.get('/api/admin/cancellations')).statusCode).toBe(403);
  });

  it('lists the stored reasons newest first, with the member', async () => {
    const { user, client } = await insertedMember();
    await client.post('/account/billing/stripe/cancel', REASON).catch(() => undefined);
    await db()
      .insert(cancellationFeedback)
      .values({
        userId: user.id,
        provider: 'card',
        cycle: 'month',
        reason: OTHER,
        description: 'Newest one',
        outcome: 'pause',
        createdAt: new Date(Date.now() + 60_000),
      });
    const admin = await t.signedIn({ role: 'admin' });
    const res = await admin.client.get('/api/admin/cancellations?page=1');
    expect(res.statusCode).toBe(200);
    const page = res.json() as CancellationsPage;
    expect(page.page).toBe(1);
    expect(page.data[0]).toMatchObject({
      reason: OTHER,
      description: 'Newest one',
      outcome: 'pause',
      provider: 'card',
      cycle: 'month',
      member: { id: user.id, name: user.name, email: user.email },
    });
    expect(page.total).toBeGreaterThanOrEqual(1);
  });
});
