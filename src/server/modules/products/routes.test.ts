import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { LEARNING } from '#shared/learning';
import { adminProductSchema, PRODUCT_TITLE_MAX } from '#shared/admin-commerce';
import { PRODUCT_MESSAGES } from '#shared/products';
import { courses, lessons, orders, products, sandboxObjects } from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import type { SandboxProvider } from '#server/modules/payments/sandbox/index';
import { createProductService } from './service.ts';

let t: TestApp;
let dkCourse: number;
let dkLesson: number;
let grooveCourse: number;
let grooveLesson: number;
let freeCourse: number;

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.deps;
  const add = async (slug: string, membersOnly: boolean) => {
    const [c] = await db
      .insert(courses)
      .values({ slug, title: slug.replace(/-/g, ' '), membersOnly })
      .returning();
    const [l] = await db
      .insert(lessons)
      .values({
        courseId: c!.id,
        slug: 'one',
        title: `${slug} lesson`,
        membersOnly,
        videoUrl: 'https://www.youtube-nocookie.com/embed/x',
      })
      .returning();
    return [c!.id, l!.id] as const;
  };
  [dkCourse, dkLesson] = await add('double-kick-basics', true);
  [grooveCourse, grooveLesson] = await add('groove-foundations', true);
  [freeCourse] = await add('welcome', false);
  // the start-up sync ran before these courses existed (as on a first demo start): run it again
  await service().syncCatalogue();
});
afterAll(async () => t.close());

const service = () =>
  createProductService({ db: t.app.deps.db, payments: t.app.deps.services.payments, users: t.app.deps.services.users });
const sandbox = () => t.app.deps.services.payments.providerFor('card') as unknown as SandboxProvider;

/** what the card form does: a client secret, then the sandbox confirms the card */
async function cardToken(client: TestClient, slug: string, number: string = SANDBOX_CARDS.succeeds) {
  const res = await client.post(`/api/products/${slug}/card/client-secret`);
  expect(res.statusCode).toBe(200);
  const { paymentMethod } = await sandbox().confirmSetup({
    clientSecret: res.json().clientSecret,
    number,
    expMonth: 12,
    expYear: 2040,
    cvc: '123',
    name: 'Ann Buyer',
  });
  return paymentMethod;
}

const product = async (slug: string) =>
  (await t.app.deps.db.select().from(products).where(eq(products.slug, slug)))[0]!;
const ordersOf = (userId: number) => t.app.deps.db.select().from(orders).where(eq(orders.userId, userId));
const chargesOf = async (userId: number) =>
  (
    await t.app.deps.db
      .select()
      .from(sandboxObjects)
      .where(
        and(
          eq(sandboxObjects.kind, 'charge'),
          sql`${sandboxObjects.data} -> 'metadata' ->> 'userId' = ${String(userId)}`,
        ),
      )
  ).length;

