/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEFAULT_CHECKOUT, DEFAULT_RETENTION_OFFERS, SANDBOX_CARDS, CANCEL_REASONS } from '#shared/commerce';
import { BILLING_MESSAGES, type BillingState } from '#shared/billing';
import {
  ORDER_MESSAGES,
  spotsBelowSold,
  type AdminOrderDetail,
  type AdminOrderRow,
  type AdminPlan,
  type AdminProduct,
  type AdminSubscriptionRow,
} from '#shared/admin-commerce';
import type { AdminPage } from '#shared/admin';
import type { CancellationRow } from '#shared/billing';
import { auditLog, cancellationFeedback, entitlements, orders, products, subscriptions } from '#server/db/schema/index';
import type { SandboxProvider } from '#server/modules/payments/sandbox/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn({ role: 'admin' })).client;
});
afterAll(async () => t.close());

const db = () => t.app.deps.db;
const payments = () => t.app.deps.services.payments;
const sandbox = () => payments().providerFor('card') as unknown as SandboxProvider;
const audits = (action: string, targetId: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

async function newProduct(overrides: Partial<typeof products.$inferInsert> = {}) {
  const slug = `tier_${Math.random().toString(36).slice(2, 10)}`;
  await db()
    .insert(products)
    .values({
      slug,
      title: `Tier ${slug}`,
      priceCents: 49_00,
      listPriceCents: 79_00,
      spots: 10,
      level: 'basic',
      ...overrides,
    });
  return slug;
}

/** a member buys a tier by card in the sandbox, as /api/products/:slug/card does */
async function buy(slug: string) {
  const { user, client } = await t.signedIn();
  const secret = await client.post(`/api/products/${slug}/card/client-secret`);
  expect(secret.statusCode).toBe(200);
  const { paymentMethod } = await sandbox().confirmSetup({
    clientSecret: secret.json().clientSecret,
    number: SANDBOX_CARDS.succeeds,
    expMonth: 12,
    expYear: 2040,
    cvc: '123',
    name: user.name,
  });
  const res = await client.post(`/api/products/${slug}/card`, {
    stripeToken: paymentMethod,
    idempotency_key: `buy-${slug}`,
  });
  expect(res.statusCode).toBe(200);
  const [order] = await db().select().from(orders).where(eq(orders.userId, user.id));
  return { user, client, order: order! };
}

describe('orders', () => {
  it('refunds a paid sandbox order through the provider: the webhook path marks it refunded and revokes the entitlement', async () => {
    const slug = await newProduct();
    const { user, order } = await buy(slug);
    expect(order.status).toBe('paid');
    const ent = () =>
      db()
        .select()
        .from(entitlements)
        .where(and(eq(entitlements.userId, user.id), eq(entitlements.source, `order:${order.id}`)));
    expect((await ent())[0]!.revokedAt).toBeNull();

    const detail = (await admin.get(`/api/admin/orders/${order.id}`)).json() as AdminOrderDetail;
    expect(detail).toMatchObject({
      id: order.id,
      status: 'paid',
      refundable: true,
      buyer: { id: user.id, email: user.email },
    });
    expect(detail.invoices).toHaveLength(1);

    const res = await admin.post(`/api/admin/orders/${order.id}/refund`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: ORDER_MESSAGES.refunded,
      order: { status: 'refunded', refundable: false },
    });
    expect(res.json().order.invoices[0].status).toBe('refunded');
    expect((await ent())[0]!.revokedAt).not.toBeNull();
    const [entry] = await audits('order.refund', String(order.id));
    expect(entry).toMatchObject({ before: { status: 'paid' }, after: { status: 'refunded' } });
    // the amount as people read it everywhere: "$1,234.50", never "1234.50 usd"
    expect(entry!.summary).toBe(`Refunded order #${order.id} (${slug}, $49.00)`);

    // again: refused, the order is no longer paid
    const again = await admin.post(`/api/admin/orders/${order.id}/refund`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ORDER_MESSAGES.notPaid);
  });

  it('refuses to refund an order that is not paid, and changes nothing', async () => {
    const { user } = await t.signedIn();
    const [o] = await db()
      .insert(orders)
      .values({
        userId: user.id,
        kind: 'course',
        productSlug: 'x',
        amountCents: 100,
        provider: 'sandbox',
        status: 'failed',
        idempotencyKey: `t:${user.id}`,
      })
      .returning();
    const res = await admin.post(`/api/admin/orders/${o!.id}/refund`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: ORDER_MESSAGES.notPaid, errors: { order: [ORDER_MESSAGES.notPaid] } });
    expect(await audits('order.refund', String(o!.id))).toHaveLength(0);
    expect((await admin.get('/api/admin/orders/999999')).statusCode).toBe(404);
  });

  it('pages, filters, sorts and searches in SQL', async () => {
    const { user } = await t.signedIn();
    for (const [i, status] of (['paid', 'failed', 'paid'] as const).entries()) {
      await db()
        .insert(orders)
        .values({
          userId: user.id,
          kind: 'course',
          productSlug: `search-me-${i}`,
          amountCents: (i + 1) * 1000,
          provider: 'sandbox',
          status,
          providerRef: `ref_find_${user.id}_${i}`,
          idempotencyKey: `p:${user.id}:${i}`,
        });
    }
    const page = (
      await admin.get(`/api/admin/orders?q=${encodeURIComponent(user.email)}&sort=amount&dir=desc&per_page=2`)
    ).json() as AdminPage<AdminOrderRow>;
    expect(page).toMatchObject({ total: 3, pages: 2, page: 1, sort: 'amount', dir: 'desc' });
    expect(page.data.map((o) => o.amount_cents)).toEqual([3000, 2000]);
    const p2 = (
      await admin.get(`/api/admin/orders?q=${encodeURIComponent(user.email)}&sort=amount&dir=desc&per_page=2&page=2`)
    ).json() as AdminPage<AdminOrderRow>;
    expect(p2.data.map((o) => o.amount_cents)).toEqual([1000]);
    const failed = (
      await admin.get(`/api/admin/orders?q=${encodeURIComponent(user.email)}&status=failed`)
    ).json() as AdminPage<AdminOrderRow>;
    expect(failed.data.map((o) => o.product)).toEqual(['search-me-1']);
    const byRef = (await admin.get(`/api/admin/orders?q=ref_find_${user.id}_2`)).json() as AdminPage<AdminOrderRow>;
    expect(byRef.data.map((o) => o.product)).toEqual(['search-me-2']);
    expect((await admin.get('/api/admin/orders?status=nope')).statusCode).toBe(422);
    expect((await admin.get('/api/admin/orders?kind=membership&provider=sandbox')).statusCode).toBe(200);
  });

  it('is refused to members', async () => {
    const { client } = await t.signedIn({ entitlements: ['membership'] });
    expect((await client.get('/api/admin/orders')).statusCode).toBe(403);
    expect((await client.post('/api/admin/orders/1/refund')).statusCode).toBe(403);
  });
});

