/* eslint-disable max-lines -- the payments ledger's rules, sharing the provider fake and members set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#test/api-harness';
import {
  invoices,
  notifications,
  orders,
  products,
  subscriptions,
  webhookEvents,
  entitlements,
} from '#server/db/schema/index';
import { COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import type { AuthUser } from '#server/types';
import { signSandboxPayload } from './sandbox/index.ts';
import { HOLD_MINUTES } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const svc = () => t.app.deps.services.payments;
const sandbox = () => svc().sandbox!;
const db = () => t.app.deps.db;
const DAY = 86_400_000;

async function authUser(id: number): Promise<AuthUser> {
  const row = await t.app.deps.services.users.findById(id);
  return t.app.deps.services.users.toAuthUser(row!);
}
const ents = (userId: number) => t.app.deps.services.users.activeEntitlements(userId);

/** a confirmed sandbox payment method for a card number, as the card form makes it */
async function paymentMethod(number: string = SANDBOX_CARDS.succeeds) {
  const { clientSecret } = await sandbox().createCardSetup({
    email: 'a@b.test',
    name: 'Ann',
    idempotencyKey: `setup-${Math.random()}`,
    metadata: {},
  });
  const client = await t.client();
  const res = await client.post('/sandbox/setup-intents/confirm', {
    client_secret: clientSecret,
    number,
    exp_month: 12,
    exp_year: new Date().getFullYear() + 2,
    cvc: '123',
    name: 'Ann',
  });
  return {
    res,
    body: res.json() as {
      payment_method?: string;
      requires_action?: boolean;
      url?: string;
      error?: { message: string };
    },
  };
}

async function webhook(body: string, signature: string) {
  return t.app.inject({
    method: 'POST',
    url: '/webhooks/sandbox',
    payload: body,
    headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
  });
}

describe('sandbox card setup', () => {
  it('confirms 4242, declines 0002, asks 3155 to authenticate, checks Luhn and expiry', async () => {
    const ok = await paymentMethod();
    expect(ok.res.statusCode).toBe(200);
    expect(ok.body.payment_method).toMatch(/^pm_/);

    const declined = await paymentMethod(SANDBOX_CARDS.declined);
    expect(declined.res.statusCode).toBe(402);
    expect(declined.body.error?.message).toBe('Your card was declined.');

    const auth = await paymentMethod(SANDBOX_CARDS.needsAuthentication);
    expect(auth.body).toMatchObject({
      requires_action: true,
      url: `/sandbox/authenticate/${auth.body.payment_method}`,
    });
    const pm = auth.body.payment_method!;
    const charge = await sandbox().chargeCard({
      email: 'a@b.test',
      name: 'Ann',
      paymentMethod: pm,
      amountCents: 100,
      description: 'x',
      idempotencyKey: 'c-auth-1',
      metadata: {},
    });
    expect(charge.status).toBe('requires_action');
    const client = await t.client();
    expect((await client.post(`/sandbox/authenticate/${pm}`, { outcome: 'fail' })).statusCode).toBe(402);
    expect((await client.post(`/sandbox/authenticate/${pm}`, { outcome: 'complete' })).json()).toEqual({
      payment_method: pm,
    });
    const after = await sandbox().chargeCard({
      email: 'a@b.test',
      name: 'Ann',
      paymentMethod: pm,
      amountCents: 100,
      description: 'x',
      idempotencyKey: 'c-auth-2',
      metadata: {},
    });
    expect(after).toMatchObject({ status: 'succeeded', paymentMethodLabel: 'Visa ending 3155' });

    const bad = await paymentMethod('4242424242424241');
    expect(bad.res.statusCode).toBe(402);
    expect(bad.body.error?.message).toBe('Your card number is invalid.');
    const { clientSecret } = await sandbox().createCardSetup({
      email: 'a@b.test',
      name: 'Ann',
      idempotencyKey: 'setup-expired',
      metadata: {},
    });
    const expired = await (
      await t.client()
    ).post('/sandbox/setup-intents/confirm', {
      client_secret: clientSecret,
      number: SANDBOX_CARDS.succeeds,
      exp_month: 1,
      exp_year: 2020,
      cvc: '123',
      name: 'Ann',
    });
    expect(expired.statusCode).toBe(402);
    expect(expired.json().error.message).toBe("Your card's expiration date is invalid.");
    const wrongSecret = await (
      await t.client()
    ).post('/sandbox/setup-intents/confirm', {
      client_secret: 'seti_nope_secret_x',
      number: SANDBOX_CARDS.succeeds,
      exp_month: 1,
      exp_year: 2099,
      cvc: '123',
      name: 'Ann',
    });
    expect(wrongSecret.statusCode).toBe(404);
  });

  it('answers the same charge for the same idempotency key', async () => {
    const pm = (await paymentMethod()).body.payment_method!;
    const input = {
      email: 'a@b.test',
      name: 'Ann',
      paymentMethod: pm,
      amountCents: 500,
      description: 'x',
      idempotencyKey: 'same-key',
      metadata: {},
    };
    const [a, b] = [await sandbox().chargeCard(input), await sandbox().chargeCard(input)];
    expect(a.ref).toBe(b.ref);
  });
});

