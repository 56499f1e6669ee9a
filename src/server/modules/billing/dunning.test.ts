import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { COMMERCE_MESSAGES, DEFAULT_CHECKOUT, SANDBOX_CARDS } from '#shared/commerce';
import type { BillingState } from '#shared/billing';
import { DUNNING_MESSAGES, DUNNING_RETRY_DAYS } from '#shared/dunning';
import { notifications, sandboxObjects } from '#server/db/schema/index';
import type { SandboxProvider } from '#server/modules/payments/sandbox/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

// Recovery from a failed membership payment (docs/product/dunning.md) through the API, with the
// sandbox provider and its clock: the retries on days 3, 5 and 7, a new card and "Pay now", the end
// of the membership when the last retry fails, and PayPal's way to fix the funding source.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const DAY = 86_400_000;
const MONTHLY = DEFAULT_CHECKOUT.monthlyPriceCents;
const db = () => t.app.deps.db;
const payments = () => t.app.deps.services.payments;
const sandbox = () => payments().providerFor('card') as unknown as SandboxProvider;
const billing = async (client: TestClient) => (await client.get('/api/billing')).json() as BillingState;
const hasMembership = async (userId: number) =>
  (await t.app.deps.services.users.activeEntitlements(userId)).includes('membership');
async function authUser(id: number) {
  const { users } = t.app.deps.services;
  return users.toAuthUser((await users.findById(id))!);
}
/** `iso` is `days` from now, give or take a minute (the sandbox reports its clock as time from now) */
const daysFromNow = (iso: string | null | undefined, days: number) => {
  expect(iso).toBeTruthy();
  expect(Math.abs(new Date(iso!).getTime() - (Date.now() + days * DAY))).toBeLessThan(60_000);
};
/** the sandbox's charges for one order's subscription */
const chargesOf = async (orderId: number) =>
  (
    await db()
      .select()
      .from(sandboxObjects)
      .where(
        and(
          eq(sandboxObjects.kind, 'charge'),
          sql`${sandboxObjects.data}->'metadata'->>'order_id' = ${String(orderId)}`,
        ),
      )
  ).length;

/** the sandbox clock moves to a second after the subscription's period ends: the renewal is charged (and fails) just now */
async function untilRenewal(ref: string) {
  const [row] = await db().select().from(sandboxObjects).where(eq(sandboxObjects.id, ref));
  const periodEnd = Number((row!.data as { periodEnd: number }).periodEnd);
  await sandbox().advanceClock((periodEnd - (await sandbox().now())) / DAY + 1 / 86_400);
}

/** a member on the monthly plan's free trial with the card that attaches but fails every renewal */
async function failingCardMember() {
  const { user, client } = await t.signedIn();
  const me = await authUser(user.id);
  const card = sandbox();
  const key = `dunning:${user.id}`;
  const { clientSecret } = await card.createCardSetup({
    email: me.email,
    name: me.name,
    idempotencyKey: `${key}:setup`,
    metadata: {},
  });
  const confirmed = await card.confirmSetup({
    clientSecret,
    number: SANDBOX_CARDS.failsLater,
    expMonth: 12,
    expYear: 2040,
    cvc: '123',
    name: me.name,
  });
  const { order } = await payments().startOrder(me, {
    kind: 'membership',
    productSlug: 'academy',
    plan: 'monthly',
    amountCents: MONTHLY,
    provider: 'sandbox',
    affiliate: null,
    idempotencyKey: key,
    metadata: { payment_type: 'card' },
  });
  const state = await card.subscribeCard({
    email: me.email,
    name: me.name,
    paymentMethod: confirmed.paymentMethod,
    priceCents: MONTHLY,
    interval: 'month',
    trialDays: DEFAULT_CHECKOUT.monthlyTrialDays,
    description: 'Backbeat membership',
    idempotencyKey: key,
    metadata: { order_id: String(order.id) },
  });
  const sub = await payments().recordSubscription(user.id, order.id, 'academy', 'sandbox', state);
  return { user, client, sub, order };
}

/** the trial ends and the first payment fails */
async function pastDueCardMember() {
  const m = await failingCardMember();
  await untilRenewal(m.sub.providerRef);
  return m;
}