describe('subscriptions', () => {
  it('lists state, price, discount, period end and payment method; filters and searches', async () => {
    const { user } = await t.signedIn();
    await db()
      .insert(subscriptions)
      .values({
        userId: user.id,
        provider: 'sandbox',
        providerRef: `sub_adm_${user.id}`,
        checkoutSlug: 'academy',
        plan: 'yearly',
        status: 'past_due',
        priceCents: 249_00,
        paymentMethod: 'Visa ending 4242',
        currentPeriodEnd: new Date(Date.now() + 86_400_000),
        discountPercent: 30,
        discountCyclesLeft: 2,
        discountUsedAt: new Date(),
      });
    const page = (
      await admin.get(`/api/admin/subscriptions?q=${encodeURIComponent(user.email)}&status=past_due&plan=yearly`)
    ).json() as AdminPage<AdminSubscriptionRow>;
    expect(page.total).toBe(1);
    expect(page.data[0]).toMatchObject({
      member: { id: user.id },
      status: 'past_due',
      price_cents: 249_00,
      discount: '30% off the next 2 payments',
      payment_method: 'Visa ending 4242',
      cancel_at_period_end: false,
    });
    expect(
      (
        (
          await admin.get(`/api/admin/subscriptions?q=${encodeURIComponent(user.email)}&status=active`)
        ).json() as AdminPage<unknown>
      ).total,
    ).toBe(0);
  });
});

