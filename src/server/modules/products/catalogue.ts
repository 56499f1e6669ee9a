import { and, eq, inArray, isNull } from 'drizzle-orm';
import { COURSE_LEVELS, DOUBLE_KICK_TIERS, type CourseLevel } from '#shared/commerce';
import {
  COURSE_TIER_PRICES,
  DOUBLE_KICK_COURSE_SLUG,
  PRODUCT_MESSAGES,
  courseTierSlug,
  tierTitle,
  type Tier,
} from '#shared/products';
import { formatMoney } from '#shared/money';
import type { Database } from '#server/db/client';
import { courses, products } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import type { Owns } from './ownership.ts';
import type { ProductRow, Spots } from './spots.ts';

/** a small price block built from numbers only (the course's price_basic_html / price_pro_html) */
export const priceHtml = (priceCents: number, listPriceCents: number | null) =>
  `${listPriceCents && listPriceCents > priceCents ? `<s>${formatMoney(listPriceCents)}</s> ` : ''}<strong>${formatMoney(priceCents)}</strong>`;

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

/** The catalogue: kept in step with the courses at start-up, and the tiers a buyer is shown. */
export function createCatalogue(deps: { db: Database }, spots: Spots, owns: Owns) {
  const { db } = deps;

  async function tiersFor(rows: ProductRow[]) {
    const held = await spots.reservations(rows.map((r) => r.slug));
    return rows
      .sort((a, b) => COURSE_LEVELS.indexOf(a.level as CourseLevel) - COURSE_LEVELS.indexOf(b.level as CourseLevel))
      .map((r) => toTier(r, held.get(r.slug) ?? 0));
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
            title: tierTitle(c.title, level),
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
  };
}