describe('ledger: orders', () => {
  it('startOrder answers the existing order for the same key; markOrderPaid twice grants once', async () => {
    const u = await t.createUser();
    const user = await authUser(u.id);
    const input = {
      kind: 'membership' as const,
      productSlug: 'academy',
      plan: 'lifetime' as const,
      amountCents: 750_00,
      provider: 'sandbox' as const,
      affiliate: null,
      idempotencyKey: `k-${u.id}`,
    };
    const first = await svc().startOrder(user, input);
    const again = await svc().startOrder(user, input);
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, order: { id: first.order.id } });
    const other = await authUser((await t.createUser()).id);
    await expect(svc().startOrder(other, input)).rejects.toMatchObject({ statusCode: 409 });

    const pm = (await paymentMethod()).body.payment_method!;
    const charge = await sandbox().chargeCard({
      email: u.email,
      name: u.name,
      paymentMethod: pm,
      amountCents: 750_00,
      description: 'Lifetime',
      idempotencyKey: `charge-${first.order.id}`,
      metadata: { orderId: String(first.order.id) },
    });
    expect(charge.status).toBe('succeeded');
    // the sandbox's charge.succeeded webhook already applied it
    expect((await svc().findOrder(first.order.id))?.status).toBe('paid');
    const paid = await svc().markOrderPaid(first.order.id, charge);
    await svc().markOrderPaid(first.order.id, charge);
    expect(paid.status).toBe('paid');
    const rows = await db().select().from(entitlements).where(eq(entitlements.userId, u.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'membership', source: `order:${first.order.id}`, endsAt: null });
    expect(await db().select().from(invoices).where(eq(invoices.orderId, first.order.id))).toHaveLength(1);
    expect(await ents(u.id)).toEqual(['membership']);
  });

  it('sells the last spot once: two concurrent buyers, one paid, one sold out and refunded', async () => {
    await db()
      .insert(products)
      .values({ slug: 'one-spot', title: 'One spot', courseId: 77, level: 'pro', priceCents: 100_00, spots: 1 });
    const buyers = await Promise.all([t.createUser(), t.createUser()]);
    const started = await Promise.all(
      buyers.map(async (b) => {
        const user = await authUser(b.id);
        const { order } = await svc().startOrder(user, {
          kind: 'course',
          productSlug: 'one-spot',
          plan: null,
          amountCents: 100_00,
          provider: 'sandbox',
          affiliate: null,
          idempotencyKey: `spot-${b.id}`,
        });
        const pm = (await paymentMethod()).body.payment_method!;
        // no orderId metadata: the route marks it paid itself (the race is between the two routes)
        const charge = await sandbox().chargeCard({
          email: b.email,
          name: b.name,
          paymentMethod: pm,
          amountCents: 100_00,
          description: 'course',
          idempotencyKey: `spot-charge-${b.id}`,
          metadata: {},
        });
        return { order, charge };
      }),
    );
    const results = await Promise.allSettled(started.map((s) => svc().markOrderPaid(s.order.id, s.charge)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ statusCode: 409, message: COMMERCE_MESSAGES.soldOut });
    const [product] = await db().select().from(products).where(eq(products.slug, 'one-spot'));
    expect(product?.sold).toBe(1);
    const statuses = (await Promise.all(started.map((s) => svc().findOrder(s.order.id)))).map((o) => o?.status).sort();
    expect(statuses).toEqual(['paid', 'refunded']);
    const owners = await Promise.all(buyers.map((b) => ents(b.id)));
    expect(owners.map((e) => e.includes('course:77')).sort()).toEqual([false, true]);
  });
});

