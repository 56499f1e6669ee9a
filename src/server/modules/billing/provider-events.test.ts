import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { CANCEL_REASONS, DEFAULT_CHECKOUT, SANDBOX_CARDS } from '#shared/commerce';
import { BILLING_MESSAGES, type BillingState } from '#shared/billing';
import { sandboxObjects, subscriptions } from '#server/db/schema/index';
import { signSandboxPayload, type SandboxProvider } from '#server/modules/payments/sandbox/index';
import type { SubscriptionState } from '#server/modules/payments/provider';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

// Subscription changes made at the provider and through the billing calls, with the sandbox clock
// moved between the steps: the app and the provider must say the same thing after every step, and
// provider events apply in the provider's order however they arrive (docs/product/billing-events.md).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const SECRET = 'whsec_sandbox_test';
const REASON = { reason: CANCEL_REASONS[0].value, reason_description: '' };
const LIVE = ['trialing', 'active', 'past_due'];
type Kind = 'card' | 'paypal';

const db = () => t.app.deps.db;
const payments = () => t.app.deps.services.payments;
const sandbox = () => payments().sandbox as SandboxProvider;
const entitled = async (userId: number) =>
  (await t.app.deps.services.users.activeEntitlements(userId)).includes('membership');
const subRow = async (id: number) => (await db().select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const billing = async (client: TestClient) => (await client.get('/api/billing')).json() as BillingState;
const advance = async (days: number) =>
  expect((await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { days } })).statusCode).toBe(
    200,
  );
const deliver = (body: string) =>
  t.app.inject({
    method: 'POST',
    url: '/webhooks/sandbox',
    payload: body,
    headers: { 'content-type': 'application/json', 'sandbox-signature': signSandboxPayload(SECRET, body) },
  });

async function authUser(id: number) {
  const { users } = t.app.deps.services;
  return users.toAuthUser((await users.findById(id))!);
}

/** a monthly member who paid by card (4242…) or through the sandbox's PayPal approval, as the checkout does */
async function member(kind: Kind) {
  const { user, client } = await t.signedIn();
  const me = await authUser(user.id);
  const key = `events:${user.id}:${kind}`;
  // every charge of the subscription carries the member, so the test can find their payments
  const metadata = { member: String(user.id) };
  const { order } = await payments().startOrder(me, {
    kind: 'membership',
    productSlug: 'academy',
    plan: 'monthly',
    amountCents: DEFAULT_CHECKOUT.monthlyPriceCents,
    provider: 'sandbox',
    affiliate: null,
    idempotencyKey: key,
    metadata: { payment_type: kind },
  });
  let state: SubscriptionState;
  if (kind === 'card') {
    const { clientSecret } = await sandbox().createCardSetup({
      email: me.email,
      name: me.name,
      idempotencyKey: `${key}:setup`,
      metadata: {},
    });
    const { paymentMethod } = await sandbox().confirmSetup({
      clientSecret,
      number: SANDBOX_CARDS.succeeds,
      expMonth: 12,
      expYear: 2040,
      cvc: '123',
      name: me.name,
    });
    state = await sandbox().subscribeCard({
      email: me.email,
      name: me.name,
      paymentMethod,
      priceCents: DEFAULT_CHECKOUT.monthlyPriceCents,
      interval: 'month',
      trialDays: 0,
      description: 'Backbeat membership',
      idempotencyKey: key,
      metadata,
    });
  } else {
    const approval = await sandbox().createPaypalSubscription({
      priceCents: DEFAULT_CHECKOUT.monthlyPriceCents,
      interval: 'month',
      trialDays: 0,
      description: 'Backbeat membership',
      returnUrl: '/order',
      cancelUrl: '/join',
      idempotencyKey: key,
      metadata,
    });
    await sandbox().approvePaypal(approval.ref);
    state = await sandbox().getSubscription(approval.ref);
  }
  const sub = await payments().recordSubscription(user.id, order.id, 'academy', 'sandbox', state);
  return { user, client, sub };
}

const PAUSE: Record<Kind, string> = {
  card: '/account/billing/stripe/pause',
  paypal: '/account/billing/paypal/suspend',
};
const CANCEL: Record<Kind, string> = {
  card: '/account/billing/stripe/cancel',
  paypal: '/account/billing/paypal/cancel',
};

/**
 * The app and the provider agree: the same status, and lessons open exactly while the membership
 * runs (live, or cancelled with paid time left); `samePeriod` once the app has just heard the provider.
 */
