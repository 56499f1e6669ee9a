/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { SANDBOX_CARDS } from '#shared/commerce';
import type { Receipt, ReceiptList, SubscriptionPayments } from '#shared/receipts';
import { entitlements, orders, receipts, subscriptions } from '#server/db/schema/index';
import type { SandboxProvider } from '#server/modules/payments/sandbox/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

/**
 * Receipts and credit notes through the API, on the embedded database (and on PostgreSQL with
 * TEST_DATABASE_URL): every payment gets the next number, the owner (and admins) read it and its
 * PDF, a refund gets a credit note, and an admin refunds part or all of a subscription payment.
 */
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn({ role: 'admin', name: 'Ada Admin' })).client;
});
afterAll(async () => t.close());

const db = () => t.app.deps.db;
const sandbox = () => t.app.deps.services.payments.providerFor('card') as unknown as SandboxProvider;
let keys = 0;
const key = () => `receipts-${Date.now()}-${++keys}-abcdef`;

async function paymentMethod(client: TestClient): Promise<string> {
  const secret = await client.get('/order/stripe-client-secret');
  const res = await client.post('/sandbox/setup-intents/confirm', {
    client_secret: secret.json().clientSecret,
    number: SANDBOX_CARDS.succeeds,
    exp_month: 12,
    exp_year: new Date().getUTCFullYear() + 2,
    cvc: '123',
    name: 'Card Holder',
  });
  return res.json().payment_method as string;
}

/** a member who pays by card (4242) on the membership checkout: `plan` lifetime, or monthly on a plan without a trial */
async function buy(client: TestClient, plan: 'lifetime' | 'monthly') {
  const pm = await paymentMethod(client);
  const res = await client.post(
    '/order/stripe',
    { checkout: plan === 'monthly' ? 'no-trial' : 'academy', stripeToken: pm, plan },
    { headers: { 'Idempotency-Key': key() } },
  );
  expect(res.statusCode).toBe(200);
}

async function listOf(client: TestClient) {
  const res = await client.get('/api/billing/receipts');
  expect(res.statusCode).toBe(200);
  return (res.json() as ReceiptList).data;
}

