import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { idSchema } from '#shared/http';
import { safeRedirect } from '#shared/redirect';
import { clientSecretResponseSchema, COMMERCE_MESSAGES as M, urlResponseSchema } from '#shared/commerce';
import {
  checkoutAnswerSchema,
  checkoutSlugSchema,
  DEFAULT_CHECKOUT_SLUG,
  orderAnswerSchema,
  orderStripeAnswerSchema,
  orderStripeBodySchema,
  paypalApprovalBodySchema,
  paypalLifetimeBodySchema,
} from '#shared/checkout';
import { AppError, notFound } from '#server/lib/errors';
import { requireUser } from '#server/lib/guards';
import { clientIdempotencyKey } from '#server/lib/idempotency';
import { redirectResponse } from '#server/lib/responses';

/** Membership checkout (docs/product/membership-checkout.md): the plan, the card and PayPal payments, and the order. */
export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { limiters } = app.deps;
  const checkout = app.deps.services.checkout;
  // the default checkout plan: once at start-up, never per request (an admin's edits stay)
  await checkout.ensureDefaultPlan();

  app.get(
    '/api/checkout/:slug',
    {
      config: { access: 'public' },
      schema: {
        params: z.object({ slug: checkoutSlugSchema.catch(DEFAULT_CHECKOUT_SLUG) }),
        response: { 200: checkoutAnswerSchema },
      },
    },
    async (request) => checkout.checkout(request.params.slug, request.user),
  );

  app.get(
    '/order/stripe-client-secret',
    { config: { access: 'member' }, schema: { response: { 200: clientSecretResponseSchema } } },
    async (request) => {
      const user = requireUser(request);
      await limiters.consume('checkoutPerUser', String(user.id));
      try {
        return { clientSecret: await checkout.clientSecret(user) };
      } catch (err) {
        request.log.warn({ err }, 'card setup failed');
        throw new AppError('provider-unavailable', M.clientSecretFailed);
      }
    },
  );

  app.post(
    '/order/stripe',
    {
      config: { access: 'member' },
      schema: { body: orderStripeBodySchema, response: { 200: orderStripeAnswerSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      await limiters.consume('checkoutPerUser', String(user.id));
      const { checkout: slug, plan, stripeToken } = request.body;
      return checkout.payByCard(user, {
        checkout: slug,
        plan,
        paymentMethod: stripeToken,
        clientKey: clientIdempotencyKey(request, request.body.idempotency_key),
      });
    },
  );

  app.post(
    '/paypal/get-approval-url',
    { config: { access: 'member' }, schema: { body: paypalApprovalBodySchema, response: { 200: urlResponseSchema } } },
    async (request) => {
      const user = requireUser(request);
      await limiters.consume('checkoutPerUser', String(user.id));
      return checkout.paypalApproval(user, {
        checkout: request.body.checkout,
        plan: request.body.plan,
        clientKey: clientIdempotencyKey(request, request.body.idempotency_key),
      });
    },
  );

  app.post(
    '/paypal/lifetime-checkout',
    { config: { access: 'member' }, schema: { body: paypalLifetimeBodySchema, response: { 200: urlResponseSchema } } },
    async (request) => {
      const user = requireUser(request);
      await limiters.consume('checkoutPerUser', String(user.id));
      return checkout.paypalApproval(user, {
        checkout: request.body.checkout,
        plan: 'lifetime',
        clientKey: clientIdempotencyKey(request, request.body.idempotency_key),
      });
    },
  );

  // the buyer comes back from PayPal's approval page (a browser navigation)
  app.get(
    '/paypal/return',
    {
      config: { access: 'member' },
      schema: {
        querystring: z.object({
          order: idSchema,
          token: z.string().max(255).optional(),
          subscription_id: z.string().max(255).optional(),
        }),
        response: redirectResponse(303),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const to = await checkout.paypalReturn(user, request.query.order, {
        token: request.query.token,
        subscriptionId: request.query.subscription_id,
      });
      return reply.redirect(safeRedirect(to, '/join'), 303);
    },
  );

  app.get(
    '/api/order',
    {
      config: { access: 'member' },
      schema: {
        querystring: z.object({ order: z.union([idSchema, z.literal('')]).optional() }),
        response: { 200: orderAnswerSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = request.query.order;
      const order = await checkout.order(user, typeof id === 'number' ? id : null);
      if (!order && typeof id === 'number') throw notFound();
      return { order };
    },
  );
};
