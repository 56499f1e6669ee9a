import { and, asc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import { spotsBelowSold, type AdminProduct, type AdminProductInput } from '#shared/admin-commerce';
import type { Database } from '#server/db/client';
import { courses, products } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import { containing, countAll, pageOfSelect, recordAudit, sortOf, type Actor } from '#server/modules/admin/index';

type ProductRow = typeof products.$inferSelect;

function productDto(
  p: ProductRow,
  course: { id: number | null; title: string | null; slug: string | null } | null,
): AdminProduct {
  return {
    slug: p.slug,
    kind: p.kind,
    title: p.title,
    course_id: p.courseId,
    course: course && course.id !== null ? { id: course.id, title: course.title ?? '', slug: course.slug ?? '' } : null,
    level: p.level === 'basic' || p.level === 'pro' ? p.level : null,
    price_cents: p.priceCents,
    list_price_cents: p.listPriceCents,
    spots: p.spots,
    sold: p.sold,
    spots_left: p.spots === null ? null : Math.max(0, p.spots - p.sold),
    active: p.active,
  };
}

/** The commerce area's courses for sale (tiers and their spots); every change is audited. */
export function createAdminProducts(deps: { db: Database }) {
  const { db } = deps;

  async function productWithCourse(slug: string) {
    const [row] = await db
      .select({ p: products, id: courses.id, title: courses.title, slug: courses.slug })
      .from(products)
      .leftJoin(courses, eq(courses.id, products.courseId))
      .where(eq(products.slug, slug))
      .limit(1);
    if (!row) throw notFound('That product does not exist.');
    return productDto(row.p, row);
  }

  return {
    async products(query: AdminListQuery & { active?: string | undefined }): Promise<AdminPage<AdminProduct>> {
      const where: SQL[] = [];
      if (query.active) where.push(eq(products.active, query.active === '1'));
      if (query.q) {
        const l = containing(query.q);
        where.push(or(ilike(products.title, l), ilike(products.slug, l), ilike(courses.title, l))!);
      }
      const cond = where.length ? and(...where) : undefined;
      const sort = sortOf(
        query,
        { title: products.title, price: products.priceCents, sold: products.sold, slug: products.slug },
        'slug',
        'asc',
      );
      return pageOfSelect({
        query,
        sort,
        count: db
          .select({ n: countAll })
          .from(products)
          .leftJoin(courses, eq(courses.id, products.courseId))
          .where(cond),
        rows: db
          .select({ p: products, id: courses.id, title: courses.title, slug: courses.slug })
          .from(products)
          .leftJoin(courses, eq(courses.id, products.courseId))
          .where(cond)
          .orderBy(sort.order, asc(products.slug)),
        map: (r) => productDto(r.p, r),
      });
    },
    product: productWithCourse,
    async updateProduct(actor: Actor, slug: string, input: AdminProductInput): Promise<AdminProduct> {
      if (input.course_id !== null) {
        const [c] = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, input.course_id)).limit(1);
        if (!c) throw new ValidationError({ course_id: ['The course must be chosen from the list.'] });
      }
      await db.transaction(async (tx) => {
        // the row is locked: a purchase raising `sold` waits, so spots never go below what is sold
        const [row] = await tx.select().from(products).where(eq(products.slug, slug)).for('update');
        if (!row) throw notFound('That product does not exist.');
        if (input.spots !== null && input.spots < row.sold)
          throw new ValidationError({ spots: [spotsBelowSold(row.sold)] });
        const [updated] = await tx
          .update(products)
          .set({
            title: input.title,
            courseId: input.course_id,
            level: input.level,
            priceCents: input.price_cents,
            listPriceCents: input.list_price_cents,
            spots: input.spots,
            active: input.active,
          })
          .where(eq(products.slug, slug))
          .returning();
        await recordAudit(tx, actor, {
          action: 'product.update',
          targetType: 'product',
          targetId: slug,
          summary: `Course for sale "${updated!.title}"`,
          before: productDto(row, null),
          after: productDto(updated!, null),
        });
      });
      return productWithCourse(slug);
    },
    /** the courses a tier can open (the product form's list) */
    async courseChoices() {
      return db.select({ id: courses.id, title: courses.title }).from(courses).orderBy(asc(courses.title));
    },
  };
}
