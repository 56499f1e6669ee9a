import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { COMMERCE_MESSAGES, COURSE_LEVELS, DOUBLE_KICK_TIERS, type CourseLevel } from '#shared/commerce';
import {
  COURSE_TIER_PRICES,
  DOUBLE_KICK_COURSE_SLUG,
  LEVEL_TITLES,
  PRODUCT_MESSAGES,
  courseCheckoutUrl,
  courseTierSlug,
  doubleKickCheckoutUrl,
  type PaypalOutcome,
  type Tier,
} from '#shared/products';
import type { Database } from '#server/db/client';
import { courses, orders, products } from '#server/db/schema/index';
import { orderUrl } from '#shared/checkout';
import { AppError, notFound } from '#server/lib/errors';
import type { PaymentsService, OrderRow } from '#server/modules/payments/index';
import { cardError, ProviderError } from '#server/modules/payments/index';
import type { UserService } from '#server/modules/users/index';
import type { AuthUser } from '#server/types';
import { formatMoney } from '#shared/money';

type ProductRow = typeof products.$inferSelect;

/** A pending order holds its spot this long (a card charge takes seconds; a PayPal approval minutes). */
export const RESERVATION_MINUTES = 30;

export const soldOut = () => new AppError(409, COMMERCE_MESSAGES.soldOut);
export const alreadyOwned = () => new AppError(409, PRODUCT_MESSAGES.alreadyOwned);
/** 402 with the provider's words under the card element (errors.card) */

const isDoubleKick = (slug: string) => DOUBLE_KICK_TIERS.some((t) => t.slug === slug);

/** a small price block built from numbers only (the course's price_basic_html / price_pro_html) */
export const priceHtml = (priceCents: number, listPriceCents: number | null) =>
  `${listPriceCents && listPriceCents > priceCents ? `<s>${formatMoney(listPriceCents)}</s> ` : ''}<strong>${formatMoney(priceCents)}</strong>`;

/**
 * Double-kick and course tiers (docs/product/course-products.md): the catalogue, buying one by card or PayPal through
 * the payments ledger. Spots are held by the pending order from the moment the buyer pays until it
 * is paid or fails, under a lock on the product row, so the last spot goes to one buyer only and the
 * other is refused before anything is charged.
 */
