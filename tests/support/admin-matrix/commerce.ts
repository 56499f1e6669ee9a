import { randomUUID } from 'node:crypto';
import { DEFAULT_MENTORSHIP_PRICING, DEFAULT_RETENTION_OFFERS } from '#shared/admin-commerce';
import { DEFAULT_RECEIPT_SELLER } from '#shared/receipts';
import { orders, products } from '#server/db/schema/index';
import type { MatrixContext, MatrixRow } from './matrix.ts';

/** a pending order of the admin's (refusing its refund is the admin's answer: 409) */
async function pendingOrder(ctx: MatrixContext) {
  const [o] = await ctx.app.app.deps.db
    .insert(orders)
    .values({
      userId: ctx.adminId,
      kind: 'course',
      productSlug: 'matrix-product',
      amountCents: 100,
      provider: 'sandbox',
      idempotencyKey: `matrix:${randomUUID()}`,
    })
    .returning();
  return o!.id;
}

async function product(ctx: MatrixContext) {
  const slug = `matrix_${randomUUID().slice(0, 8)}`;
  await ctx.app.app.deps.db.insert(products).values({ slug, title: 'Matrix tier', priceCents: 1000, spots: 5 });
  return slug;
}

const planBody = async (ctx: MatrixContext) => {
  const plan = (await ctx.admin.get('/api/admin/plans/academy')).json() as Record<string, unknown>;
  const { slug: _slug, updated_at: _at, ...body } = plan;
  return body;
};

/** Every admin call of this module, for the authorisation matrix (src/server/modules/admin/matrix.test.ts). */
export const rows: MatrixRow[] = [
  {
    method: 'GET',
    route: '/api/admin/orders',
    call: () => ({ url: '/api/admin/orders?q=a&status=paid&sort=amount&dir=desc' }),
  },
  {
    method: 'GET',
    route: '/api/admin/orders/:id',
    call: async (ctx) => ({ url: `/api/admin/orders/${await pendingOrder(ctx)}` }),
  },
  {
    method: 'POST',
    route: '/api/admin/orders/:id/refund',
    call: async (ctx) => ({ url: `/api/admin/orders/${await pendingOrder(ctx)}/refund` }),
    admin: 409,
  },
  {
    method: 'GET',
    route: '/api/admin/subscriptions',
    call: () => ({ url: '/api/admin/subscriptions?status=active&plan=monthly&q=a' }),
  },
  { method: 'GET', route: '/api/admin/plans', call: () => ({ url: '/api/admin/plans' }) },
  { method: 'GET', route: '/api/admin/plans/:slug', call: () => ({ url: '/api/admin/plans/academy' }) },
  {
    method: 'PUT',
    route: '/api/admin/plans/:slug',
    call: async (ctx) => ({ url: '/api/admin/plans/academy', body: await planBody(ctx) }),
  },
  { method: 'GET', route: '/api/admin/products', call: () => ({ url: '/api/admin/products?q=tier&sort=price' }) },
  {
    method: 'GET',
    route: '/api/admin/products/:slug',
    call: async (ctx) => ({ url: `/api/admin/products/${await product(ctx)}` }),
  },
  {
    method: 'PUT',
    route: '/api/admin/products/:slug',
    call: async (ctx) => ({
      url: `/api/admin/products/${await product(ctx)}`,
      body: {
        title: 'Matrix tier',
        course_id: null,
        level: 'basic',
        price_cents: 1200,
        list_price_cents: 2000,
        spots: 10,
        active: true,
      },
    }),
  },
  { method: 'GET', route: '/api/admin/mentorship-pricing', call: () => ({ url: '/api/admin/mentorship-pricing' }) },
  {
    method: 'PUT',
    route: '/api/admin/mentorship-pricing',
    call: () => ({ url: '/api/admin/mentorship-pricing', body: { ...DEFAULT_MENTORSHIP_PRICING } }),
  },
  { method: 'GET', route: '/api/admin/retention', call: () => ({ url: '/api/admin/retention' }) },
  {
    method: 'PUT',
    route: '/api/admin/retention',
    call: () => ({ url: '/api/admin/retention', body: { ...DEFAULT_RETENTION_OFFERS } }),
  },
  {
    method: 'GET',
    route: '/api/admin/cancellations',
    call: () => ({ url: '/api/admin/cancellations?outcome=cancel&q=a' }),
  },
  {
    method: 'GET',
    route: '/api/admin/webhook-failures',
    call: () => ({ url: '/api/admin/webhook-failures?provider=stripe&kind=rejected&state=open&q=evt&sort=deliveries' }),
  },
  {
    method: 'GET',
    route: '/api/admin/subscriptions/:id/payments',
    call: () => ({ url: '/api/admin/subscriptions/999999/payments' }),
    admin: 404,
  },
  {
    method: 'POST',
    route: '/api/admin/invoices/:id/refund',
    call: () => ({
      url: '/api/admin/invoices/999999/refund',
      body: { amount_cents: 100, idempotency_key: 'matrix-refund-key' },
    }),
    admin: 404,
  },
  { method: 'GET', route: '/api/admin/receipt-seller', call: () => ({ url: '/api/admin/receipt-seller' }) },
  {
    method: 'PUT',
    route: '/api/admin/receipt-seller',
    call: () => ({ url: '/api/admin/receipt-seller', body: { ...DEFAULT_RECEIPT_SELLER } }),
  },
  {
    method: 'POST',
    route: '/api/admin/webhook-failures/:id/retry',
    call: () => ({ url: '/api/admin/webhook-failures/999999/retry' }),
    admin: 404,
  },
];