describe('the catalogue', () => {
  it('GET /api/products/double-kick: Basic 159 (99), 150 spots; Pro 265 (165), 60 spots; they open double-kick-basics', async () => {
    const res = await (await t.client()).get('/api/products/double-kick');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.course).toMatchObject({ id: dkCourse, slug: 'double-kick-basics' });
    expect(data.owned).toBe(false);
    expect(data.tiers).toEqual([
      {
        slug: 'doublekick_159',
        level: 'basic',
        title: 'Double Kick Mastery: Basic',
        price_cents: 9900,
        list_price_cents: 15900,
        spots: 150,
        spots_left: 150,
        sold_out: false,
      },
      {
        slug: 'doublekick_265',
        level: 'pro',
        title: 'Double Kick Mastery: Pro',
        price_cents: 16500,
        list_price_cents: 26500,
        spots: 60,
        spots_left: 60,
        sold_out: false,
      },
    ]);
  });

  it('GET /api/products/course/{id}: the course, its price HTML from numbers, and its two tiers', async () => {
    const res = await (await t.client()).get(`/api/products/course/${grooveCourse}`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({
      id: grooveCourse,
      title: 'groove foundations',
      price_basic_html: '<s>$79.00</s> <strong>$49.00</strong>',
      price_pro_html: '<s>$149.00</s> <strong>$99.00</strong>',
      price_basic: 4900,
      price_pro: 9900,
      owned: false,
    });
    expect(data.tiers.map((x: { slug: string; spots_left: number | null }) => [x.slug, x.spots_left])).toEqual([
      [`course_${grooveCourse}_basic`, null],
      [`course_${grooveCourse}_pro`, null],
    ]);
  });

  it("a course named at the title's limit gets tiers the console can save: the name cut short, the level shown", async () => {
    // 200 characters, the most a course's title takes (CONTENT.titleMax)
    const title = `${'Paradiddle Workshop '.repeat(10).trim()}!`;
    const [c] = await t.app.deps.db
      .insert(courses)
      .values({ slug: 'paradiddle-workshop', title, membersOnly: true })
      .returning();
    const res = await (await t.client()).get(`/api/products/course/${c!.id}`);
    expect(res.statusCode).toBe(200);
    const titles = (res.json() as { data: { tiers: { title: string }[] } }).data.tiers.map((tier) => tier.title);
    expect(titles).toEqual(['Basic', 'Pro'].map((l) => `${title.slice(0, PRODUCT_TITLE_MAX - l.length - 3)}…: ${l}`));
    for (const name of titles) expect(adminProductSchema.shape.title.safeParse(name).success).toBe(true);
  });

  it('the double-kick course answers the double-kick tiers; a free or unknown course is 404', async () => {
    const c = await t.client();
    expect(
      (await c.get(`/api/products/course/${dkCourse}`)).json().data.tiers.map((x: { slug: string }) => x.slug),
    ).toEqual(['doublekick_159', 'doublekick_265']);
    expect((await c.get(`/api/products/course/${freeCourse}`)).statusCode).toBe(404);
    expect((await c.get('/api/products/course/999999')).statusCode).toBe(404);
  });

  it('the start-up sync is idempotent and keeps the sold counts', async () => {
    await t.app.deps.db
      .update(products)
      .set({ sold: 3 })
      .where(eq(products.slug, `course_${grooveCourse}_pro`));
    await service().syncCatalogue();
    await service().syncCatalogue();
    expect((await product(`course_${grooveCourse}_pro`)).sold).toBe(3);
    expect((await t.app.deps.db.select().from(products).where(eq(products.courseId, grooveCourse))).length).toBe(2);
    await t.app.deps.db
      .update(products)
      .set({ sold: 0 })
      .where(eq(products.slug, `course_${grooveCourse}_pro`));
  });
});