describe('membership plans', () => {
  const body = (p: AdminPlan) => {
    const { slug: _s, updated_at: _u, ...rest } = p;
    return rest;
  };

  it('validates each field, the crossed-out prices above their prices', async () => {
    const plan = (await admin.get('/api/admin/plans/academy')).json() as AdminPlan;
    const res = await admin.request('PUT', '/api/admin/plans/academy', {
      ...body(plan),
      heading: ' ',
      monthly_crossed_out_cents: plan.monthly_price_cents,
      yearly_trial_days: 400,
      lifetime_price_cents: -1,
      monthly_title: '',
    });
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(errors.heading).toEqual(['The heading is required.']);
    expect(errors.monthly_crossed_out_cents).toEqual([
      'The monthly crossed-out price must be above the monthly price.',
    ]);
    expect(errors.yearly_trial_days).toEqual(['The yearly trial days may not be greater than 365.']);
    expect(errors.lifetime_price_cents).toEqual(['The lifetime price may not be negative.']);
    expect(errors.monthly_title).toEqual(['The monthly title is required.']);
    expect((await admin.request('PUT', '/api/admin/plans/nope', body(plan))).statusCode).toBe(404);
  });

  it('an edit shows in the checkout GET at once, and is audited', async () => {
    const plan = (await admin.get('/api/admin/plans/academy')).json() as AdminPlan;
    const res = await admin.request('PUT', '/api/admin/plans/academy', {
      ...body(plan),
      heading: 'Spring sale',
      monthly_price_cents: 19_00,
      monthly_sales_tag: 'Sale',
      yearly_sales_tag: '',
      monthly_trial_days: 3,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      heading: 'Spring sale',
      monthly_price_cents: 19_00,
      monthly_sales_tag: 'Sale',
      yearly_sales_tag: null,
    });
    const checkout = (await (await t.client()).get('/api/checkout/academy')).json();
    expect(checkout.plan).toMatchObject({
      heading: 'Spring sale',
      monthly_price: 19,
      monthly_sales_tag: 'Sale',
      yearly_sales_tag: null,
      monthly_trial_days: 3,
    });
    const [entry] = await audits('plan.update', 'academy');
    expect(entry).toMatchObject({ before: { heading: DEFAULT_CHECKOUT.heading }, after: { heading: 'Spring sale' } });
    // put it back
    expect((await admin.request('PUT', '/api/admin/plans/academy', body(plan))).statusCode).toBe(200);
    expect(
      ((await admin.get('/api/admin/plans')).json().data as AdminPlan[]).find((p) => p.slug === 'academy')!.heading,
    ).toBe(DEFAULT_CHECKOUT.heading);
  });
});

