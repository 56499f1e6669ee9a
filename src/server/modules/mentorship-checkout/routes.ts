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
import { createEnrolment } from './enrolment.ts';
import { createInstalments } from './instalments.ts';
import { createMentorshipCheckoutService } from './service.ts';

type Built = {
  checkout: ReturnType<typeof createMentorshipCheckoutService>;
  enrolment: ReturnType<typeof createEnrolment>;
  instalments: ReturnType<typeof createInstalments>;
};
const built = new WeakMap<object, Built>();
/** the services this plugin built for an app (tests call the sweep through it): pass `app.deps` */
export function mentorshipCheckoutOf(deps: object): Built {
  const b = built.get(deps);
  if (!b) throw new Error('The mentorship checkout routes are not registered on this app.');
  return b;
}

/** the grace sweep: a recurring background job, hourly (it is cheap: past-due plans only) */
export const GRACE_SWEEP_JOB = 'mentorship.grace-sweep';
export const GRACE_SWEEP_CRON = '17 * * * *';

/**
 * Mentorship checkout (docs/product/mentorship.md): hosted card checkout, PayPal and card
 * instalments, the card charge, enrolment, and the instalment events of the payments ledger.
 */
export const mentorshipCheckoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, limiters, services } = app.deps;
  const payments = services.payments;
  const enrolment = createEnrolment({ db, notifications: services.notifications });
  const instalments = createInstalments({ db, payments, enrolment, log: app.log });
  const checkout = createMentorshipCheckoutService({ db, payments, enrolment, instalments });

  // mentorship orders and instalment subscriptions go through the ledger's one dispatch table
  const unregister = payments.registerOwner({
    orderKind: 'mentorship',
    orderPaid: (order) => checkout.orderPaid(order),
    orderRefunded: (order) => checkout.orderRefunded(order),
    subscriptionEvent: (provider, event) => instalments.handleEvent(provider, event),
    // one mentorship per member: a second purchase is refused before its card is charged
    hold: {
      scope: () => 'mentorship',
      owned: (tx, order) => enrolment.holdsMentorship(order.userId, tx),
      refusal: MENTORSHIP_MESSAGES.alreadyEnrolled,
    },
  });
  // the grace sweep runs once an hour across all app processes (a failure is retried, then shown to admins)
  app.deps.jobs.define(GRACE_SWEEP_JOB, z.object({}), () => instalments.sweep(), {
    label: 'Mentorship instalments: end plans past their grace period',
  });
  app.deps.jobs.schedule(GRACE_SWEEP_JOB, GRACE_SWEEP_CRON);
  app.addHook('onClose', async () => {
    unregister();
  });
  built.set(app.deps, { checkout, enrolment, instalments });

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