describe('paying', () => {
  it('a visitor is 401 on every payment call', async () => {
    const c = await t.client();
    expect((await c.post('/api/products/doublekick_265/card/client-secret')).statusCode).toBe(401);
    expect((await c.post('/api/products/doublekick_265/card', { stripeToken: 'pm_x' })).statusCode).toBe(401);
    expect((await c.post('/api/products/doublekick_265/paypal', {})).statusCode).toBe(401);
    expect((await c.get('/api/products/paypal/return?order=1&token=x')).statusCode).toBe(303);
  });

  it('an unknown product is 404; a bad affiliate 422; a missing card 422', async () => {
    const { client } = await t.signedIn();
    expect((await client.post('/api/products/nope_1/card/client-secret')).statusCode).toBe(404);
    const bad = await client.post('/api/products/doublekick_159/paypal', { affiliate: '<script>' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.affiliate).toEqual([PRODUCT_MESSAGES.affiliateInvalid]);
    expect((await client.post('/api/products/doublekick_159/card', {})).statusCode).toBe(422);
  });

  it('a card purchase charges the server price, records the affiliate and opens the course (403 before, 200 after)', async () => {
    const { user, client } = await t.signedIn();
    // before: the course's members-only lesson stays closed
    expect((await client.get(`/api/lessons/${dkLesson}`)).json().data.locked).toBe(true);
    const before = await client.post('/lesson-completions', { lesson_id: dkLesson, complete: true });
    expect(before.statusCode).toBe(403);
    expect(before.json().message).toBe(LEARNING.membersOnly);

    const stripeToken = await cardToken(client, 'doublekick_265');
    const res = await client.post('/api/products/doublekick_265/card', {
      stripeToken,
      affiliate: 'drumshop',
      idempotency_key: 'k1',
      amount: 1,
      price_cents: 1,
    });
    expect(res.statusCode).toBe(200);
    const [order] = await ordersOf(user.id);
    expect(res.json()).toEqual({ url: `/order?order=${order!.id}` });
    expect(order).toMatchObject({
      kind: 'course',
      productSlug: 'doublekick_265',
      amountCents: 16500,
      affiliate: 'drumshop',
      status: 'paid',
    });
    expect((await product('doublekick_265')).sold).toBe(1);

    expect((await client.get(`/api/lessons/${dkLesson}`)).json().data).toMatchObject({
      locked: false,
      video_url: 'https://www.youtube-nocookie.com/embed/x',
    });
    expect((await client.post('/lesson-completions', { lesson_id: dkLesson, complete: true })).statusCode).toBe(200);
    expect((await client.get('/api/courses/double-kick-basics')).json().data.locked).toBe(false);
    // the course only: another members-only course stays closed
    expect((await client.get(`/api/lessons/${grooveLesson}`)).json().data.locked).toBe(true);
    expect((await client.get('/api/products/double-kick')).json().data.tiers[1].spots_left).toBe(59);

    // a double submit (same key) is the same order; owning the course already is said, not charged
    const again = await client.post('/api/products/doublekick_265/card', {
      stripeToken,
      affiliate: 'drumshop',
      idempotency_key: 'k2',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PRODUCT_MESSAGES.alreadyOwned);
    expect((await client.get('/api/products/double-kick')).json().data.owned).toBe(true);
    expect((await ordersOf(user.id)).length).toBe(1);
    expect(await chargesOf(user.id)).toBe(1);
  });

  it('a double submit with the same key is one order and one charge', async () => {
    const { user, client } = await t.signedIn();
    const stripeToken = await cardToken(client, `course_${grooveCourse}_basic`);
    const body = { stripeToken, idempotency_key: 'same' };
    const [a, b] = await Promise.all([
      client.post(`/api/products/course_${grooveCourse}_basic/card`, body),
      client.post(`/api/products/course_${grooveCourse}_basic/card`, body),
    ]);
    const ok = [a, b].filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of [a, b]) expect([200, 409]).toContain(r.statusCode);
    expect((await ordersOf(user.id)).length).toBe(1);
    expect(await chargesOf(user.id)).toBe(1);
  });

  it('a declined card: 402 with the provider message under errors.card; nothing granted', async () => {
    const { user, client } = await t.signedIn();
    const stripeToken = await cardToken(client, `course_${grooveCourse}_pro`, SANDBOX_CARDS.failsLater);
    const res = await client.post(`/api/products/course_${grooveCourse}_pro/card`, {
      stripeToken,
      idempotency_key: 'd1',
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      message: COMMERCE_MESSAGES.cardDeclined,
      errors: { card: [COMMERCE_MESSAGES.cardDeclined] },
    });
    expect((await ordersOf(user.id))[0]!.status).toBe('failed');
    expect((await client.get(`/api/lessons/${grooveLesson}`)).json().data.locked).toBe(true);
  });

  it('a sold-out tier is refused before anything is charged', async () => {
    await t.app.deps.db.update(products).set({ sold: 150 }).where(eq(products.slug, 'doublekick_159'));
    try {
      const { user, client } = await t.signedIn();
      expect((await client.get('/api/products/double-kick')).json().data.tiers[0]).toMatchObject({
        spots_left: 0,
        sold_out: true,
      });
      const stripeToken = await cardToken(client, 'doublekick_159');
      const res = await client.post('/api/products/doublekick_159/card', { stripeToken, idempotency_key: 's1' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(COMMERCE_MESSAGES.soldOut);
      const paypal = await client.post('/api/products/doublekick_159/paypal', { idempotency_key: 's2' });
      expect(paypal.statusCode).toBe(409);
      expect(paypal.json().message).toBe(COMMERCE_MESSAGES.soldOut);
      expect(await chargesOf(user.id)).toBe(0);
      expect((await client.get(`/api/lessons/${dkLesson}`)).json().data.locked).toBe(true);
    } finally {
      await t.app.deps.db.update(products).set({ sold: 0 }).where(eq(products.slug, 'doublekick_159'));
    }
  });

  it('the last spot bought by two members at once: one wins, the other gets 409 and is not charged', async () => {
    await t.app.deps.db.update(products).set({ sold: 149 }).where(eq(products.slug, 'doublekick_159'));
    try {
      const a = await t.signedIn();
      const b = await t.signedIn();
      const [ta, tb] = [await cardToken(a.client, 'doublekick_159'), await cardToken(b.client, 'doublekick_159')];
      const [ra, rb] = await Promise.all([
        a.client.post('/api/products/doublekick_159/card', { stripeToken: ta, idempotency_key: 'race' }),
        b.client.post('/api/products/doublekick_159/card', { stripeToken: tb, idempotency_key: 'race' }),
      ]);
      expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 409]);
      const [winner, loser] = ra.statusCode === 200 ? [a, b] : [b, a];
      expect((ra.statusCode === 409 ? ra : rb).json().message).toBe(COMMERCE_MESSAGES.soldOut);
      expect(await chargesOf(winner.user.id)).toBe(1);
      expect(await chargesOf(loser.user.id)).toBe(0);
      expect((await ordersOf(loser.user.id)).every((o) => o.status !== 'paid')).toBe(true);
      expect((await loser.client.get(`/api/lessons/${dkLesson}`)).json().data.locked).toBe(true);
      expect((await winner.client.get(`/api/lessons/${dkLesson}`)).json().data.locked).toBe(false);
      expect((await product('doublekick_159')).sold).toBe(150);
    } finally {
      await t.app.deps.db.update(products).set({ sold: 0 }).where(eq(products.slug, 'doublekick_159'));
    }
  });
});

describe('PayPal', () => {
  it('approval, return, capture: the course is granted and the affiliate recorded', async () => {
    const { user, client } = await t.signedIn();
    const res = await client.post(`/api/products/course_${grooveCourse}_pro/paypal`, {
      affiliate: 'drum-shop_2',
      idempotency_key: 'p1',
      amount: 1,
    });
    expect(res.statusCode).toBe(200);
    const { url } = res.json();
    expect(url).toMatch(/^\/sandbox\/paypal\/approve\//);
    const ref = url.split('/').pop()!;
    const back = new URL(await sandbox().approvePaypal(ref));
    expect(back.pathname).toBe('/api/products/paypal/return');
    const ret = await client.get(back.pathname + back.search);
    expect(ret.statusCode).toBe(303);
    const [order] = await ordersOf(user.id);
    expect(ret.headers.location).toBe(`/order?order=${order!.id}`);
    expect(order).toMatchObject({ provider: 'sandbox', amountCents: 9900, affiliate: 'drum-shop_2', status: 'paid' });
    expect((await client.get(`/api/lessons/${grooveLesson}`)).json().data.locked).toBe(false);
    // coming back again changes nothing
    expect((await client.get(back.pathname + back.search)).headers.location).toBe(`/order?order=${order!.id}`);
    expect(await chargesOf(user.id)).toBe(1);
  });

  it('a cancelled approval returns to the checkout with the message, nothing charged; another buyer cannot use the return', async () => {
    const { user, client } = await t.signedIn();
    const { url } = (
      await client.post(`/api/products/course_${grooveCourse}_basic/paypal`, {
        affiliate: 'drumshop',
        idempotency_key: 'c1',
      })
    ).json();
    const ref = url.split('/').pop()!;
    const other = await t.signedIn();
    const [order] = await ordersOf(user.id);
    expect((await other.client.get(`/api/products/paypal/return?order=${order!.id}&token=${ref}`)).statusCode).toBe(
      404,
    );
    const back = new URL(await sandbox().cancelPaypal(ref));
    const ret = await client.get(back.pathname + back.search);
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe(
      `/checkout/course?course=${grooveCourse}&level=basic&affiliate=drumshop&paypal=canceled`,
    );
    expect((await ordersOf(user.id))[0]).toMatchObject({ status: 'failed' });
    expect(await chargesOf(user.id)).toBe(0);
    expect((await client.get(`/api/lessons/${grooveLesson}`)).json().data.locked).toBe(true);
  });
});

describe('the order page of a course buyer (GET /api/order)', () => {
  it('answers their latest order without a number, with how it was paid (card and PayPal)', async () => {
    const { client } = await t.signedIn();
    const stripeToken = await cardToken(client, 'doublekick_159');
    const card = await client.post('/api/products/doublekick_159/card', {
      stripeToken,
      idempotency_key: 'order-page-1',
    });
    expect(card.statusCode).toBe(200);
    const cardOrder = Number(new URL(card.json().url, 'http://x').searchParams.get('order'));

    const latest = (await client.get('/api/order')).json().order;
    expect(latest).toMatchObject({
      id: cardOrder,
      kind: 'course',
      status: 'paid',
      course: { title: expect.any(String) },
    });
    expect(latest.payment_method).toMatch(/\S/);
    expect((await client.get(`/api/order?order=${cardOrder}`)).json().order.payment_method).toBe(latest.payment_method);

    const paypal = await client.post(`/api/products/course_${grooveCourse}_basic/paypal`, {
      idempotency_key: 'order-page-2',
    });
    const back = new URL(await sandbox().approvePaypal(paypal.json().url.split('/').pop()!));
    expect((await client.get(back.pathname + back.search)).statusCode).toBe(303);
    const second = (await client.get('/api/order')).json().order;
    expect(second).toMatchObject({ kind: 'course', status: 'paid' });
    expect(second.id).toBeGreaterThan(cardOrder);
    expect(second.payment_method).toMatch(/PayPal/);
  });
});
