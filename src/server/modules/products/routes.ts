import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from '#shared/zod';
import { idSchema, flag } from '#shared/http';
import { safeRedirect } from '#shared/redirect';
import {
  courseProductResponseSchema,
  doubleKickResponseSchema,
  productCardBodySchema,
  productPaymentBodySchema,
} from '#shared/products';
import { clientSecretResponseSchema, urlResponseSchema } from '#shared/commerce';
import { requireUser } from '#server/lib/guards';
import { redirectResponse } from '#server/lib/responses';

const slugParams = z.object({ slug: z.string().regex(/^[a-z0-9_]{1,60}$/) });

/** the `Idempotency-Key` header, else the hidden field */
const clientKey = (request: FastifyRequest, field: string | undefined) => {
  const header = request.headers['idempotency-key'];
  return typeof header === 'string' && header.length > 0 && header.length <= 100 ? header : field;
};

/**
 * Double-kick and course registration (docs/product/course-products.md). The product names no
 * calls for them, so they live under /api/products. Payments need a signed-in buyer (the checkout
 * registers guests first with POST /register).
 */
export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.deps;
  const { payments } = app.deps.services;
  const products = app.deps.services.products;

  // the catalogue at every start, after the demo content (courses) is in: idempotent
  app.addHook('onReady', async () => {
    await products.syncCatalogue();
  });

  app.get(
    '/api/products/double-kick',
    { config: { access: 'public' }, schema: { response: { 200: doubleKickResponseSchema } } },
    async (request) => ({
      data: await products.doubleKick(request.user),
    }),
  );

  app.get(
    '/api/products/course/:courseId',
    {
      config: { access: 'public' },
      schema: { params: z.object({ courseId: idSchema }), response: { 200: courseProductResponseSchema } },
    },
    async (request) => ({
      data: await products.course(request.user, request.params.courseId),
    }),
  );

  app.post(
    '/api/products/:slug/card/client-secret',
    { config: { access: 'member' }, schema: { params: slugParams, response: { 200: clientSecretResponseSchema } } },
    async (request) => {
      const user = requireUser(request);
      return products.cardClientSecret(user, request.params.slug);
    },
  );

  app.post(
    '/api/products/:slug/card',
    {
      config: { access: 'member' },
      schema: { params: slugParams, body: productCardBodySchema, response: { 200: urlResponseSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const { stripeToken, affiliate, idempotency_key } = request.body;
      return products.payByCard(user, request.params.slug, {
        paymentMethod: stripeToken,
        affiliate,
        idempotencyKey: clientKey(request, idempotency_key),
      });
    },
  );

  app.post(
    '/api/products/:slug/paypal',
    {
      config: { access: 'member' },
      schema: { params: slugParams, body: productPaymentBodySchema, response: { 200: urlResponseSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const { affiliate, idempotency_key } = request.body;
      // the sandbox's approval page sends the buyer back to the address they came from (same cookies)
      const origin =
        payments.providerFor('paypal').name === 'sandbox' ? `${request.protocol}://${request.host}` : config.appUrl;
      return products.payByPaypal(user, request.params.slug, {
        affiliate,
        idempotencyKey: clientKey(request, idempotency_key),
        origin,
      });
    },
  );

  app.get(
    '/api/products/paypal/return',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({ order: idSchema, token: z.string().max(255).optional(), cancel: flag.optional() }),
        response: redirectResponse(303),
      },
    },
    async (request, reply) => {
      if (!request.user) return reply.redirect(`/login?to=${encodeURIComponent(request.url)}`, 303);
      const { order, token, cancel } = request.query;
      return reply.redirect(
        safeRedirect(await products.paypalReturn(request.user, order, { token, cancel: cancel ?? false }), '/courses'),
        303,
      );
    },
  );
};