describe('ledger: at most one (holds)', () => {
  const lifetime = (key: string) => ({
    kind: 'membership' as const,
    productSlug: 'academy',
    plan: 'lifetime' as const,
    amountCents: 750_00,
    provider: 'sandbox' as const,
    affiliate: null,
    idempotencyKey: key,
  });

  it('a second purchase while the first holds the membership is refused; the first failing lets go of it', async () => {
    const user = await authUser((await t.createUser()).id);
    const first = await svc().startOrder(user, lifetime(`hold-a-${user.id}`), { hold: true });
    expect(first.order).toMatchObject({ hold: 'membership' });
    // the same attempt again is its own order, not a refusal
    expect(await svc().startOrder(user, lifetime(`hold-a-${user.id}`), { hold: true })).toMatchObject({
      created: false,
      order: { id: first.order.id },
    });
    await expect(
      svc().startOrder(user, { ...lifetime(`hold-b-${user.id}`), plan: 'monthly' }, { hold: true }),
    ).rejects.toMatchObject({ statusCode: 409, message: COMMERCE_MESSAGES.alreadySubscribed });
    await svc().markOrderFailed(first.order.id, COMMERCE_MESSAGES.cardDeclined);
    const second = await svc().startOrder(user, lifetime(`hold-c-${user.id}`), { hold: true });
    expect(second.created).toBe(true);
    // paid: the membership is theirs and the hold is let go; a third purchase is refused as owned
    const pm = (await paymentMethod()).body.payment_method!;
    const charge = await sandbox().chargeCard({
      email: user.email,
      name: user.name,
      paymentMethod: pm,
      amountCents: 750_00,
      description: 'Lifetime',
      idempotencyKey: `hold-charge-${user.id}`,
      metadata: {},
    });
    expect((await svc().markOrderPaid(second.order.id, charge)).hold).toBeNull();
    expect((await svc().findOrder(second.order.id))?.hold).toBeNull();
    await expect(svc().startOrder(user, lifetime(`hold-d-${user.id}`), { hold: true })).rejects.toMatchObject({
      statusCode: 409,
      message: COMMERCE_MESSAGES.alreadySubscribed,
    });
    expect(
      await db()
        .select()
        .from(orders)
        .where(eq(orders.idempotencyKey, `hold-d-${user.id}`)),
    ).toHaveLength(0);
  });

  it('a hold left by a purchase that never finished lapses after HOLD_MINUTES', async () => {
    const user = await authUser((await t.createUser()).id);
    const stuck = await svc().startOrder(user, lifetime(`stuck-${user.id}`), { hold: true });
    await expect(svc().startOrder(user, lifetime(`next-${user.id}`), { hold: true })).rejects.toMatchObject({
      statusCode: 409,
    });
    await db()
      .update(orders)
      .set({ heldAt: new Date(Date.now() - (HOLD_MINUTES + 1) * 60_000) })
      .where(eq(orders.id, stuck.order.id));
    expect((await svc().startOrder(user, lifetime(`next-${user.id}`), { hold: true })).created).toBe(true);
    expect((await svc().findOrder(stuck.order.id))?.hold).toBeNull();
  });

  it('money that arrives for an order that cannot take its hold (the member bought it meanwhile) is refunded', async () => {
    const user = await authUser((await t.createUser()).id);
    // a PayPal-like order, started without a hold (the buyer went to approve elsewhere)
    const late = await svc().startOrder(user, lifetime(`late-${user.id}`));
    const now = await svc().startOrder(user, lifetime(`now-${user.id}`), { hold: true });
    const pm = (await paymentMethod()).body.payment_method!;
    const charge = (key: string) =>
      sandbox().chargeCard({
        email: user.email,
        name: user.name,
        paymentMethod: pm,
        amountCents: 750_00,
        description: 'Lifetime',
        idempotencyKey: key,
        metadata: {},
      });
    await svc().markOrderPaid(now.order.id, await charge(`now-charge-${user.id}`));
    const lateCharge = await charge(`late-charge-${user.id}`);
    await expect(svc().markOrderPaid(late.order.id, lateCharge)).rejects.toMatchObject({
      statusCode: 409,
      message: COMMERCE_MESSAGES.alreadySubscribed,
    });
    expect((await svc().findOrder(late.order.id))?.status).toBe('refunded');
    expect(await db().select().from(entitlements).where(eq(entitlements.userId, user.id))).toHaveLength(1);
  });
});

