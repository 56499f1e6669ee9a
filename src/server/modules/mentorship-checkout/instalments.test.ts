import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { SANDBOX_CARDS } from '#shared/commerce';
import { MENTORSHIP_GRACE_DAYS } from '#shared/mentorship';
import {
  instalmentPayments,
  instalmentPlans,
  mentorships,
  notifications,
  sandboxObjects,
  users,
} from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

// The sandbox clock is one per app: each describe has its own app so that moving the clock for
// one plan does not renew another test's subscriptions.

const DAY = 86_400_000;
let keys = 0;
const key = () => `attempt-${Date.now()}-${++keys}-instalments`;

async function setup() {
  const t = await createTestApp();
  const admins = [
    await t.createUser({ name: 'Mia Mentor', role: 'admin' }),
    await t.createUser({ name: 'Ada Admin', role: 'admin' }),
  ];
  await t.app.deps.db.update(users).set({ isMentor: true }).where(eq(users.id, admins[0]!.id));
  return { t, admins };
}

function helpers(t: TestApp) {
  const db = () => t.app.deps.db;
  return {
    db,
    access: async (userId: number) =>
      (await t.app.deps.services.users.activeEntitlements(userId)).includes('mentorship'),
    plan: async (userId: number) =>
      (await db().select().from(instalmentPlans).where(eq(instalmentPlans.userId, userId)))[0]!,
    payments: async (planId: number, status: 'paid' | 'failed') =>
      (
        await db()
          .select()
          .from(instalmentPayments)
          .where(and(eq(instalmentPayments.planId, planId), eq(instalmentPayments.status, status)))
      ).length,
    sandboxSub: async (ref: string) =>
      (await db().select().from(sandboxObjects).where(eq(sandboxObjects.id, ref)))[0]!.data as {
        status: string;
        paymentMethod: string | null;
      },
    mentorship: async (userId: number) =>
      (await db().select().from(mentorships).where(eq(mentorships.studentId, userId)))[0]!,
    notes: (userId: number) =>
      db()
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.area, 'mentorship'))),
    charges: async () => (await db().select().from(sandboxObjects).where(eq(sandboxObjects.kind, 'charge'))).length,
    advance: async (client: TestClient, days: number) => {
      const res = await client.post('/sandbox/clock/advance', { days }, { csrf: false });
      expect(res.statusCode).toBe(200);
    },
    /** the sandbox card of a plan now fails every charge (as 4000 0000 0000 0341 does), or works again */
    cardFails: async (ref: string, fails: boolean) => {
      const sub = (await db().select().from(sandboxObjects).where(eq(sandboxObjects.id, ref)))[0]!.data as {
        paymentMethod: string;
      };
      await db()
        .update(sandboxObjects)
        .set({ data: sql`jsonb_set(${sandboxObjects.data}, '{failsLater}', ${fails ? 'true' : 'false'}::jsonb)` })
        .where(eq(sandboxObjects.id, sub.paymentMethod));
    },
    cardPlan: async (client: TestClient, payment: '1800' | '1300' | '650') => {
      const secret = (await client.get('/order/stripe-client-secret')).json().clientSecret;
      const pm = (
        await client.post('/sandbox/setup-intents/confirm', {
          client_secret: secret,
          number: SANDBOX_CARDS.succeeds,
          exp_month: 12,
          exp_year: new Date().getUTCFullYear() + 3,
          cvc: '123',
        })
      ).json().payment_method;
      const res = await client.post('/mentorship/stripe/charge', { payment, payment_method: pm });
      expect(res.json()).toEqual({ url: '/mentorship' });
    },
  };
}

describe('PayPal 6 payments on the sandbox clock', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = (await setup()).t;
  });
  afterAll(async () => t.close());

  it('completes after 6 paid instalments: the PayPal subscription is cancelled, access kept, nothing more charged', async () => {
    const h = helpers(t);
    const { user, client } = await t.signedIn();
    const ref = (await client.post('/mentorship/paypal/subscription', { plan: '6', idempotency_key: key() }))
      .json()
      .url.split('/')
      .pop();
    await client.post(`/sandbox/paypal/approve/${ref}`, {}, { csrf: false });
    expect(
      (await client.post('/mentorship/payment-plan', { agreement_id: ref, name: 'Sam', email: 'sam@example.test' }))
        .statusCode,
    ).toBe(200);
    for (let month = 2; month <= 6; month++) {
      await h.advance(client, 31);
      const plan = await h.plan(user.id);
      expect(plan.instalmentsPaid, `month ${month}`).toBe(month);
    }
    const done = await h.plan(user.id);
    expect(done).toMatchObject({ status: 'completed', instalmentsPaid: 6, nextDueAt: null });
    expect(await h.payments(done.id, 'paid')).toBe(6);
    expect((await h.sandboxSub(ref)).status).toBe('canceled');
    expect((await h.mentorship(user.id)).status).toBe('completed');
    expect(await h.access(user.id)).toBe(true);
    expect((await h.notes(user.id)).some((n) => n.body.includes('all <strong>6</strong> payments are complete'))).toBe(
      true,
    );
    // months later: no seventh payment, access for good
    const charges = await h.charges();
    await h.advance(client, 62);
    expect(await h.charges()).toBe(charges);
    expect((await h.plan(user.id)).instalmentsPaid).toBe(6);
    expect(await h.access(user.id)).toBe(true);
  });
});