describe('courses for sale', () => {
  it('edits a tier; spots may not go below sold; spots left shown; audited', async () => {
    const slug = await newProduct({ sold: 4, spots: 10 });
    const good = {
      title: 'Edited tier',
      course_id: null,
      level: 'pro',
      price_cents: 59_00,
      list_price_cents: 99_00,
      spots: 4,
      active: true,
    };
    const below = await admin.request('PUT', `/api/admin/products/${slug}`, { ...good, spots: 3 });
    expect(below.statusCode).toBe(422);
    expect(below.json().errors.spots).toEqual([spotsBelowSold(4)]);
    const bad = await admin.request('PUT', `/api/admin/products/${slug}`, {
      ...good,
      title: '',
      list_price_cents: 10_00,
      level: 'gold',
      price_cents: 1.5,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      title: ['The title is required.'],
      level: ['The level must be basic or pro.'],
      price_cents: ['The price must be a whole number of cents.'],
    });
    expect(
      (await admin.request('PUT', `/api/admin/products/${slug}`, { ...good, list_price_cents: 10_00 })).json().errors
        .list_price_cents,
    ).toEqual(['The list price must be above the price.']);
    expect(
      (await admin.request('PUT', `/api/admin/products/${slug}`, { ...good, course_id: 999_999 })).json().errors
        .course_id,
    ).toEqual(['The course must be chosen from the list.']);

    const res = await admin.request('PUT', `/api/admin/products/${slug}`, good);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'Edited tier',
      spots: 4,
      sold: 4,
      spots_left: 0,
      level: 'pro',
    } satisfies Partial<AdminProduct>);
    const unlimited = await admin.request('PUT', `/api/admin/products/${slug}`, { ...good, spots: null });
    expect(unlimited.json()).toMatchObject({ spots: null, spots_left: null });
    const entries = await audits('product.update', slug);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      before: { title: `Tier ${slug}`, spots: 10 },
      after: { title: 'Edited tier', spots: 4 },
    });

    const list = (await admin.get(`/api/admin/products?q=${slug}`)).json() as AdminPage<AdminProduct>;
    expect(list.data.map((p) => p.slug)).toEqual([slug]);
  });

  it('a member sees the edited price and sold-out state of the double-kick tiers', async () => {
    const tier = (await admin.get('/api/admin/products/doublekick_159')).json().product as AdminProduct;
    const res = await admin.request('PUT', '/api/admin/products/doublekick_159', {
      title: tier.title,
      course_id: tier.course_id,
      level: tier.level,
      price_cents: 89_00,
      list_price_cents: tier.list_price_cents,
      spots: 0,
      active: true,
    });
    expect(res.statusCode).toBe(200);
    const dk = (await (await t.client()).get('/api/products/double-kick')).json().data;
    expect(dk.tiers.find((x: { slug: string }) => x.slug === 'doublekick_159')).toMatchObject({
      price_cents: 89_00,
      spots_left: 0,
      sold_out: true,
    });
  });
});