async function agree(sub: { id: number; userId: number; providerRef: string }, opts: { samePeriod?: boolean } = {}) {
  const provider = await sandbox().getSubscription(sub.providerRef);
  const row = await subRow(sub.id);
  expect(row.status, 'status in the app and at the provider').toBe(provider.status);
  if (opts.samePeriod) expect(row.currentPeriodEnd.getTime()).toBe(provider.currentPeriodEnd.getTime());
  const runs = LIVE.includes(row.status) || (row.status === 'canceled' && row.currentPeriodEnd > new Date());
  expect(await entitled(sub.userId), `membership while ${row.status}`).toBe(runs);
  return { row, provider };
}

/** the member's latest payment at the provider (the first charge or a renewal) */
async function lastCharge(userId: number) {
  const [row] = await db()
    .select({ id: sandboxObjects.id })
    .from(sandboxObjects)
    .where(
      and(
        eq(sandboxObjects.kind, 'charge'),
        sql`${sandboxObjects.data}->'metadata'->>'member' = ${String(userId)}`,
        sql`${sandboxObjects.data}->>'status' = 'succeeded'`,
      ),
    )
    .orderBy(desc(sandboxObjects.updatedAt))
    .limit(1);
  return row!.id;
}

describe.each(['card', 'paypal'] as const)(
  '%s: pause, resume, renew, refund and cancel with the clock moved between the steps',
  (kind) => {
    it.each([1, 5, 31, 365])('%i days between the steps', async (days) => {
      const { user, client, sub } = await member(kind);
      await advance(days);
      await agree(sub);

      // pause: the lessons lock, here and at the provider
      const paused = await client.post(PAUSE[kind], REASON);
      expect(paused.statusCode).toBe(200);
      expect(paused.json().message).toBe(BILLING_MESSAGES.pause);
      expect((await agree(sub, { samePeriod: true })).row.status).toBe('paused');

      // the member comes back days later: active again at the provider and here, lessons open
      await advance(days);
      expect((await agree(sub)).row.status).toBe('paused');
      const resumed = await client.post('/account/billing/resume', {});
      expect(resumed.statusCode).toBe(200);
      expect(resumed.json().message).toBe(BILLING_MESSAGES.resume);
      expect((await agree(sub, { samePeriod: true })).row.status).toBe('active');
      expect(await entitled(user.id)).toBe(true);
      expect((await billing(client)).subscription).toMatchObject({ status: 'active', pauseUsed: true });

      // resuming again is not "welcome back"; the pause was used
      const again = await client.post('/account/billing/resume', {});
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(BILLING_MESSAGES.notPaused);
      const pauseAgain = await client.post(PAUSE[kind], REASON);
      expect(pauseAgain.statusCode).toBe(409);
      expect(pauseAgain.json().message).toBe(BILLING_MESSAGES.pauseUsed);
      expect((await sandbox().getSubscription(sub.providerRef)).status).toBe('active');

      // renewals while the clock moves: whatever the provider charged, the app says the same
      await advance(days);
      const renewed = await agree(sub);
      expect(renewed.row.status).toBe('active');
      if (days >= 31) expect(renewed.row.currentPeriodEnd.getTime()).toBe(renewed.provider.currentPeriodEnd.getTime());

      // a refund of the latest payment is not a change of the subscription: nothing moves
      await sandbox().refund(await lastCharge(user.id), `events:refund:${user.id}`);
      expect((await agree(sub)).row.status).toBe('active');

      // cancel: card at the period end, PayPal at once (the paid period is kept); then the period runs out
      expect((await client.post(CANCEL[kind], REASON)).statusCode).toBe(200);
      const cancelled = await agree(sub);
      expect(cancelled.row.cancelAtPeriodEnd).toBe(true);
      expect(await entitled(user.id)).toBe(true);
      await advance(days);
      await agree(sub);
      await advance(days >= 31 ? days : 31);
      const ended = await agree(sub);
      expect(ended.row.status).toBe('canceled');
      // card: the provider ends it at the period end and says so; PayPal stopped at once, and the
      // membership lasts to the paid period end on the app's own calendar (agree checks it)
      if (kind === 'card') expect(await entitled(user.id)).toBe(false);
      expect((await client.post('/account/billing/resume', {})).statusCode).toBeGreaterThanOrEqual(400);
    });
  },
);