describe('ledger: subscriptions on the sandbox clock', () => {
  async function subscribe(number: string, trialDays: number) {
    const u = await t.createUser();
    const pm = (await paymentMethod(number)).body.payment_method!;
    const state = await sandbox().subscribeCard({
      email: u.email,
      name: u.name,
      paymentMethod: pm,
      priceCents: 29_00,
      interval: 'month',
      trialDays,
      description: 'Monthly',
      idempotencyKey: `sub-${u.id}`,
      metadata: { userId: String(u.id) },
    });
    const sub = await svc().recordSubscription(u.id, null, 'academy', 'sandbox', state);
    return { u, sub };
  }
  const row = async (id: number) => (await db().select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

  it('trial, renewal, pause, resume, cancel at period end', async () => {
    const { u, sub } = await subscribe(SANDBOX_CARDS.succeeds, 7);
    expect(sub.status).toBe('trialing');
    expect(await ents(u.id)).toEqual(['membership']);
    expect((await svc().currentSubscription(u.id))?.id).toBe(sub.id);

    await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { days: 8 } });
    expect((await row(sub.id)).status).toBe('active');
    expect(await ents(u.id)).toEqual(['membership']);
    const paidInvoices = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.subscriptionId, sub.id), eq(invoices.status, 'paid')));
    expect(paidInvoices.map((i) => i.amountCents)).toEqual([29_00]);

    await svc().syncSubscription('sandbox', await sandbox().pause(sub.providerRef, { feeCents: 5_00 }, 'p1'));
    expect((await row(sub.id)).status).toBe('paused');
    expect(await ents(u.id)).toEqual([]);
    await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { days: 31 } });
    const fees = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.subscriptionId, sub.id), eq(invoices.amountCents, 5_00)));
    expect(fees).toHaveLength(1);
    expect(await ents(u.id)).toEqual([]);

    await svc().syncSubscription('sandbox', await sandbox().resume(sub.providerRef, 'r1'));
    expect((await row(sub.id)).status).toBe('active');
    expect(await ents(u.id)).toEqual(['membership']);

    const canceled = await sandbox().cancel(sub.providerRef, { atPeriodEnd: true }, 'c1');
    await svc().syncSubscription('sandbox', canceled);
    expect(await row(sub.id)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(await ents(u.id)).toEqual(['membership']);
    await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { days: 32 } });
    expect((await row(sub.id)).status).toBe('canceled');
    expect(await ents(u.id)).toEqual([]);
    expect(await svc().currentSubscription(u.id)).toBeNull();
    const memberships = await db().select().from(entitlements).where(eq(entitlements.userId, u.id));
    expect(memberships).toHaveLength(1);
  });

  it('a renewal that fails: past due (member told once, access kept through the retries), then canceled after the last retry fails', async () => {
    const { u, sub } = await subscribe(SANDBOX_CARDS.failsLater, 7);
    await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { days: 8 } });
    expect((await row(sub.id)).status).toBe('past_due');
    expect(await ents(u.id)).toEqual(['membership']);
    const notes = await db().select().from(notifications).where(eq(notifications.userId, u.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain('$29.00');
    // days 3 and 5 after the failure: retried, still past due, still one notice
    await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { days: 4 } });
    expect((await row(sub.id)).status).toBe('past_due');
    expect(await ents(u.id)).toEqual(['membership']);
    expect(await db().select().from(notifications).where(eq(notifications.userId, u.id))).toHaveLength(1);
    // day 7: the last retry fails
    await t.app.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { days: 2 } });
    expect((await row(sub.id)).status).toBe('canceled');
    expect(await ents(u.id)).toEqual([]);
  });

  it('a PayPal subscription: approval page approve and cancel', async () => {
    const approval = await sandbox().createPaypalSubscription({
      priceCents: 249_00,
      interval: 'year',
      trialDays: 0,
      description: 'Yearly',
      returnUrl: '/order?plan=yearly',
      cancelUrl: '/join?canceled=1',
      idempotencyKey: 'pp-1',
      metadata: {},
    });
    expect(approval.url).toBe(`/sandbox/paypal/approve/${approval.ref}`);
    const client = await t.client();
    expect((await client.get(`/sandbox/paypal/orders/${approval.ref}`)).json()).toMatchObject({
      kind: 'subscription',
      amountCents: 249_00,
      interval: 'year',
      status: 'pending',
    });
    const res = await client.post(`/sandbox/paypal/approve/${approval.ref}`);
    expect(res.json().url).toContain(`/order?plan=yearly&subscription_id=${approval.ref}`);
    expect((await sandbox().getSubscription(approval.ref)).status).toBe('active');

    const order = await sandbox().createPaypalOrder({
      amountCents: 750_00,
      description: 'Lifetime',
      returnUrl: '/order',
      cancelUrl: '/join',
      idempotencyKey: 'pp-2',
      metadata: {},
    });
    expect((await client.post(`/sandbox/paypal/cancel/${order.ref}`)).json().url).toBe(`/join?token=${order.ref}`);
    await expect(sandbox().capturePaypalOrder(order.ref, 'cap')).rejects.toMatchObject({
      code: 'canceled',
      message: COMMERCE_MESSAGES.paymentCanceled,
    });
    const ok = await sandbox().createPaypalOrder({
      amountCents: 750_00,
      description: 'Lifetime',
      returnUrl: '/order',
      cancelUrl: '/join',
      idempotencyKey: 'pp-3',
      metadata: {},
    });
    await client.post(`/sandbox/paypal/approve/${ok.ref}`);
    expect(await sandbox().capturePaypalOrder(ok.ref, 'cap2')).toMatchObject({ ref: ok.ref, status: 'succeeded' });
  });
});