export function createProductService(deps: { db: Database; payments: PaymentsService; users: UserService }) {
  const { db, payments } = deps;

  const toTier = (p: ProductRow, reserved = 0): Tier => {
    const left = p.spots === null ? null : Math.max(0, p.spots - p.sold - reserved);
    return {
      slug: p.slug,
      level: (COURSE_LEVELS as readonly string[]).includes(p.level ?? '') ? (p.level as CourseLevel) : 'basic',
      title: p.title,
      price_cents: p.priceCents,
      list_price_cents: p.listPriceCents,
      spots: p.spots,
      spots_left: left,
      sold_out: left !== null && left <= 0,
    };
  };

  /** pending orders still holding a spot, per product */
  async function reservations(slugs: string[], exceptOrderId = 0, ex: Pick<Database, 'select'> = db) {
    if (slugs.length === 0) return new Map<string, number>();
    const since = new Date(Date.now() - RESERVATION_MINUTES * 60_000);
    const rows = await ex
      .select({ slug: orders.productSlug, n: sql<number>`count(*)::int` })
      .from(orders)
      .where(
        and(
          eq(orders.kind, 'course'),
          inArray(orders.productSlug, slugs),
          inArray(orders.status, ['pending', 'requires_action']),
          sql`(${orders.metadata} ->> 'reserved') = 'true'`,
          gt(orders.createdAt, since),
          ne(orders.id, exceptOrderId),
        ),
      )
      .groupBy(orders.productSlug);
    return new Map(rows.map((r) => [r.slug, Number(r.n)]));
  }

  async function tiersFor(rows: ProductRow[]) {
    const held = await reservations(rows.map((r) => r.slug));
    return rows
      .sort((a, b) => COURSE_LEVELS.indexOf(a.level as CourseLevel) - COURSE_LEVELS.indexOf(b.level as CourseLevel))
      .map((r) => toTier(r, held.get(r.slug) ?? 0));
  }

  async function owns(user: AuthUser | null, courseId: number | null) {
    if (!user || courseId === null) return false;
    if (user.isAdmin) return true;
    return (await deps.users.activeEntitlements(user.id)).includes(`course:${courseId}`);
  }

  async function productOr404(slug: string) {
    const [p] = await db
      .select()
      .from(products)
      .where(and(eq(products.slug, slug), eq(products.active, true)))
      .limit(1);
    if (!p) throw notFound(PRODUCT_MESSAGES.unknownProduct);
    return p;
  }

  const checkoutPath = (p: ProductRow, affiliate: string | null) =>
    isDoubleKick(p.slug) || p.courseId === null
      ? doubleKickCheckoutUrl(p.slug, affiliate)
      : courseCheckoutUrl(p.courseId, (p.level ?? 'basic') as CourseLevel, affiliate);

  /**
   * Hold a spot for this order, under a lock on the product row (one buyer at a time per product):
   * refused with 409 soldOut when paid and held spots already fill the tier.
   */
  async function reserve(p: ProductRow, order: OrderRow) {
    if (p.spots === null) return;
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(products).where(eq(products.slug, p.slug)).for('update');
      if (!row || row.spots === null) return;
      const held = (await reservations([p.slug], order.id, tx)).get(p.slug) ?? 0;
      if (row.sold + held >= row.spots) throw soldOut();
      await tx
        .update(orders)
        .set({ metadata: sql`${orders.metadata} || ${JSON.stringify({ reserved: true })}::jsonb` })
        .where(eq(orders.id, order.id));
    });
  }

  /** the server-side key of a charge: user, product and the key the browser sent (or a fresh one) */
  const orderKey = (user: AuthUser, slug: string, method: string, clientKey: string | undefined) =>
    `product:${createHash('sha256')
      .update(`${user.id}:${slug}:${method}:${clientKey || randomBytes(16).toString('hex')}`)
      .digest('hex')
      .slice(0, 40)}`;

  async function begin(
    user: AuthUser,
    slug: string,
    method: 'card' | 'paypal',
    input: { affiliate: string | null; idempotencyKey: string | undefined },
  ) {
    const p = await productOr404(slug);
    if (await owns(user, p.courseId)) throw alreadyOwned();
    const provider = payments.providerFor(method);
    // a card is charged in this request: the order holds the course first (one copy per member,
    // whichever tier); a PayPal order takes the hold when the buyer comes back to be captured
    const { order } = await payments.startOrder(
      user,
      {
        kind: 'course',
        productSlug: p.slug,
        plan: null,
        // the server's price: nothing the browser sends sets an amount
        amountCents: p.priceCents,
        provider: provider.name,
        affiliate: input.affiliate,
        idempotencyKey: orderKey(user, p.slug, method, input.idempotencyKey),
        metadata: { courseId: p.courseId, level: p.level, checkout: checkoutPath(p, input.affiliate) },
      },
      { hold: method === 'card' },
    );
    return { p, provider, order };
  }

  /** the charge went through: record it (the ledger refunds and refuses a spot lost on the way) */
  async function settle(order: OrderRow, charge: { ref: string; paymentMethodLabel: string }) {
    let paid: OrderRow;
    try {
      paid = await payments.markOrderPaid(order.id, charge);
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 409) throw soldOut();
      throw err;
    }
    // the order page and the receipt say how it was paid; the provider's own notice of the charge
    // may have settled the order first, without the card's or the PayPal account's label
    if (charge.paymentMethodLabel && !paid.metadata.paymentMethod) {
      await db
        .update(orders)
        .set({
          metadata: sql`${orders.metadata} || ${JSON.stringify({ paymentMethod: charge.paymentMethodLabel })}::jsonb`,
        })
        .where(eq(orders.id, order.id));
    }
    return paid;
  }

  return {
    /**
     * The catalogue, at every start (idempotent): the double-kick tiers (docs/product/course-products.md; opening the
     * double-kick-basics course when it exists) and a Basic and a Pro tier for every other
     * members-only course. Sold counts are never touched.
     */
    async syncCatalogue() {
      const all = await db
        .select({ id: courses.id, slug: courses.slug, title: courses.title, membersOnly: courses.membersOnly })
        .from(courses);
      const dk = all.find((c) => c.slug === DOUBLE_KICK_COURSE_SLUG) ?? null;
      for (const t of DOUBLE_KICK_TIERS) {
        const values = {
          title: t.title,
          courseId: dk?.id ?? null,
          level: t.level,
          priceCents: t.priceCents,
          listPriceCents: t.listPriceCents,
          spots: t.spots,
        };
        // kept as an admin may have changed them: only a missing course link is filled in
        await db
          .insert(products)
          .values({ slug: t.slug, kind: 'course', ...values })
          .onConflictDoNothing({ target: products.slug });
        if (dk)
          await db
            .update(products)
            .set({ courseId: dk.id })
            .where(and(eq(products.slug, t.slug), isNull(products.courseId)));
      }
      for (const c of all) {
        if (!c.membersOnly || c.id === dk?.id) continue;
        await this.ensureCourseTiers(c);
      }
    },

    /** a members-only course's two tiers (kept as an admin may have changed them) */
    async ensureCourseTiers(c: { id: number; title: string }) {
      await db
        .insert(products)
        .values(
          COURSE_LEVELS.map((level) => ({
            slug: courseTierSlug(c.id, level),
            kind: 'course' as const,
            title: `${c.title}: ${LEVEL_TITLES[level]}`,
            courseId: c.id,
            level,
            priceCents: COURSE_TIER_PRICES[level].priceCents,
            listPriceCents: COURSE_TIER_PRICES[level].listPriceCents,
            spots: null,
          })),
        )
        .onConflictDoNothing();
    },

    async doubleKick(user: AuthUser | null) {
      const rows = await db
        .select()
        .from(products)
        .where(
          inArray(
            products.slug,
            DOUBLE_KICK_TIERS.map((t) => t.slug),
          ),
        );
      const courseId = rows.find((r) => r.courseId !== null)?.courseId ?? null;
      const [course] = courseId
        ? await db
            .select({ id: courses.id, slug: courses.slug, title: courses.title })
            .from(courses)
            .where(eq(courses.id, courseId))
        : [];
      return {
        course: course ?? null,
        owned: await owns(user, courseId),
        tiers: await tiersFor(rows.filter((r) => r.active)),
      };
    },

    async course(user: AuthUser | null, courseId: number) {
      const [c] = await db.select().from(courses).where(eq(courses.id, courseId)).limit(1);
      if (!c || !c.membersOnly) throw notFound(PRODUCT_MESSAGES.unknownProduct);
      let rows = await db
        .select()
        .from(products)
        .where(and(eq(products.courseId, courseId), eq(products.active, true)));
      if (rows.length === 0) {
        // a course added since start-up gets its tiers the first time someone asks
        await this.ensureCourseTiers(c);
        rows = await db
          .select()
          .from(products)
          .where(and(eq(products.courseId, courseId), eq(products.active, true)));
      }
      const tiers = await tiersFor(rows.filter((r) => r.level === 'basic' || r.level === 'pro'));
      const basic = tiers.find((t) => t.level === 'basic');
      const pro = tiers.find((t) => t.level === 'pro');
      if (!basic || !pro) throw notFound(PRODUCT_MESSAGES.unknownProduct);
      return {
        id: c.id,
        slug: c.slug,
        title: c.title,
        description: c.description,
        price_basic_html: priceHtml(basic.price_cents, basic.list_price_cents),
        price_pro_html: priceHtml(pro.price_cents, pro.list_price_cents),
        price_basic: basic.price_cents,
        price_pro: pro.price_cents,
        owned: await owns(user, c.id),
        tiers,
      };
    },

    /** a SetupIntent's client secret for the card form */
    async cardClientSecret(user: AuthUser, slug: string) {
      const p = await productOr404(slug);
      if (await owns(user, p.courseId)) throw alreadyOwned();
      return payments.providerFor('card').createCardSetup({
        email: user.email,
        name: user.name,
        idempotencyKey: `setup:${user.id}:${randomBytes(12).toString('hex')}`,
        metadata: { userId: String(user.id), product: p.slug },
      });
    },

    /** charge a confirmed card for a tier: answers the order page's address */
    async payByCard(
      user: AuthUser,
      slug: string,
      input: { paymentMethod: string; affiliate: string | null; idempotencyKey: string | undefined },
    ) {
      const { p, provider, order } = await begin(user, slug, 'card', input);
      if (order.status === 'paid') return { url: orderUrl(order.id) };
      if (order.status === 'failed') throw cardError(order.failureMessage ?? COMMERCE_MESSAGES.cardDeclined);
      try {
        await reserve(p, order);
      } catch (err) {
        await payments.markOrderFailed(order.id, err instanceof Error ? err.message : COMMERCE_MESSAGES.soldOut);
        throw err;
      }
      let charge;
      try {
        charge = await provider.chargeCard({
          email: user.email,
          name: user.name,
          paymentMethod: input.paymentMethod,
          amountCents: order.amountCents,
          description: p.title,
          idempotencyKey: order.idempotencyKey,
          metadata: { orderId: String(order.id), userId: String(user.id), product: p.slug },
        });
      } catch (err) {
        const message = err instanceof ProviderError ? err.message : COMMERCE_MESSAGES.cardDeclined;
        await payments.markOrderFailed(order.id, message);
        throw cardError(message);
      }
      if (charge.status !== 'succeeded') {
        // the card form authenticates the card when it is set up; a charge still asking for it is refused
        const message =
          charge.status === 'requires_action'
            ? PRODUCT_MESSAGES.needsAuthentication
            : (charge.failureMessage ?? COMMERCE_MESSAGES.cardDeclined);
        await payments.markOrderFailed(order.id, message);
        throw cardError(message);
      }
      await payments.attachProviderRef(order.id, charge.ref);
      await settle(order, charge);
      return { url: orderUrl(order.id) };
    },

    /** a PayPal order to approve: answers PayPal's (or the sandbox's) approval address */
    async payByPaypal(
      user: AuthUser,
      slug: string,
      input: { affiliate: string | null; idempotencyKey: string | undefined; origin: string },
    ) {
      const { p, provider, order } = await begin(user, slug, 'paypal', input);
      if (order.status === 'paid') return { url: orderUrl(order.id) };
      try {
        await reserve(p, order);
      } catch (err) {
        await payments.markOrderFailed(order.id, COMMERCE_MESSAGES.soldOut);
        throw err;
      }
      const back = `${input.origin}/api/products/paypal/return?order=${order.id}`;
      const approval = await provider.createPaypalOrder({
        amountCents: order.amountCents,
        description: p.title,
        returnUrl: back,
        cancelUrl: `${back}&cancel=1`,
        idempotencyKey: order.idempotencyKey,
        metadata: { orderId: String(order.id), userId: String(user.id), product: p.slug },
      });
      if (order.providerRef !== approval.ref) await payments.attachProviderRef(order.id, approval.ref);
      return { url: approval.url };
    },

    /**
     * The buyer is back from PayPal: capture, record, and say where to go (the order page, or the
     * checkout with the outcome).
     */
    async paypalReturn(
      user: AuthUser,
      orderId: number,
      input: { token: string | undefined; cancel: boolean },
    ): Promise<string> {
      const [order] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, user.id), eq(orders.kind, 'course')))
        .limit(1);
      if (!order) throw notFound();
      const checkout =
        typeof order.metadata.checkout === 'string' && order.metadata.checkout.startsWith('/checkout/')
          ? order.metadata.checkout
          : '/courses';
      const back = (outcome: PaypalOutcome) => `${checkout}${checkout.includes('?') ? '&' : '?'}paypal=${outcome}`;
      if (order.status === 'paid') return orderUrl(order.id);
      if (order.status !== 'pending' && order.status !== 'requires_action') return back('failed');
      if (input.cancel) {
        await payments.markOrderFailed(order.id, COMMERCE_MESSAGES.paymentCanceled);
        return back('canceled');
      }
      if (!order.providerRef || (input.token && input.token !== order.providerRef)) throw notFound();
      const [p] = await db.select().from(products).where(eq(products.slug, order.productSlug)).limit(1);
      if (!p) throw notFound();
      if (await owns(user, p.courseId)) {
        await payments.markOrderFailed(order.id, PRODUCT_MESSAGES.alreadyOwned);
        return back('owned');
      }
      // bought meanwhile in another tab: nothing is captured
      try {
        await payments.takeHold(order.id);
      } catch (err) {
        if (!(err instanceof AppError && err.statusCode === 409)) throw err;
        await payments.markOrderFailed(order.id, err.message);
        return back('owned');
      }
      // the approval may have outlasted its hold on a spot: take it again before money moves
      try {
        await reserve(p, order);
      } catch {
        await payments.markOrderFailed(order.id, COMMERCE_MESSAGES.soldOut);
        return back('sold_out');
      }
      const provider = payments.providerFor('paypal');
      let charge;
      try {
        charge = await provider.capturePaypalOrder(order.providerRef, `${order.idempotencyKey}:capture`);
      } catch (err) {
        await payments.markOrderFailed(order.id, err instanceof Error ? err.message : PRODUCT_MESSAGES.paypalFailed);
        return back(err instanceof ProviderError && err.code === 'canceled' ? 'canceled' : 'failed');
      }
      if (charge.status !== 'succeeded') {
        await payments.markOrderFailed(order.id, charge.failureMessage ?? PRODUCT_MESSAGES.paypalFailed);
        return back('failed');
      }
      try {
        await settle(order, charge);
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 409) return back('sold_out');
        throw err;
      }
      return orderUrl(order.id);
    },
  };
}
export type ProductService = ReturnType<typeof createProductService>;