describe('retention offers', () => {
  it('validates, is audited, and the cancel flow uses the figures (server and GET /api/billing)', async () => {
    const bad = await admin.request('PUT', '/api/admin/retention', {
      ...DEFAULT_RETENTION_OFFERS,
      monthlyDiscountPercent: 0,
      monthlyDiscountCycles: 30,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      monthlyDiscountPercent: ['The monthly discount must be at least 1.'],
      monthlyDiscountCycles: ['The number of discounted months may not be greater than 24.'],
    });

    const offers = {
      ...DEFAULT_RETENTION_OFFERS,
      monthlyDiscountPercent: 50,
      monthlyDiscountCycles: 2,
      yearlyUpgradeDiscountCents: 70_00,
      lifetimeDiscountPercent: 40,
    };
    expect((await admin.request('PUT', '/api/admin/retention', offers)).json()).toEqual(offers);
    const [entry] = await audits('setting.update', 'retention_offers');
    expect(entry).toMatchObject({ before: DEFAULT_RETENTION_OFFERS, after: offers });

    // a card member in the sandbox
    const { user, client } = await t.signedIn();
    const me = await t.app.deps.services.users.toAuthUser((await t.app.deps.services.users.findById(user.id))!);
    const card = sandbox();
    const { clientSecret } = await card.createCardSetup({
      email: me.email,
      name: me.name,
      idempotencyKey: `r:${user.id}:setup`,
      metadata: {},
    });
    const { paymentMethod } = await card.confirmSetup({
      clientSecret,
      number: SANDBOX_CARDS.succeeds,
      expMonth: 12,
      expYear: 2040,
      cvc: '123',
      name: me.name,
    });
    const { order } = await payments().startOrder(me, {
      kind: 'membership',
      productSlug: 'academy',
      plan: 'monthly',
      amountCents: 29_00,
      provider: 'sandbox',
      affiliate: null,
      idempotencyKey: `r:${user.id}`,
      metadata: {},
    });
    const state = await card.subscribeCard({
      email: me.email,
      name: me.name,
      paymentMethod,
      priceCents: 29_00,
      interval: 'month',
      trialDays: 0,
      description: 'Backbeat membership',
      idempotencyKey: `r:${user.id}`,
      metadata: {},
    });
    const sub = await payments().recordSubscription(user.id, order.id, 'academy', 'sandbox', state);

    const b = (await client.get('/api/billing')).json() as BillingState;
    expect(b.subscription).toMatchObject({
      offers,
      lifetimeOfferPrice: 450_00,
      yearlyOfferPrice: DEFAULT_CHECKOUT.yearlyPriceCents - 70_00,
    });

    const res = await client.post('/account/billing/stripe/discount', { reason: CANCEL_REASONS[0].value, discount: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BILLING_MESSAGES.discount('month', offers));
    expect(res.json().message).toContain('50% off your next 2 monthly payments');
    const [row] = await db().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(row).toMatchObject({ discountPercent: 50, discountCyclesLeft: 2 });

    // back to the default offers
    expect((await admin.request('PUT', '/api/admin/retention', DEFAULT_RETENTION_OFFERS)).statusCode).toBe(200);
  });
});

describe('mentorship pricing', () => {
  it('sets the checkout default flags (public options answer), refusing both full prices', async () => {
    expect((await (await t.client()).get('/api/mentorship/checkout/options')).json()).toEqual({
      flags: {
        price2600: false,
        price3900: false,
        downsell: false,
        showsix: false,
        price2600ByLink: false,
        downsellByLink: false,
      },
    });
    const both = await admin.request('PUT', '/api/admin/mentorship-pricing', {
      price2600: true,
      price3900: true,
      downsell: false,
      showsix: false,
    });
    expect(both.statusCode).toBe(422);
    expect(both.json().errors.price3900).toEqual([
      'Choose either the $2,600.00 or the $3,900.00 full price, not both.',
    ]);
    expect(
      (
        await admin.request('PUT', '/api/admin/mentorship-pricing', {
          price2600: false,
          price3900: false,
          downsell: false,
          showsix: true,
        })
      ).statusCode,
    ).toBe(200);
    expect((await (await t.client()).get('/api/mentorship/checkout/options')).json().flags.showsix).toBe(true);
    expect(await audits('setting.update', 'mentorship_pricing')).toHaveLength(1);
    await admin.request('PUT', '/api/admin/mentorship-pricing', {
      price2600: false,
      price3900: false,
      downsell: false,
      showsix: false,
    });
  });
});

describe('cancellations', () => {
  it('pages, filters by outcome and reason, searches', async () => {
    const { user } = await t.signedIn();
    await db()
      .insert(cancellationFeedback)
      .values([
        {
          userId: user.id,
          provider: 'card',
          cycle: 'month',
          reason: CANCEL_REASONS[0].value,
          description: 'needle in haystack',
          outcome: 'pause',
        },
        {
          userId: user.id,
          provider: 'card',
          cycle: 'month',
          reason: CANCEL_REASONS[1].value,
          description: 'other one',
          outcome: 'cancel',
        },
      ]);
    const all = (
      await admin.get(`/api/admin/cancellations?q=${encodeURIComponent(user.email)}`)
    ).json() as AdminPage<CancellationRow>;
    expect(all.total).toBe(2);
    const paused = (
      await admin.get(`/api/admin/cancellations?q=${encodeURIComponent(user.email)}&outcome=pause`)
    ).json() as AdminPage<CancellationRow>;
    expect(paused.data.map((r) => r.description)).toEqual(['needle in haystack']);
    const reason = (
      await admin.get(
        `/api/admin/cancellations?reason=${encodeURIComponent(CANCEL_REASONS[1].value)}&q=${encodeURIComponent(user.email)}`,
      )
    ).json() as AdminPage<CancellationRow>;
    expect(reason.data.map((r) => r.outcome)).toEqual(['cancel']);
    expect(
      ((await admin.get('/api/admin/cancellations?q=needle%20in%20hay')).json() as AdminPage<CancellationRow>).data[0]!
        .member!.id,
    ).toBe(user.id);
  });
});
