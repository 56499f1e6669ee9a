import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { adminPageSchema } from '#shared/admin';
import {
  adminCancellationsQuerySchema,
  adminOrderDetailSchema,
  adminOrderPageSchema,
  adminOrdersQuerySchema,
  adminPlanAnswerSchema,
  adminPlanListSchema,
  adminPlanSchema,
  adminProductAnswerSchema,
  adminProductDetailSchema,
  adminProductPageSchema,
  adminProductSchema,
  adminProductsQuerySchema,
  adminRefundResultSchema,
  adminSubscriptionPageSchema,
  adminSubscriptionsQuerySchema,
  adminWebhookFailurePageSchema,
  adminWebhookFailuresQuerySchema,
  DEFAULT_MENTORSHIP_PRICING,
  DEFAULT_RETENTION_OFFERS,
  MENTORSHIP_PRICING_SETTING,
  mentorshipPricingSchema,
  RETENTION_SETTING,
  retentionOffersSchema,
  webhookRetryResultSchema,
} from '#shared/admin-commerce';
import { cancellationRowSchema } from '#shared/billing';
import { idSchema } from '#shared/http';
import { adminActor } from '#server/lib/guards';
import { subscriptionPaymentsSchema, subscriptionRefundResultSchema, subscriptionRefundSchema } from '#shared/receipts';

const slugParams = z.object({ slug: z.string().trim().min(1).max(100) });
const idParams = z.object({ id: idSchema });

/** Admin console: commerce. Every call is admin-only (checked before the body is read). */
export const adminCommerceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { settings } = app.deps.services;
  const commerce = app.deps.services.adminCommerce;

  // orders and refunds
  app.get(
    '/api/admin/orders',
    {
      config: { access: 'admin' },
      schema: { querystring: adminOrdersQuerySchema, response: { 200: adminOrderPageSchema } },
    },
    async (request) => commerce.orders(request.query),
  );
  app.get(
    '/api/admin/orders/:id',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: adminOrderDetailSchema } } },
    async (request) => commerce.order(request.params.id),
  );
  app.post(
    '/api/admin/orders/:id/refund',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: adminRefundResultSchema } } },
    async (request) => commerce.refund(adminActor(request), request.params.id),
  );

  // subscriptions
  app.get(
    '/api/admin/subscriptions',
    {
      config: { access: 'admin' },
      schema: { querystring: adminSubscriptionsQuerySchema, response: { 200: adminSubscriptionPageSchema } },
    },
    async (request) => commerce.subscriptions(request.query),
  );
  // a subscription's payments, refunded whole or in part (docs/product/receipts.md)
  const refunds = app.deps.services.subscriptionRefunds;
  app.get(
    '/api/admin/subscriptions/:id/payments',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: subscriptionPaymentsSchema } } },
    async (request) => refunds.list(request.params.id),
  );
  app.post(
    '/api/admin/invoices/:id/refund',
    {
      config: { access: 'admin' },
      schema: { params: idParams, body: subscriptionRefundSchema, response: { 200: subscriptionRefundResultSchema } },
    },
    async (request) => refunds.refund(adminActor(request), request.params.id, request.body),
  );

  // membership plans
  app.get(
    '/api/admin/plans',
    { config: { access: 'admin' }, schema: { response: { 200: adminPlanListSchema } } },
    async () => ({ data: await commerce.plans() }),
  );
  app.get(
    '/api/admin/plans/:slug',
    { config: { access: 'admin' }, schema: { params: slugParams, response: { 200: adminPlanAnswerSchema } } },
    async (request) => commerce.plan(request.params.slug),
  );
  app.put(
    '/api/admin/plans/:slug',
    {
      config: { access: 'admin' },
      schema: { params: slugParams, body: adminPlanSchema, response: { 200: adminPlanAnswerSchema } },
    },
    async (request) => commerce.updatePlan(adminActor(request), request.params.slug, request.body),
  );

  // courses for sale (double-kick and course tiers)
  app.get(
    '/api/admin/products',
    {
      config: { access: 'admin' },
      schema: { querystring: adminProductsQuerySchema, response: { 200: adminProductPageSchema } },
    },
    async (request) => commerce.products(request.query),
  );
  app.get(
    '/api/admin/products/:slug',
    { config: { access: 'admin' }, schema: { params: slugParams, response: { 200: adminProductDetailSchema } } },
    async (request) => ({
      product: await commerce.product(request.params.slug),
      courses: await commerce.courseChoices(),
    }),
  );
  app.put(
    '/api/admin/products/:slug',
    {
      config: { access: 'admin' },
      schema: { params: slugParams, body: adminProductSchema, response: { 200: adminProductAnswerSchema } },
    },
    async (request) => commerce.updateProduct(adminActor(request), request.params.slug, request.body),
  );

  // settings: mentorship pricing flags and retention offers
  app.get(
    '/api/admin/mentorship-pricing',
    { config: { access: 'admin' }, schema: { response: { 200: mentorshipPricingSchema } } },
    async () => settings.get(MENTORSHIP_PRICING_SETTING, mentorshipPricingSchema, DEFAULT_MENTORSHIP_PRICING),
  );
  app.put(
    '/api/admin/mentorship-pricing',
    {
      config: { access: 'admin' },
      schema: { body: mentorshipPricingSchema, response: { 200: mentorshipPricingSchema } },
    },
    async (request) =>
      settings.set(
        adminActor(request),
        MENTORSHIP_PRICING_SETTING,
        mentorshipPricingSchema,
        DEFAULT_MENTORSHIP_PRICING,
        request.body,
      ),
  );
  app.get(
    '/api/admin/retention',
    { config: { access: 'admin' }, schema: { response: { 200: retentionOffersSchema } } },
    async () => settings.get(RETENTION_SETTING, retentionOffersSchema, DEFAULT_RETENTION_OFFERS),
  );
  app.put(
    '/api/admin/retention',
    { config: { access: 'admin' }, schema: { body: retentionOffersSchema, response: { 200: retentionOffersSchema } } },
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
    {
      config: { access: 'admin' },
      schema: { querystring: adminCancellationsQuerySchema, response: { 200: adminPageSchema(cancellationRowSchema) } },
    },
    async (request) => commerce.cancellations(request.query),
  );

  // signed webhook deliveries that could not be applied (payments/routes.ts receiveWebhook records them)
  app.get(
    '/api/admin/webhook-failures',
    {
      config: { access: 'admin' },
      schema: { querystring: adminWebhookFailuresQuerySchema, response: { 200: adminWebhookFailurePageSchema } },
    },
    async (request) => commerce.webhookFailures(request.query),
  );
  app.post(
    '/api/admin/webhook-failures/:id/retry',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: webhookRetryResultSchema } } },
    async (request) => commerce.retryWebhookFailure(adminActor(request), request.params.id),
  );
};