describe('the retry schedule', () => {
  it('retries on days 3, 5 and 7 with lessons open, then ends the membership; nothing is tried on day 8', async () => {
    expect(DUNNING_RETRY_DAYS).toEqual([3, 5, 7]);
    const { user, client, order } = await pastDueCardMember();

    // day 0: the payment failed
    let b = await billing(client);
    expect(b.subscription).toMatchObject({ status: 'past_due', ended: null });
    expect(b.subscription!.pastDue).toMatchObject({
      amount: MONTHLY,
      currency: 'usd',
      retriesDone: 0,
      retriesTotal: 3,
      fixUrl: null,
    });
    daysFromNow(b.subscription!.pastDue!.nextRetryAt, 3);
    daysFromNow(b.subscription!.pastDue!.graceEndsAt, 7);
    // the next charge is the retry
    expect(b.subscription!.nextBillingDate).toBe(b.subscription!.pastDue!.nextRetryAt);
    expect(await hasMembership(user.id)).toBe(true);
    expect(b.invoices[0]).toMatchObject({ amount: MONTHLY, status: 'failed' });

    // day 3: the first retry fails, the next is on day 5
    await sandbox().advanceClock(3);
    b = await billing(client);
    expect(b.subscription).toMatchObject({ status: 'past_due', pastDue: { retriesDone: 1 } });
    daysFromNow(b.subscription!.pastDue!.nextRetryAt, 2);
    daysFromNow(b.subscription!.pastDue!.graceEndsAt, 4);
    expect(await hasMembership(user.id)).toBe(true);

    // day 5: the second retry fails, the last one is on day 7
    await sandbox().advanceClock(2);
    b = await billing(client);
    expect(b.subscription).toMatchObject({ status: 'past_due', pastDue: { retriesDone: 2 } });
    daysFromNow(b.subscription!.pastDue!.nextRetryAt, 2);
    daysFromNow(b.subscription!.pastDue!.graceEndsAt, 2);
    expect(await hasMembership(user.id)).toBe(true);

    // day 7: the last retry fails: the membership ends, and the page says why
    await sandbox().advanceClock(2);
    b = await billing(client);
    expect(b.subscription).toMatchObject({
      status: 'canceled',
      pastDue: null,
      ended: { amount: MONTHLY, currency: 'usd' },
    });
    expect(await hasMembership(user.id)).toBe(false);
    // told twice: when the payment failed (with the retry and the grace), and when the membership ended
    const notes = (await db().select().from(notifications).where(eq(notifications.userId, user.id))).map((n) => n.body);
    expect(notes).toHaveLength(2);
    expect(
      notes.some((n) => n.includes('We will try again automatically on') && n.includes('Your lessons stay open until')),
    ).toBe(true);
    expect(notes.some((n) => n.includes('Your membership ended on') && n.includes('$29.00 after 3 retries'))).toBe(
      true,
    );
    const charges = await chargesOf(order.id);
    expect(charges).toBe(4); // the renewal and three retries

    // day 8: no more attempts; still ended; one invoice for the period, failed
    await sandbox().advanceClock(1);
    b = await billing(client);
    expect(b.subscription).toMatchObject({ status: 'canceled', ended: { amount: MONTHLY } });
    expect(await chargesOf(order.id)).toBe(charges);
    expect(await hasMembership(user.id)).toBe(false);
    expect(b.invoices.filter((i) => i.status === 'failed')).toHaveLength(1);

    // the unpaid month was never theirs: they may join again
    const me = await authUser(user.id);
    const again = await payments().startOrder(
      me,
      {
        kind: 'membership',
        productSlug: 'academy',
        plan: 'monthly',
        amountCents: MONTHLY,
        provider: 'sandbox',
        affiliate: null,
        idempotencyKey: `rejoin:${user.id}`,
      },
      { hold: true },
    );
    expect(again.created).toBe(true);
  });
});

