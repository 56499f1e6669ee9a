import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import {
  adminCancellationsQuerySchema,
  adminOrdersQuerySchema,
  adminPlanSchema,
  adminProductSchema,
  adminProductsQuerySchema,
  adminSubscriptionsQuerySchema,
  adminWebhookFailuresQuerySchema,
  DEFAULT_MENTORSHIP_PRICING,
  DEFAULT_RETENTION_OFFERS,
  MENTORSHIP_PRICING_SETTING,
  mentorshipPricingSchema,
  RETENTION_SETTING,
  retentionOffersSchema,
} from '#shared/admin-commerce';
import { idSchema } from '#shared/http';
import { adminActor } from '#server/lib/guards';
import { subscriptionRefundSchema } from '#shared/receipts';

const slugParams = z.object({ slug: z.string().trim().min(1).max(100) });
const idParams = z.object({ id: idSchema });

/** Admin console: commerce. Every call is admin-only (checked before the body is read). */
export const adminCommerceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { settings } = app.deps.services;
  const commerce = app.deps.services.adminCommerce;

  // orders and refunds
  app.get(
    '/api/admin/orders',
    { config: { access: 'admin' }, schema: { querystring: adminOrdersQuerySchema } },
    async (request) => commerce.orders(request.query),
  );
  app.get('/api/admin/orders/:id', { config: { access: 'admin' }, schema: { params: idParams } }, async (request) =>
    commerce.order(request.params.id),
  );
  app.post(
    '/api/admin/orders/:id/refund',
    { config: { access: 'admin' }, schema: { params: idParams } },
    async (request) => commerce.refund(adminActor(request), request.params.id),
  );

  // subscriptions
  app.get(
    '/api/admin/subscriptions',
    { config: { access: 'admin' }, schema: { querystring: adminSubscriptionsQuerySchema } },
    async (request) => commerce.subscriptions(request.query),
  );
  // a subscription's payments, refunded whole or in part (docs/product/receipts.md)
  const refunds = app.deps.services.subscriptionRefunds;
  app.get(
    '/api/admin/subscriptions/:id/payments',
    { config: { access: 'admin' }, schema: { params: idParams } },
    async (request) => refunds.list(request.params.id),
  );
  app.post(
    '/api/admin/invoices/:id/refund',
    { config: { access: 'admin' }, schema: { params: idParams, body: subscriptionRefundSchema } },
    async (request) => refunds.refund(adminActor(request), request.params.id, request.body),
  );

  // membership plans
  app.get('/api/admin/plans', { config: { access: 'admin' } }, async () => ({ data: await commerce.plans() }));
  app.get('/api/admin/plans/:slug', { config: { access: 'admin' }, schema: { params: slugParams } }, async (request) =>
    commerce.plan(request.params.slug),
  );
  app.put(
    '/api/admin/plans/:slug',
    { config: { access: 'admin' }, schema: { params: slugParams, body: adminPlanSchema } },
    async (request) => commerce.updatePlan(adminActor(request), request.params.slug, request.body),
  );

  // courses for sale (double-kick and course tiers)
  app.get(
    '/api/admin/products',
    { config: { access: 'admin' }, schema: { querystring: adminProductsQuerySchema } },
    async (request) => commerce.products(request.query),
  );
  app.get(
    '/api/admin/products/:slug',
    { config: { access: 'admin' }, schema: { params: slugParams } },
    async (request) => ({
      product: await commerce.product(request.params.slug),
      courses: await commerce.courseChoices(),
    }),
  );
  app.put(
    '/api/admin/products/:slug',
    { config: { access: 'admin' }, schema: { params: slugParams, body: adminProductSchema } },
    async (request) => commerce.updateProduct(adminActor(request), request.params.slug, request.body),
  );

  // settings: mentorship pricing flags and retention offers
  app.get('/api/admin/mentorship-pricing', { config: { access: 'admin' } }, async () =>
    settings.get(MENTORSHIP_PRICING_SETTING, mentorshipPricingSchema, DEFAULT_MENTORSHIP_PRICING),
  );
  app.put(
    '/api/admin/mentorship-pricing',
    { config: { access: 'admin' }, schema: { body: mentorshipPricingSchema } },
    async (request) =>
      settings.set(
        adminActor(request),
        MENTORSHIP_PRICING_SETTING,
        mentorshipPricingSchema,
        DEFAULT_MENTORSHIP_PRICING,
        request.body,
      ),
  );
  app.get('/api/admin/retention', { config: { access: 'admin' } }, async () =>
    settings.get(RETENTION_SETTING, retentionOffersSchema, DEFAULT_RETENTION_OFFERS),
  );
  app.put(
    '/api/admin/retention',
    { config: { access: 'admin' }, schema: { body: retentionOffersSchema } },
    async (request) =>
      settings.set(
        adminActor(request),
        RETENTION_SETTING,
        retentionOffersSchema,
        DEFAULT_RETENTION_OFFERS,
        request.body,
      ),
  );

  // why members left (moved here from the billing module)
  app.get(
    '/api/admin/cancellations',
    { config: { access: 'admin' }, schema: { querystring: adminCancellationsQuerySchema } },
    async (request) => commerce.cancellations(request.query),
  );

  // signed webhook deliveries that could not be applied (payments/routes.ts receiveWebhook records them)
  app.get(
    '/api/admin/webhook-failures',
    { config: { access: 'admin' }, schema: { querystring: adminWebhookFailuresQuerySchema } },
    async (request) => commerce.webhookFailures(request.query),
  );
  app.post(
    '/api/admin/webhook-failures/:id/retry',
    { config: { access: 'admin' }, schema: { params: idParams } },
    async (request) => commerce.retryWebhookFailure(adminActor(request), request.params.id),
  );
};
