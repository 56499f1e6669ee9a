import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import {
  billingActionAnswerSchema,
  billingLifetimeCheckoutAnswerSchema,
  billingStateSchema,
  discountFlag,
  retentionBodySchema,
  type PaymentKind,
  type RetentionBody,
} from '#shared/billing';
import { clientSecretResponseSchema } from '#shared/commerce';
import { payNowBodySchema, updateCardBodySchema } from '#shared/dunning';
import { idSchema } from '#shared/http';
import { safeRedirect } from '#shared/redirect';
import { requireUser } from '#server/lib/guards';
import { redirectOrJson, wantsHtml } from '#server/lib/http';
import { redirectResponse } from '#server/lib/responses';
import { type RetentionAction } from './service.ts';

/** the client's key for a double submit: the Idempotency-Key header or the hidden idempotency_key field */
function clientKey(request: FastifyRequest, body: Pick<RetentionBody, 'idempotency_key'> | undefined): string | null {
  const header = request.headers['idempotency-key'];
  const key = (typeof header === 'string' ? header : (body?.idempotency_key ?? '')).trim().slice(0, 100);
  return key || null;
}

/** The billing calls, /account/billing's data and the admins' list of reasons. */
export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { limiters } = app.deps;
  const billing = app.deps.services.billing;

  app.get(
    '/api/billing',
    { config: { access: 'member' }, schema: { response: { 200: billingStateSchema } } },
    async (request) => billing.state(requireUser(request)),
  );

  // a script hears the outcome; a plain form post is sent back to the billing page
  const actionResponse = { 200: billingActionAnswerSchema, ...redirectResponse(303) };

  const answer = (request: FastifyRequest, reply: FastifyReply, message: string) =>
    redirectOrJson(request, reply, '/account/billing', { message });

  const retention = (path: string, kind: PaymentKind, action: RetentionAction) =>
    app.post(
      path,
      {
        config: { access: 'member' },
        schema: {
          body: retentionBodySchema,
          response:
            action === 'lifetime-checkout'
              ? { 200: billingLifetimeCheckoutAnswerSchema, ...redirectResponse(303) }
              : actionResponse,
        },
      },
      async (request, reply) => {
        const body = request.body;
        const result = await billing.retention(requireUser(request), kind, action, {
          reason: body.reason ?? null,
          description: body.reason_description ?? null,
          clientKey: clientKey(request, body),
          discount: discountFlag(body.discount),
        });
        if (action === 'lifetime-checkout') {
          // a plain form post goes to the approval page; our client gets the address
          // the lifetime checkout always answers an address (the approval page, or the billing page when owned)
          const url = result.url ?? '/account/billing';
          if (wantsHtml(request)) return reply.redirect(url, 303);
          return reply.send({ url, message: result.message });
        }
        return answer(request, reply, result.message);
      },
    );

  retention('/account/billing/stripe/discount', 'card', 'discount');
  retention('/account/billing/stripe/upgrade-yearly', 'card', 'upgrade-yearly');
  retention('/account/billing/stripe/upgrade-lifetime', 'card', 'upgrade-lifetime');
  retention('/account/billing/stripe/pause', 'card', 'pause');
  retention('/account/billing/stripe/cancel', 'card', 'cancel');
  retention('/account/billing/paypal/suspend', 'paypal', 'suspend');
  retention('/account/billing/paypal/cancel', 'paypal', 'paypal-cancel');
  retention('/account/billing/paypal/lifetime-checkout', 'paypal', 'lifetime-checkout');

  app.post(
    '/account/billing/resume',
    {
      config: { access: 'member' },
      schema: { body: retentionBodySchema.pick({ idempotency_key: true }).optional(), response: actionResponse },
    },
    async (request, reply) => {
      const result = await billing.resume(requireUser(request), clientKey(request, request.body ?? undefined));
      return answer(request, reply, result.message);
    },
  );

  // recovery from a failed payment (docs/product/dunning.md): a new card, then the payment due at once
  const paying = async (request: FastifyRequest) => {
    const user = requireUser(request);
    await limiters.consume('checkoutPerUser', String(user.id));
    return user;
  };
  app.post(
    '/account/billing/card/setup',
    { config: { access: 'member' }, schema: { response: { 200: clientSecretResponseSchema } } },
    async (request) => billing.cardSetup(await paying(request)),
  );
  app.post(
    '/account/billing/card',
    { config: { access: 'member' }, schema: { body: updateCardBodySchema, response: actionResponse } },
    async (request, reply) => {
      const result = await billing.updateCard(
        await paying(request),
        request.body.payment_method,
        clientKey(request, request.body),
      );
      return answer(request, reply, result.message);
    },
  );
  app.post(
    '/account/billing/pay-now',
    { config: { access: 'member' }, schema: { body: payNowBodySchema.optional(), response: actionResponse } },
    async (request, reply) => {
      const result = await billing.payNow(await paying(request), clientKey(request, request.body ?? undefined));
      return answer(request, reply, result.message);
    },
  );

  // PayPal sends the buyer back here after approving the discounted lifetime order
  app.get(
    '/account/billing/paypal/lifetime-return',
    {
      config: { access: 'member' },
      schema: {
        querystring: z.object({ order: idSchema, token: z.string().max(200).optional() }),
        response: redirectResponse(303),
      },
    },
    async (request, reply) =>
      reply.redirect(
        safeRedirect(await billing.lifetimeReturn(requireUser(request), request.query.order), '/account/billing'),
        303,
      ),
  );

  // the admins' list of reasons moved to the admin console: GET /api/admin/cancellations (modules/admin-commerce)
};