describe('a new card, then Pay now', () => {
  it('updates the card through the setup flow and collects the payment at once: active again', async () => {
    const { user, client, sub, order } = await pastDueCardMember();
    const setup = await client.post('/account/billing/card/setup', {});
    expect(setup.statusCode).toBe(200);
    const { clientSecret } = setup.json() as { clientSecret: string };
    const confirmed = await sandbox().confirmSetup({
      clientSecret,
      number: SANDBOX_CARDS.succeeds,
      expMonth: 12,
      expYear: 2040,
      cvc: '123',
      name: 'Ann',
    });

    const updated = await client.post('/account/billing/card', {
      payment_method: confirmed.paymentMethod,
      idempotency_key: 'card-1',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().message).toBe(DUNNING_MESSAGES.cardUpdated);
    let b = await billing(client);
    expect(b.subscription).toMatchObject({ id: sub.id, status: 'past_due', paymentMethod: 'Visa ending 4242' });

    const paid = await client.post('/account/billing/pay-now', { idempotency_key: 'pay-1' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().message).toBe(DUNNING_MESSAGES.paid);
    b = await billing(client);
    expect(b.subscription).toMatchObject({ status: 'active', pastDue: null, ended: null });
    expect(new Date(b.subscription!.nextBillingDate).getTime()).toBeGreaterThan(Date.now() + 20 * DAY);
    expect(await hasMembership(user.id)).toBe(true);
    // the invoice that failed is the one paid
    expect(b.invoices.filter((i) => i.amount === MONTHLY).map((i) => i.status)).toEqual(['paid']);

    // no automatic retry follows a paid invoice
    const charges = await chargesOf(order.id);
    await sandbox().advanceClock(3);
    expect(await chargesOf(order.id)).toBe(charges);
    expect((await billing(client)).subscription).toMatchObject({ status: 'active' });

    // nothing is due any more
    const again = await client.post('/account/billing/pay-now', { idempotency_key: 'pay-2' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(DUNNING_MESSAGES.notPastDue);
  });

  it('answers the decline when the card on file still fails, and keeps the schedule', async () => {
    const { user, client } = await pastDueCardMember();
    const before = (await billing(client)).subscription!.pastDue!;
    const res = await client.post('/account/billing/pay-now', {});
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: COMMERCE_MESSAGES.cardDeclined,
      errors: { payment: [COMMERCE_MESSAGES.cardDeclined] },
    });
    const after = (await billing(client)).subscription!;
    expect(after.status).toBe('past_due');
    expect(after.pastDue).toMatchObject({
      retriesDone: 0,
      nextRetryAt: before.nextRetryAt,
      graceEndsAt: before.graceEndsAt,
    });
    expect(await hasMembership(user.id)).toBe(true);
  });

  it('offers no upgrade to a member with a payment due', async () => {
    const { client } = await pastDueCardMember();
    for (const call of ['upgrade-yearly', 'upgrade-lifetime']) {
      const res = await client.post(`/account/billing/stripe/${call}`, {});
      expect(res.statusCode, call).toBe(409);
      expect(res.json().message).toBe(DUNNING_MESSAGES.settleFirst);
    }
    expect((await billing(client)).subscription).toMatchObject({ status: 'past_due', plan: 'monthly' });
  });

  it('refuses a missing card, a visitor, and a member without a membership', async () => {
    const { client } = await pastDueCardMember();
    const missing = await client.post('/account/billing/card', { payment_method: '  ' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.payment_method).toEqual(['Please enter your card details.']);
    const unknown = await client.post('/account/billing/card', { payment_method: 'pm_nope' });
    expect(unknown.statusCode).toBe(422);
    expect((await billing(client)).subscription!.paymentMethod).toBe('Visa ending 0341');

    const visitor = await t.client();
    for (const url of ['/account/billing/card/setup', '/account/billing/card', '/account/billing/pay-now'])
      expect((await visitor.post(url, {})).statusCode, url).toBe(401);
    const { client: nobody } = await t.signedIn();
    expect((await nobody.post('/account/billing/pay-now', {})).json().message).toBe(COMMERCE_MESSAGES.noSubscription);
    expect((await nobody.post('/account/billing/card/setup', {})).statusCode).toBe(404);
  });
});

describe('PayPal', () => {
  it('sends a past-due PayPal member to PayPal to fix the funding source, then the payment is collected', async () => {
    const { user, client } = await t.signedIn();
    const me = await authUser(user.id);
    const paypal = payments().providerFor('paypal') as unknown as SandboxProvider;
    const key = `dunning:${user.id}:paypal`;
    const { order } = await payments().startOrder(me, {
      kind: 'membership',
      productSlug: 'academy',
      plan: 'monthly',
      amountCents: MONTHLY,
      provider: 'sandbox',
      affiliate: null,
      idempotencyKey: key,
      metadata: { payment_type: 'paypal' },
    });
    const approval = await paypal.createPaypalSubscription({
      priceCents: MONTHLY,
      interval: 'month',
      trialDays: DEFAULT_CHECKOUT.monthlyTrialDays,
      description: 'Backbeat membership',
      returnUrl: '/order',
      cancelUrl: '/join',
      idempotencyKey: key,
      metadata: {},
    });
    await paypal.approvePaypal(approval.ref);
    await payments().recordSubscription(
      user.id,
      order.id,
      'academy',
      'sandbox',
      await paypal.getSubscription(approval.ref),
    );
    // the buyer's PayPal balance and card stop paying
    expect(
      (await (await t.client()).post(`/sandbox/test/paypal/${approval.ref}/funding`, { fails: true }, { csrf: false }))
        .statusCode,
    ).toBe(200);

    await untilRenewal(approval.ref);
    let b = await billing(client);
    expect(b.subscription).toMatchObject({
      provider: 'paypal',
      status: 'past_due',
      pastDue: { amount: MONTHLY, fixUrl: `/sandbox/paypal/approve/${approval.ref}` },
    });
    daysFromNow(b.subscription!.pastDue!.nextRetryAt, 3);
    // a card is not how a PayPal membership is fixed; Pay now without fixing PayPal is declined
    expect((await client.post('/account/billing/card/setup', {})).statusCode).toBe(404);
    expect((await client.post('/account/billing/pay-now', {})).statusCode).toBe(422);

    // at PayPal (the sandbox's approval page) the member chooses a way to pay that works
    expect(await paypal.approvalInfo(approval.ref)).toMatchObject({ status: 'pending', amountCents: MONTHLY });
    expect(await paypal.approvePaypal(approval.ref)).toBe('/account/billing?paypal=fixed');
    b = await billing(client);
    expect(b.subscription).toMatchObject({ status: 'active', pastDue: null });
    expect(await hasMembership(user.id)).toBe(true);
  });
});
