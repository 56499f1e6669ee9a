import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_MENTORSHIP_PRICING,
  MENTORSHIP_PRICING_SETTING,
  mentorshipCheckoutOptionsSchema,
  mentorshipPricingSchema,
} from '#shared/admin-commerce';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { idSchema } from '#shared/http';
import { safeRedirect } from '#shared/redirect';
import {
  createMentorshipCheckoutBodySchema,
  mentorshipCardChargeBodySchema,
  mentorshipCheckoutAnswerSchema,
  mentorshipFinanceCheckoutBodySchema,
  mentorshipPayAnswerSchema,
  mentorshipPaymentPlanBodySchema,
  mentorshipPaypalSubscriptionBodySchema,
  MENTORSHIP_MESSAGES,
} from '#shared/mentorship';
import { onetimePriceOnOffer } from '#shared/mentorship-checkout';
import { urlResponseSchema } from '#shared/commerce';
import { ValidationError } from '#server/lib/errors';
import { requireAdmin, requireUser } from '#server/lib/guards';
import { clientIdempotencyKey } from '#server/lib/idempotency';
import { redirectResponse } from '#server/lib/responses';
import { MENTORSHIP_ACCESS_RULES } from './access.ts';

/**
 * Mentorship checkout routes (docs/product/mentorship.md); the services are built with the app's
 * others (module.ts).
 */
export const mentorshipCheckoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { limiters, services } = app.deps;
  const { checkout } = services.mentorshipCheckout;

  const paying = async (request: FastifyRequest) => {
    const user = requireUser(request);
    await limiters.consume('checkoutPerUser', String(user.id));
    return user;
  };

  app.get(
    '/api/mentorship/checkout',
    { config: { access: 'public' }, schema: { response: { 200: mentorshipCheckoutAnswerSchema } } },
    async (request) => checkout.checkout(request.user),
  );
  // what admins set for the checkout (docs/product/mentorship-pricing.md): the page applies an
  // address's own flags on top; create-checkout refuses a lower price that is not on offer.
  app.get(
    '/api/mentorship/checkout/options',
    { config: { access: 'public' }, schema: { response: { 200: mentorshipCheckoutOptionsSchema } } },
    async () => ({
      flags: await services.settings.get(
        MENTORSHIP_PRICING_SETTING,
        mentorshipPricingSchema,
        DEFAULT_MENTORSHIP_PRICING,
      ),
    }),
  );

  app.post(
    '/mentorship/create-checkout',
    {
      config: { access: 'member' },
      schema: { body: createMentorshipCheckoutBodySchema, response: { 200: urlResponseSchema } },
    },
    async (request) => {
      const user = await paying(request);
      // the lower prices only while an admin offers them: a link's flags cannot make one up
      const pricing = await services.settings.get(
        MENTORSHIP_PRICING_SETTING,
        mentorshipPricingSchema,
        DEFAULT_MENTORSHIP_PRICING,
      );
      if (!onetimePriceOnOffer(request.body.price, pricing))
        throw new ValidationError({ price: [MENTORSHIP_MESSAGES.priceNotOffered] });
      return checkout.createCheckout(user, {
        price: request.body.price,
        clientKey: clientIdempotencyKey(request, request.body.idempotency_key),
      });
    },
  );

  // the buyer is back from the hosted checkout (a browser navigation)
  app.get(
    '/mentorship/checkout/complete',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({ order: idSchema, session_id: z.string().max(255).optional() }),
        response: redirectResponse(303),
      },
    },
    async (request, reply) => {
      if (!request.user) return reply.redirect(`/login?to=${encodeURIComponent(request.url)}`, 303);
      const to = await checkout.complete(request.user, request.query.order);
      return reply.redirect(safeRedirect(to, '/mentorship/checkout'), 303);
    },
  );

  app.post(
    '/mentorship/paypal/subscription',
    {
      config: { access: 'member' },
      schema: { body: mentorshipPaypalSubscriptionBodySchema, response: { 200: urlResponseSchema } },
    },
    async (request) => {
      const user = await paying(request);
      return checkout.paypalSubscription(user, {
        plan: request.body.plan,
        clientKey: clientIdempotencyKey(request, request.body.idempotency_key),
      });
    },
  );

  app.post(
    '/mentorship/payment-plan',
    {
      config: { access: 'member' },
      schema: { body: mentorshipPaymentPlanBodySchema, response: { 200: urlResponseSchema } },
    },
    async (request) => {
      const user = await paying(request);
      const b = request.body;
      return checkout.paymentPlan(user, {
        agreementId: b.agreement_id,
        contact: { contact_name: b.contact_name, contact_email: b.contact_email, name: b.name, email: b.email },
      });
    },
  );

  app.post(
    '/mentorship/stripe/charge',
    {
      config: { access: 'member' },
      schema: { body: mentorshipCardChargeBodySchema, response: { 200: mentorshipPayAnswerSchema } },
    },
    async (request) => {
      const user = await paying(request);
      return checkout.chargeCard(user, {
        payment: request.body.payment,
        paymentMethod: request.body.payment_method,
        clientKey: clientIdempotencyKey(request, request.body.idempotency_key),
      });
    },
  );

  app.post(
    '/mentorship/stripe/checkout',
    {
      config: { access: 'member' },
      schema: { body: mentorshipFinanceCheckoutBodySchema, response: { 200: urlResponseSchema } },
    },
    async (request) => {
      const user = await paying(request);
      return checkout.financeCheckout(user, { clientKey: clientIdempotencyKey(request, request.body.idempotency_key) });
    },
  );

  /** the access rules in words (admins) */
  app.get(
    '/api/mentorship/access-rules',
    { config: { access: 'admin' }, schema: { response: { 200: z.object({ rules: z.array(z.string()) }) } } },
    async (request) => {
      requireAdmin(request);
      return { rules: MENTORSHIP_ACCESS_RULES };
    },
  );
};