async function pdfText(client: TestClient, number: string) {
  const res = await client.get(`/api/billing/receipts/${number}/pdf`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/pdf');
  const doc = await getDocumentProxy(new Uint8Array(res.rawPayload));
  const { text } = await extractText(doc, { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

const allNumbers = async (kind: 'receipt' | 'credit_note') =>
  (
    await db()
      .select({ n: receipts.number })
      .from(receipts)
      .where(eq(receipts.kind, kind))
      .orderBy(asc(receipts.number))
  ).map((r) => r.n);
const membershipEnd = async (userId: number) =>
  (
    await db()
      .select({ endsAt: entitlements.endsAt })
      .from(entitlements)
      .where(and(eq(entitlements.userId, userId), eq(entitlements.kind, 'membership')))
  )[0]?.endsAt ?? null;

beforeAll(async () => {
  const { checkoutPlans } = await import('#server/db/schema/index');
  await db()
    .insert(checkoutPlans)
    .values({
      slug: 'no-trial',
      heading: 'No trial',
      hasTrial: false,
      monthlyPriceCents: 29_00,
      yearlyPriceCents: 249_00,
      lifetimePriceCents: 750_00,
    })
    .onConflictDoNothing();
});

describe('receipts for payments', () => {
  it('a lifetime purchase has a numbered receipt with seller, member, item, amount, tax, method and date, on its page and in its PDF', async () => {
    const { user, client } = await t.signedIn({ name: 'Ёжик Барабанщик' });
    await buy(client, 'lifetime');
    const list = await listOf(client);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      kind: 'receipt',
      item: 'Lifetime membership',
      amount_cents: 750_00,
      refers_to: null,
    });
    expect(list[0]!.number).toMatch(/^R-\d{6}$/);

    const res = await client.get(`/api/billing/receipts/${list[0]!.number}`);
    expect(res.statusCode).toBe(200);
    const receipt = res.json() as Receipt;
    expect(receipt).toMatchObject({
      seller: { name: 'Backbeat Drum Academy' },
      member: { name: 'Ёжик Барабанщик', email: user.email },
      tax: { label: 'Tax', percent: 0, amount_cents: 0 },
      payment_method: 'Visa ending 4242',
      amount_cents: 750_00,
      currency: 'usd',
    });

    const text = await pdfText(client, receipt.number);
    const date = new Date(receipt.issued_at).toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    for (const part of [
      'Receipt',
      receipt.number,
      'Backbeat Drum Academy',
      'Ёжик Барабанщик',
      user.email,
      'Lifetime membership',
      '$750.00',
      'Tax',
      '$0.00',
      'Visa ending 4242',
      date,
    ]) {
      expect(text).toContain(part);
    }
  });

  it('numbers follow one another with no gaps: a first charge, then a renewal by webhook after the sandbox clock moves', async () => {
    const before = await allNumbers('receipt');
    const { user, client } = await t.signedIn();
    await buy(client, 'monthly');
    // past the first period's end, not yet past the second's: one renewal
    await sandbox().advanceClock(40);
    const mine = await listOf(client);
    expect(mine.map((r) => r.item)).toEqual(['Monthly membership', 'Monthly membership']);
    const all = await allNumbers('receipt');
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect(all.length).toBeGreaterThanOrEqual(before.length + 2);
    // the renewal came from the provider's webhook and names the card the subscription uses
    const renewal = (await client.get(`/api/billing/receipts/${mine[0]!.number}`)).json() as Receipt;
    expect(renewal).toMatchObject({
      payment_method: 'Visa ending 4242',
      amount_cents: 29_00,
      member: { email: user.email },
    });
  });

  it('a replayed payment keeps its one receipt', async () => {
    const { user, client } = await t.signedIn();
    await buy(client, 'lifetime');
    const [order] = await db().select().from(orders).where(eq(orders.userId, user.id));
    const payments = t.app.deps.services.payments;
    await payments.markOrderPaid(order!.id, {
      ref: String(order!.metadata.chargeRef),
      paymentMethodLabel: 'Visa ending 4242',
    });
    expect(await listOf(client)).toHaveLength(1);
  });
});

describe('who may open a receipt', () => {
  it('only its owner and admins; anyone else hears 404 as for a receipt that does not exist', async () => {
    const owner = await t.signedIn();
    await buy(owner.client, 'lifetime');
    const [mine] = await listOf(owner.client);
    const other = await t.signedIn();
    expect((await other.client.get(`/api/billing/receipts/${mine!.number}`)).statusCode).toBe(404);
    expect((await other.client.get(`/api/billing/receipts/${mine!.number}/pdf`)).statusCode).toBe(404);
    expect((await other.client.get('/api/billing/receipts/R-999999')).statusCode).toBe(404);
    expect((await other.client.get('/api/billing/receipts/not-a-number')).statusCode).toBe(404);
    expect(await listOf(other.client)).toEqual([]);
    const visitor = await t.client();
    expect((await visitor.get(`/api/billing/receipts/${mine!.number}/pdf`)).statusCode).toBe(401);
    expect((await admin.get(`/api/billing/receipts/${mine!.number}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/billing/receipts/${mine!.number}/pdf`)).statusCode).toBe(200);
  });
});

describe('credit notes', () => {
  it('an admin refund of a lifetime order issues a credit note with its own number, the receipt it refunds and a negative amount', async () => {
    const { user, client } = await t.signedIn({ name: 'Sam Refund' });
    await buy(client, 'lifetime');
    const [order] = await db().select().from(orders).where(eq(orders.userId, user.id));
    expect((await admin.post(`/api/admin/orders/${order!.id}/refund`)).statusCode).toBe(200);
    const list = await listOf(client);
    expect(list).toHaveLength(2);
    const [note, receipt] = list[0]!.kind === 'credit_note' ? [list[0]!, list[1]!] : [list[1]!, list[0]!];
    expect(note).toMatchObject({ kind: 'credit_note', amount_cents: -750_00, refers_to: receipt.number });
    expect(note.number).toMatch(/^CN-\d{6}$/);
    const detail = (await client.get(`/api/billing/receipts/${receipt.number}`)).json() as Receipt;
    expect(detail.credit_notes.map((c) => c.number)).toEqual([note.number]);
    const text = await pdfText(client, note.number);
    for (const part of ['Credit note', note.number, receipt.number, '-$750.00', 'Sam Refund'])
      expect(text).toContain(part);
  });
});

describe('admin refund of a subscription payment', () => {
  async function subscriber(name: string) {
    const { user, client } = await t.signedIn({ name });
    await buy(client, 'monthly');
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    const payments = (await admin.get(`/api/admin/subscriptions/${sub!.id}/payments`)).json() as SubscriptionPayments;
    return { user, client, sub: sub!, payments };
  }

  it('a partial refund: a credit note for that amount, access kept; the rest of the latest payment ends the membership now', async () => {
    const { user, client, sub, payments } = await subscriber('Sam Partial');
    expect(payments.payments).toHaveLength(1);
    const payment = payments.payments[0]!;
    expect(payment).toMatchObject({ amount_cents: 29_00, refunded_cents: 0, latest: true });
    expect(payment.receipt).toMatch(/^R-/);
    const end = await membershipEnd(user.id);

    const partial = await admin.post(`/api/admin/invoices/${payment.invoice_id}/refund`, {
      amount_cents: 10_00,
      idempotency_key: key(),
    });
    expect(partial.statusCode).toBe(200);
    expect(partial.json().effect).toBe(
      `A partial refund of $10.00 keeps Sam Partial’s access until ${end!.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })}.`,
    );
    expect(partial.json().payments.payments[0]).toMatchObject({ refunded_cents: 10_00 });
    expect((await membershipEnd(user.id))!.getTime()).toBe(end!.getTime());
    const notes = (await listOf(client)).filter((r) => r.kind === 'credit_note');
    expect(notes).toMatchObject([{ amount_cents: -10_00, refers_to: payment.receipt }]);

    // more than what is left: refused, nothing changes
    const tooMuch = await admin.post(`/api/admin/invoices/${payment.invoice_id}/refund`, {
      amount_cents: 20_00,
      idempotency_key: key(),
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.amount_cents).toEqual(['At most $19.00 of this payment can still be refunded.']);

    const rest = await admin.post(`/api/admin/invoices/${payment.invoice_id}/refund`, {
      amount_cents: 19_00,
      idempotency_key: key(),
    });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().effect).toBe(
      'A full refund of the latest payment ends Sam Partial’s membership now and stops its renewals.',
    );
    expect((await membershipEnd(user.id))!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await t.app.deps.services.users.activeEntitlements(user.id)).not.toContain('membership');
    expect((await db().select().from(subscriptions).where(eq(subscriptions.id, sub.id)))[0]!.status).toBe('canceled');
    const credits = (await listOf(client)).filter((r) => r.kind === 'credit_note').map((r) => r.amount_cents);
    expect(credits.sort()).toEqual([-19_00, -10_00].sort());
    const again = await admin.post(`/api/admin/invoices/${payment.invoice_id}/refund`, {
      amount_cents: 1,
      idempotency_key: key(),
    });
    expect(again.statusCode).toBe(409);
  });

  it('a PayPal subscription: its first payment (made at the approval) is refunded in part through PayPal', async () => {
    const { user, client } = await t.signedIn({ name: 'Pat PayPal' });
    const { users } = t.app.deps.services;
    const me = await users.toAuthUser((await users.findById(user.id))!);
    const payments = t.app.deps.services.payments;
    const paypal = payments.providerFor('paypal') as unknown as SandboxProvider;
    const { order } = await payments.startOrder(me, {
      kind: 'membership',
      productSlug: 'academy',
      plan: 'monthly',
      amountCents: 29_00,
      provider: 'sandbox',
      affiliate: null,
      idempotencyKey: key(),
      metadata: { payment_type: 'paypal' },
    });
    const approval = await paypal.createPaypalSubscription({
      priceCents: 29_00,
      interval: 'month',
      trialDays: 0,
      description: 'Backbeat membership',
      returnUrl: '/order',
      cancelUrl: '/join',
      idempotencyKey: key(),
      metadata: {},
    });
    await paypal.approvePaypal(approval.ref);
    const sub = await payments.recordSubscription(
      user.id,
      order.id,
      'academy',
      'sandbox',
      await paypal.getSubscription(approval.ref),
    );
    const [receipt] = await listOf(client);
    expect((await client.get(`/api/billing/receipts/${receipt!.number}`)).json()).toMatchObject({
      payment_method: 'PayPal (buyer@sandbox.test)',
      amount_cents: 29_00,
    });
    const list = (await admin.get(`/api/admin/subscriptions/${sub.id}/payments`)).json() as SubscriptionPayments;
    const res = await admin.post(`/api/admin/invoices/${list.payments[0]!.invoice_id}/refund`, {
      amount_cents: 9_00,
      idempotency_key: key(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().effect).toMatch(/^A partial refund of \$9\.00 keeps Pat PayPal’s access until /);
    expect((await listOf(client)).find((r) => r.kind === 'credit_note')).toMatchObject({
      amount_cents: -9_00,
      refers_to: receipt!.number,
    });
  });

  it('the same refund sent twice (a double click) refunds once', async () => {
    const { client, payments } = await subscriber('Sam Twice');
    const body = { amount_cents: 5_00, idempotency_key: key() };
    const id = payments.payments[0]!.invoice_id;
    expect((await admin.post(`/api/admin/invoices/${id}/refund`, body)).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/invoices/${id}/refund`, body)).statusCode).toBe(200);
    expect((await listOf(client)).filter((r) => r.kind === 'credit_note')).toHaveLength(1);
  });

  it('is for admins only, with the CSRF token, and checks the amount', async () => {
    const { client, payments } = await subscriber('Sam Guarded');
    const id = payments.payments[0]!.invoice_id;
    expect(
      (await client.post(`/api/admin/invoices/${id}/refund`, { amount_cents: 100, idempotency_key: key() })).statusCode,
    ).toBe(403);
    expect((await client.get(`/api/admin/subscriptions/1/payments`)).statusCode).toBe(403);
    expect(
      (
        await admin.post(
          `/api/admin/invoices/${id}/refund`,
          { amount_cents: 100, idempotency_key: key() },
          { csrf: false },
        )
      ).statusCode,
    ).toBe(419);
    const zero = await admin.post(`/api/admin/invoices/${id}/refund`, { amount_cents: 0, idempotency_key: key() });
    expect(zero.statusCode).toBe(422);
    expect(zero.json().errors.amount_cents).toEqual(['Enter an amount above zero.']);
    expect(
      (await admin.post('/api/admin/invoices/999999/refund', { amount_cents: 100, idempotency_key: key() })).statusCode,
    ).toBe(404);
    expect((await listOf(client)).filter((r) => r.kind === 'credit_note')).toHaveLength(0);
  });
});

describe('mentorship instalments', () => {
  // its own app: the sandbox clock moves for every subscription of an app
  let m: TestApp;
  beforeAll(async () => {
    m = await createTestApp();
    const mentor = await m.createUser({ name: 'Mia Mentor', role: 'admin' });
    const { users: userRows } = await import('#server/db/schema/index');
    await m.app.deps.db.update(userRows).set({ isMentor: true }).where(eq(userRows.id, mentor.id));
  });
  afterAll(async () => m.close());

  it('each instalment has its receipt: the first with the order, the next when the provider collects it', async () => {
    const { client } = await m.signedIn({ name: 'Ines Instalment' });
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
    expect((await client.post('/mentorship/stripe/charge', { payment: '650', payment_method: pm })).json()).toEqual({
      url: '/mentorship',
    });
    const first = (await client.get('/api/billing/receipts')).json().data as ReceiptList['data'];
    expect(first).toHaveLength(1);
    expect(first[0]!.item).toMatch(/^Backbeat mentorship: payment 1 of \d+$/);
    expect((await client.post('/sandbox/clock/advance', { days: 31 }, { csrf: false })).statusCode).toBe(200);
    const after = (await client.get('/api/billing/receipts')).json().data as ReceiptList['data'];
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ amount_cents: first[0]!.amount_cents });
    expect(after[0]!.item).toMatch(/^Backbeat mentorship: payment 2 of \d+$/);
    const numbers = after.map((r) => Number(r.number.slice(2))).sort((x, y) => x - y);
    expect(numbers).toEqual([1, 2]);
    const detail = (await client.get(`/api/billing/receipts/${after[0]!.number}`)).json() as Receipt;
    expect(detail).toMatchObject({ member: { name: 'Ines Instalment' }, payment_method: 'Visa ending 4242' });
  });
});