describe('webhooks', () => {
  const secret = 'whsec_sandbox_test';

  it('refuses a bad signature (400) and changes nothing', async () => {
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'charge.refunded',
      charge: { ref: 'ch_x', amountCents: 1, metadata: {} },
    });
    const forged = await webhook(body, signSandboxPayload('wrong-secret', body));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe('Invalid webhook signature.');
    expect((await webhook(body, 'garbage')).statusCode).toBe(400);
    const stale = await webhook(body, signSandboxPayload(secret, body, Math.floor(Date.now() / 1000) - 3600));
    expect(stale.statusCode).toBe(400);
    expect(await db().select().from(webhookEvents).where(eq(webhookEvents.eventId, 'evt_forged'))).toHaveLength(0);
    // stripe and paypal are not configured here
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/webhooks/stripe',
          payload: body,
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('a replayed event changes nothing; an older update after the cancellation does not regress', async () => {
    const u = await t.createUser();
    const pm = (await paymentMethod()).body.payment_method!;
    const state = await sandbox().subscribeCard({
      email: u.email,
      name: u.name,
      paymentMethod: pm,
      priceCents: 29_00,
      interval: 'month',
      trialDays: 0,
      description: 'Monthly',
      idempotencyKey: `wh-${u.id}`,
      metadata: {},
    });
    const sub = await svc().recordSubscription(u.id, null, 'academy', 'sandbox', state);
    const refund = JSON.stringify({
      id: 'evt_replay_1',
      type: 'invoice.payment_failed',
      invoice: {
        ref: 'in_replay',
        subscriptionRef: sub.providerRef,
        amountCents: 29_00,
        periodStart: new Date().toISOString(),
        periodEnd: new Date(Date.now() + 30 * DAY).toISOString(),
      },
    });
    const sig = signSandboxPayload(secret, refund);
    expect((await webhook(refund, sig)).json()).toEqual({ received: true, result: 'applied' });
    expect((await webhook(refund, sig)).json()).toEqual({ received: true, result: 'duplicate' });
    expect(await db().select().from(notifications).where(eq(notifications.userId, u.id))).toHaveLength(1);
    expect(await db().select().from(invoices).where(eq(invoices.providerRef, 'in_replay'))).toHaveLength(1);

    const older = {
      ...state,
      status: 'active',
      currentPeriodEnd: state.currentPeriodEnd.toISOString(),
      trialEndsAt: null,
    };
    const canceled = JSON.stringify({
      id: 'evt_cancel',
      type: 'subscription.canceled',
      subscription: { ...older, status: 'canceled', currentPeriodEnd: new Date(Date.now() - 1000).toISOString() },
    });
    const updated = JSON.stringify({ id: 'evt_old_update', type: 'subscription.updated', subscription: older });
    expect((await webhook(canceled, signSandboxPayload(secret, canceled))).json().result).toBe('applied');
    expect((await webhook(updated, signSandboxPayload(secret, updated))).json().result).toBe('applied');
    expect((await db().select().from(subscriptions).where(eq(subscriptions.id, sub.id)))[0]?.status).toBe('canceled');
    expect(await ents(u.id)).toEqual([]);

    const unknown = JSON.stringify({ id: 'evt_unknown', type: 'customer.created' });
    expect((await webhook(unknown, signSandboxPayload(secret, unknown))).json().result).toBe('ignored');
    expect(await db().select().from(orders).where(eq(orders.userId, u.id))).toHaveLength(0);
  });

  it('the clock is refused in production unless allowed', async () => {
    const prod = await createTestApp({ env: 'production' });
    try {
      // not there at all, for a page with a valid CSRF token too
      const page = await prod.client();
      expect((await page.post('/sandbox/clock/advance', { days: 1 })).statusCode).toBe(404);
      expect((await page.post('/sandbox/test/paypal', { kind: 'order' })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