describe('card instalments on the sandbox clock', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = (await setup()).t;
  });
  afterAll(async () => t.close());

  it('1800: 2 monthly payments, then the card subscription is cancelled', async () => {
    const h = helpers(t);
    const { user, client } = await t.signedIn();
    await h.cardPlan(client, '1800');
    expect(await h.plan(user.id)).toMatchObject({
      option: 'card1800',
      instalmentsTotal: 2,
      instalmentsPaid: 1,
      amountCents: 180000,
      paymentMethod: 'Visa ending 4242',
    });
    await h.advance(client, 31);
    const done = await h.plan(user.id);
    expect(done).toMatchObject({ status: 'completed', instalmentsPaid: 2 });
    expect((await h.sandboxSub(done.providerRef)).status).toBe('canceled');
    const charges = await h.charges();
    await h.advance(client, 31);
    expect(await h.charges()).toBe(charges);
    expect(await h.access(user.id)).toBe(true);
  });
});

describe('a missed instalment, the grace period, recovery and cancellation', () => {
  let t: TestApp;
  let admins: { id: number }[];
  beforeAll(async () => {
    ({ t, admins } = await setup());
  });
  afterAll(async () => t.close());

  it('missed: student and every admin told, access kept in grace; the sweep defaults it later; a paid retry restores it', async () => {
    const h = helpers(t);
    const { user, client } = await t.signedIn({ name: 'Sam Student' });
    await h.cardPlan(client, '650');
    const plan = await h.plan(user.id);
    await h.cardFails(plan.providerRef, true);
    await h.advance(client, 31);
    const missed = await h.plan(user.id);
    expect(missed).toMatchObject({ status: 'past_due', instalmentsPaid: 1 });
    expect(missed.pastDueSince).toBeInstanceOf(Date);
    expect(await h.payments(plan.id, 'failed')).toBe(1);
    expect((await h.mentorship(user.id)).status).toBe('past_due');
    expect(await h.access(user.id)).toBe(true);
    const studentNote = (await h.notes(user.id)).find((n) => n.body.includes('could not collect'));
    expect(studentNote?.body).toContain('$650.00');
    expect(studentNote?.body).toContain('payment 2 of 6');
    expect(studentNote?.body).toContain(`${MENTORSHIP_GRACE_DAYS} days`);
    expect(studentNote?.url).toBe('/mentorship/account');
    for (const admin of admins) {
      const note = (await h.notes(admin.id)).find((n) => n.body.includes('missed a mentorship payment'));
      expect(note?.body).toContain('Sam Student');
      expect(note?.body).toContain('payment 2 of 6');
      expect(note?.url).toBe(`/mentorship/students/${user.id}`);
    }

    const { instalments } = t.app.deps.services.mentorshipCheckout;
    // inside the grace period nothing changes
    expect(await instalments.sweep(new Date(Date.now() + (MENTORSHIP_GRACE_DAYS - 1) * DAY))).toBe(0);
    expect(await h.access(user.id)).toBe(true);
    // after it: defaulted, access removed, both told (once, however often the sweep runs)
    const later = new Date(Date.now() + (MENTORSHIP_GRACE_DAYS + 1) * DAY);
    expect(await instalments.sweep(later)).toBe(1);
    expect(await instalments.sweep(later)).toBe(0);
    expect((await h.plan(user.id)).status).toBe('defaulted');
    expect((await h.mentorship(user.id)).status).toBe('defaulted');
    expect(await h.access(user.id)).toBe(false);
    expect((await h.notes(user.id)).filter((n) => n.body.includes('access is paused'))).toHaveLength(1);
    for (const admin of admins)
      expect((await h.notes(admin.id)).filter((n) => n.body.includes('access is paused'))).toHaveLength(1);

    // the card works again: the provider's retry succeeds and access comes back
    await h.cardFails(plan.providerRef, false);
    await h.advance(client, 3);
    expect(await h.plan(user.id)).toMatchObject({ status: 'active', instalmentsPaid: 2, pastDueSince: null });
    expect((await h.mentorship(user.id)).status).toBe('active');
    expect(await h.access(user.id)).toBe(true);
    expect((await h.notes(user.id)).some((n) => n.body.includes('access is active again'))).toBe(true);
  });

  it('the provider cancels before the last payment (retries ran out): access removed, both told', async () => {
    const h = helpers(t);
    const { user, client } = await t.signedIn({ name: 'Lee Late' });
    await h.cardPlan(client, '1300');
    const plan = await h.plan(user.id);
    await h.cardFails(plan.providerRef, true);
    await h.advance(client, 31);
    expect((await h.plan(user.id)).status).toBe('past_due');
    // the provider's last retry (DUNNING_RETRY_DAYS: 7 days after the failure) fails too
    await h.advance(client, 7);
    expect((await h.sandboxSub(plan.providerRef)).status).toBe('canceled');
    expect(await h.plan(user.id)).toMatchObject({ status: 'canceled', instalmentsPaid: 1 });
    expect((await h.mentorship(user.id)).status).toBe('canceled');
    expect(await h.access(user.id)).toBe(false);
    expect((await h.notes(user.id)).some((n) => n.body.includes('was cancelled after 1 of 3 payments'))).toBe(true);
    for (const admin of admins)
      expect(
        (await h.notes(admin.id)).some(
          (n) => n.body.includes('Lee Late') && n.body.includes('cancelled at the provider'),
        ),
      ).toBe(true);
    // a new purchase is possible again
    const pm = (
      await client.post('/sandbox/setup-intents/confirm', {
        client_secret: (await client.get('/order/stripe-client-secret')).json().clientSecret,
        number: SANDBOX_CARDS.succeeds,
        exp_month: 12,
        exp_year: 2040,
        cvc: '123',
      })
    ).json().payment_method;
    expect((await client.post('/mentorship/stripe/charge', { payment: '3200', payment_method: pm })).json()).toEqual({
      url: '/mentorship',
    });
    expect((await h.mentorship(user.id)).status).toBe('active');
    expect(await h.access(user.id)).toBe(true);
  });
});