describe('provider events in the provider order', () => {
  /** the sandbox's events while `fn` runs, held back instead of delivered (in the order it sent them) */
  async function heldBack(fn: () => Promise<unknown>) {
    const since = new Date(Date.now() - 1000);
    const held: string[] = [];
    sandbox().setDeliverer(async (raw) => void held.push(raw.toString('utf8')));
    try {
      await fn();
    } finally {
      sandbox().setDeliverer(async (raw) => void (await deliver(raw.toString('utf8'))));
    }
    expect(held.length).toBeGreaterThan(0);
    // the same events are kept by the sandbox too
    const kept = await db()
      .select()
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.kind, 'event'), gt(sandboxObjects.createdAt, since)))
      .orderBy(asc(sandboxObjects.createdAt));
    expect(kept.length).toBeGreaterThanOrEqual(held.length);
    return held.filter((body) => (JSON.parse(body) as { type: string }).type.startsWith('subscription.'));
  }

  it.each(['card', 'paypal'] as const)(
    '%s: an older event delivered after a newer one is ignored (the clock moved between them)',
    async (kind) => {
      const { user, sub } = await member(kind);
      const [pausedEvent] = await heldBack(() =>
        sandbox().pause(sub.providerRef, { feeCents: 0 }, `events:p:${user.id}`),
      );
      await advance(5);
      const [resumedEvent] = await heldBack(() => sandbox().resume(sub.providerRef, `events:r:${user.id}`));
      expect(JSON.parse(pausedEvent!)).toMatchObject({ subscription: { status: 'paused' } });
      expect(JSON.parse(resumedEvent!)).toMatchObject({ subscription: { status: 'active' } });

      // the newer first, then the older one, late
      expect((await deliver(resumedEvent!)).json().result).toBe('applied');
      expect((await deliver(pausedEvent!)).json().result).toBe('applied');
      expect((await agree(sub, { samePeriod: true })).row.status).toBe('active');
      expect(await entitled(user.id)).toBe(true);
    },
  );

  it.each(['card', 'paypal'] as const)(
    '%s: two events of the same second apply in the order of their sequence',
    async (kind) => {
      const { user, sub } = await member(kind);
      const state = await sandbox().getSubscription(sub.providerRef);
      const { asOf, ...subscription } = state;
      const created = Math.floor(Date.now() / 1000) + 1;
      const sequence = asOf!.sequence + 10;
      const event = (id: string, seq: number, status: string) =>
        JSON.stringify({
          id,
          type: 'subscription.updated',
          created,
          sequence: seq,
          subscription: { ...subscription, status },
        });

      // sequence 12 (paused) arrives before sequence 11 (active) of the same second: paused it stays
      expect((await deliver(event(`evt_seq_b_${kind}`, sequence + 2, 'paused'))).json().result).toBe('applied');
      expect((await deliver(event(`evt_seq_a_${kind}`, sequence + 1, 'active'))).json().result).toBe('applied');
      expect((await subRow(sub.id)).status).toBe('paused');
      expect(await entitled(user.id)).toBe(false);

      // the next in the sequence, same second, still applies
      expect((await deliver(event(`evt_seq_c_${kind}`, sequence + 3, 'active'))).json().result).toBe('applied');
      expect((await subRow(sub.id)).status).toBe('active');
      expect(await entitled(user.id)).toBe(true);
    },
  );

  it('resume asks the provider first: one the app missed resuming is put right days later; then it is "not paused"', async () => {
    const { user, client, sub } = await member('card');
    expect((await client.post(PAUSE.card, REASON)).statusCode).toBe(200);
    await advance(5);
    // resumed at the provider, its event lost on the way
    await heldBack(() => sandbox().resume(sub.providerRef, `events:lost:${user.id}`));
    expect((await subRow(sub.id)).status).toBe('paused');
    // the member presses Resume: the provider runs it already, the app follows, and says so
    const res = await client.post('/account/billing/resume', {});
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BILLING_MESSAGES.resume);
    await agree(sub, { samePeriod: true });
    expect(await entitled(user.id)).toBe(true);
    // a second press (another tab) is told the truth
    const again = await client.post('/account/billing/resume', {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      message: BILLING_MESSAGES.notPaused,
      errors: { subscription: [BILLING_MESSAGES.notPaused] },
    });
  });

  it('a provider that answers the resume with a paused subscription: no "welcome back", nothing changes here', async () => {
    const { user, client, sub } = await member('paypal');
    expect((await client.post(PAUSE.paypal, REASON)).statusCode).toBe(200);
    const provider = sandbox();
    const resume = provider.resume;
    // the provider accepts the call but its subscription stays suspended
    provider.resume = (ref) => provider.getSubscription(ref);
    try {
      const res = await client.post('/account/billing/resume', {});
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe(BILLING_MESSAGES.resumeFailed);
    } finally {
      provider.resume = resume;
    }
    expect((await agree(sub)).row.status).toBe('paused');
    expect(await entitled(user.id)).toBe(false);
    // once the provider resumes it, so does the app
    expect((await client.post('/account/billing/resume', {})).statusCode).toBe(200);
    expect((await agree(sub)).row.status).toBe('active');
  });
});
