import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CANCEL_REASONS, DEFAULT_CHECKOUT, RETENTION, SANDBOX_CARDS } from '#shared/commerce';
import type { BillingState } from '#shared/billing';
import { courses, lessons, subscriptions, users } from '#server/db/schema/index';
import type { SandboxProvider } from '#server/modules/payments/sandbox/index';
import { createProductService } from '#server/modules/products/service';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

// GET /api/billing lists everything a member has (docs/product/billing-page.md): each bought,
// lifetime or granted membership, the mentorship with its instalment schedule, and courses, each
// with what can be done now. Every purchase goes through the routes a buyer's browser calls.

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  const mentor = await t.createUser({ name: 'Mia Mentor', role: 'admin' });
  await t.app.deps.db.update(users).set({ isMentor: true }).where(eq(users.id, mentor.id));
  admin = (await t.signedIn({ role: 'admin' })).client;
  const [c] = await t.app.deps.db
    .insert(courses)
    .values({ slug: 'double-kick-basics', title: 'Double Kick Basics', membersOnly: true })
    .returning();
  await t.app.deps.db.insert(lessons).values({
    courseId: c!.id,
    slug: 'one',
    title: 'Even singles',
    membersOnly: true,
    videoUrl: 'https://www.youtube-nocookie.com/embed/x',
  });
  await t.app.deps.db.insert(courses).values({ slug: 'fills-that-flow', title: 'Fills That Flow', membersOnly: true });
  await createProductService({
    db: t.app.deps.db,
    payments: t.app.deps.services.payments,
    users: t.app.deps.services.users,
  }).syncCatalogue();
});
afterAll(async () => t.close());

const DAY = 86_400_000;
const sandbox = () => t.app.deps.services.payments.providerFor('card') as unknown as SandboxProvider;
const billing = async (client: TestClient) => {
  const res = await client.get('/api/billing');
  expect(res.statusCode).toBe(200);
  return res.json() as BillingState;
};

/** the card form: a client secret from `secretUrl`, the sandbox confirms card 4242 */
async function card(client: TestClient, secretUrl = '/order/stripe-client-secret') {
  const res = secretUrl.startsWith('/api/') ? await client.post(secretUrl) : await client.get(secretUrl);
  const { paymentMethod } = await sandbox().confirmSetup({
    clientSecret: res.json().clientSecret,
    number: SANDBOX_CARDS.succeeds,
    expMonth: 12,
    expYear: 2040,
    cvc: '123',
    name: 'Ann Buyer',
  });
  return paymentMethod;
}

async function buyMembership(client: TestClient, plan: 'monthly' | 'yearly' | 'lifetime') {
  const res = await client.post('/order/stripe', { checkout: 'academy', plan, stripeToken: await card(client) });
  expect(res.statusCode, res.body).toBe(200);
}

describe('GET /api/billing: memberships', () => {
  it('a bought monthly membership: plan, price, next renewal, card, and cancel, pause, upgrade, change card', async () => {
    const { user, client } = await t.signedIn();
    await buyMembership(client, 'monthly');
    const [sub] = await t.app.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    const b = await billing(client);
    expect(b.memberships).toEqual([
      {
        key: `subscription:${sub!.id}`,
        source: 'subscription',
        title: 'Monthly membership',
        status: sub!.status,
        price: DEFAULT_CHECKOUT.monthlyPriceCents,
        currency: 'usd',
        cycle: 'month',
        since: sub!.createdAt.toISOString(),
        renewsAt: sub!.currentPeriodEnd.toISOString(),
        endsAt: null,
        grantedBy: null,
        paymentMethod: 'Visa ending 4242',
        subscriptionId: sub!.id,
        actions: ['upgrade', 'pause', 'cancel', 'change-card'],
      },
    ]);
    // the fields the page's modals read are still there
    expect(b.subscription).toMatchObject({ id: sub!.id, plan: 'monthly', provider: 'card' });
    expect(b.mentorships).toEqual([]);
    expect(b.courses).toEqual([]);
  });

  it('a paused membership offers resume and cancel, never upgrade or a second pause', async () => {
    const { client } = await t.signedIn();
    await buyMembership(client, 'monthly');
    const paused = await client.post('/account/billing/stripe/pause', {
      reason: CANCEL_REASONS[0].value,
      reason_description: '',
    });
    expect(paused.statusCode).toBe(200);
    const [m] = (await billing(client)).memberships;
    expect(m).toMatchObject({ status: 'paused', renewsAt: null, actions: ['resume', 'cancel'] });
  });

  it('a cancelled membership says when access ends and offers nothing to do', async () => {
    const { user, client } = await t.signedIn();
    await buyMembership(client, 'yearly');
    expect(
      (await client.post('/account/billing/stripe/cancel', { reason: CANCEL_REASONS[0].value, reason_description: '' }))
        .statusCode,
    ).toBe(200);
    const [sub] = await t.app.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    const [m] = (await billing(client)).memberships;
    expect(m).toMatchObject({
      title: 'Yearly membership',
      cycle: 'year',
      status: 'ending',
      renewsAt: null,
      endsAt: sub!.currentPeriodEnd.toISOString(),
      actions: [],
    });
  });

  it('a lifetime membership: the price paid once, no renewal, no end, nothing to cancel', async () => {
    const { client } = await t.signedIn();
    await buyMembership(client, 'lifetime');
    const b = await billing(client);
    expect(b.lifetime).toBe(true);
    expect(b.subscription).toBeNull();
    expect(b.memberships).toEqual([
      expect.objectContaining({
        source: 'lifetime',
        title: 'Lifetime membership',
        status: 'lifetime',
        price: RETENTION.defaultLifetimePriceCents,
        cycle: null,
        renewsAt: null,
        endsAt: null,
        paymentMethod: 'Visa ending 4242',
        actions: [],
      }),
    ]);
  });

  it('a membership granted by an admin, with its end date; and one without an end', async () => {
    const { user, client } = await t.signedIn();
    expect(
      (await admin.post(`/api/admin/members/${user.id}/entitlements`, { kind: 'membership', ends_at: '2031-03-04' }))
        .statusCode,
    ).toBe(201);
    let b = await billing(client);
    expect(b.memberships).toEqual([
      expect.objectContaining({
        source: 'granted',
        title: 'Membership',
        status: 'granted',
        price: null,
        renewsAt: null,
        endsAt: '2031-03-04T23:59:59.000Z',
        grantedBy: 'the Backbeat team',
        subscriptionId: null,
        actions: [],
      }),
    ]);
    expect(b.subscription).toBeNull();
    expect((await admin.post(`/api/admin/members/${user.id}/entitlements`, { kind: 'membership' })).statusCode).toBe(
      201,
    );
    b = await billing(client);
    expect(b.memberships.map((m) => m.endsAt)).toEqual(['2031-03-04T23:59:59.000Z', null]);
  });
});

describe('GET /api/billing: mentorship and courses', () => {
  it('a mentorship by 6 card instalments: paid, the next instalment date and amount, what remains', async () => {
    const { client } = await t.signedIn();
    const pm = await card(client);
    expect((await client.post('/mentorship/stripe/charge', { payment: '650', payment_method: pm })).json()).toEqual({
      url: '/mentorship',
    });
    const [m] = (await billing(client)).mentorships;
    expect(m).toMatchObject({
      title: 'Mentorship programme',
      paymentLabel: '6 monthly payments of $650.00',
      status: 'active',
      mentor: 'Mia Mentor',
      paid: 650_00,
      total: 3900_00,
      schedule: {
        amount: 650_00,
        paid: 1,
        total: 6,
        remaining: 3250_00,
        status: 'active',
        paymentMethod: 'Visa ending 4242',
      },
      actions: ['change-card'],
    });
    const next = new Date(m!.schedule!.nextDueAt!).getTime();
    expect(next).toBeGreaterThan(Date.now() + 27 * DAY);
    expect(next).toBeLessThan(Date.now() + 32 * DAY);
  });

  it('a mentorship paid in full: no schedule, nothing left to pay', async () => {
    const { client } = await t.signedIn();
    const pm = await card(client);
    expect((await client.post('/mentorship/stripe/charge', { payment: '3200', payment_method: pm })).json()).toEqual({
      url: '/mentorship',
    });
    expect((await billing(client)).mentorships).toEqual([
      expect.objectContaining({
        paymentLabel: 'Paid in full: $3,200.00',
        status: 'active',
        paid: 3200_00,
        total: 3200_00,
        schedule: null,
        actions: [],
      }),
    ]);
  });

  it('a mentorship granted by an admin', async () => {
    const { user, client } = await t.signedIn();
    expect(
      (await admin.post(`/api/admin/members/${user.id}/entitlements`, { kind: 'mentorship', ends_at: '2030-01-31' }))
        .statusCode,
    ).toBe(201);
    expect((await billing(client)).mentorships).toEqual([
      expect.objectContaining({
        paymentLabel: 'Granted',
        status: 'granted',
        total: null,
        endsAt: '2030-01-31T23:59:59.000Z',
        schedule: null,
        actions: [],
      }),
    ]);
  });

  it('courses owned: a bought tier with its price, and a granted course', async () => {
    const { user, client } = await t.signedIn();
    const stripeToken = await card(client, '/api/products/doublekick_265/card/client-secret');
    expect(
      (await client.post('/api/products/doublekick_265/card', { stripeToken, idempotency_key: 'holdings' })).statusCode,
    ).toBe(200);
    expect(
      (await admin.post(`/api/admin/members/${user.id}/entitlements`, { kind: 'course:fills-that-flow' })).statusCode,
    ).toBe(201);
    const b = await billing(client);
    expect(b.courses).toEqual([
      expect.objectContaining({
        title: 'Double Kick Basics',
        level: 'Pro',
        url: '/courses/double-kick-basics',
        source: 'bought',
        price: 165_00,
        currency: 'usd',
      }),
      expect.objectContaining({
        key: 'course:fills-that-flow',
        title: 'Fills That Flow',
        level: null,
        url: '/courses/fills-that-flow',
        source: 'granted',
        price: null,
      }),
    ]);
    // owning a course is not a membership
    expect(b.memberships).toEqual([]);
  });
});
