import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { AppError, notFound } from '#server/lib/errors';
import type { ProviderName } from '#shared/commerce';
import {
  sandboxApprovalSchema,
  sandboxAuthenticateAnswerSchema,
  sandboxHostedCheckoutSchema,
  sandboxHostedPayAnswerSchema,
  sandboxPaymentMethodSchema,
  sandboxRefusalSchema,
  sandboxReturnAnswerSchema,
  sandboxSetupConfirmAnswerSchema,
} from '#shared/payments-sandbox';
import { MalformedEventError, ProviderError } from './provider.ts';
import type { WebhookFailureInput } from './service.ts';
import { peekEvent } from './webhook-content.ts';
import { asAppError, sandboxToolRoutes } from './sandbox-tools.ts';

type Headers = Record<string, string | string[] | undefined>;

/** The provider that signs a provider's webhooks, when that provider is configured. */

/** words for the provider's delivery log (read by whoever looks at the failed delivery there) */
export const WEBHOOK_MESSAGES = {
  badSignature: 'Invalid webhook signature.',
  malformed: (reason: string) =>
    `This webhook event could not be read (${reason}). It was not applied and is listed for the site's admins.`,
  providerUnreachable: 'The payment provider could not be asked about this event. It was not applied; please retry.',
} as const;

/**
 * Verify and apply one webhook (the routes below, and the sandbox's in-process delivery).
 * - provider not configured: 404; bad or missing signature: 400, not recorded (anyone can send one,
 *   and it is nobody's event).
 * - signed but unreadable (MalformedEventError): 400, recorded as `rejected`; a retry of the same
 *   bytes could never succeed, and the 400 tells the provider so.
 * - signed, readable, and applying it fails: recorded as `failed` with the error's message, and
 *   answered as the error says (500 for an unexpected one, 502 when the provider could not be asked),
 *   so the provider retries and a later delivery applies it.
 */
export async function receiveWebhook(app: FastifyInstance, name: ProviderName, rawBody: Buffer, headers: Headers) {
  const provider = app.deps.services.payments.webhookProvider(name);
  if (!provider) throw notFound();
  const payments = app.deps.services.payments;
  const record = (problem: Omit<WebhookFailureInput, 'provider'>) =>
    payments
      .recordWebhookFailure({ provider: name, ...problem })
      .catch((err: unknown) => app.log.error({ err }, 'a webhook failure could not be recorded'));
  let event;
  try {
    event = await provider.verifyWebhook(rawBody, headers);
  } catch (err) {
    if (err instanceof ProviderError && err.code === 'invalid_signature')
      throw new AppError('bad-request', WEBHOOK_MESSAGES.badSignature);
    if (err instanceof MalformedEventError) {
      await record({
        eventId: err.eventId,
        eventType: err.eventType,
        kind: 'rejected',
        reason: err.reason,
        outline: err.outline,
      });
      throw new AppError('bad-request', WEBHOOK_MESSAGES.malformed(err.reason));
    }
    // the signature was good; asking the provider about the event failed (PayPal's subscription read)
    const { id, type } = peekEvent(rawBody);
    await record({ eventId: id, eventType: type, kind: 'failed', reason: errorText(err), outline: null });
    throw err instanceof ProviderError
      ? new AppError('provider-unavailable', WEBHOOK_MESSAGES.providerUnreachable)
      : err;
  }
  try {
    return await payments.handleEvent(name, event);
  } catch (err) {
    // the provider's own name for the event, as on the rows of events that could not be read
    await record({
      eventId: event.id,
      eventType: peekEvent(rawBody).type ?? event.type,
      kind: 'failed',
      reason: errorText(err),
      outline: null,
    });
    throw err;
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)) || 'An error without a message.';

/** what a webhook delivery hears: the provider's log shows it (nobody else reads it) */
const webhookAnswerSchema = z.object({
  received: z.literal(true),
  result: z.enum(['applied', 'duplicate', 'ignored']),
});

/** the sandbox's card and payment calls answer a refusal as Stripe does (the card form shows its message) */
const refusals = { 402: sandboxRefusalSchema, 404: sandboxRefusalSchema };

/** Provider webhooks and the sandbox provider's own pages and calls. */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.deps;
  const sandbox = app.deps.services.payments.sandbox;

  // ---- webhooks: the raw body is needed for the signatures, so these routes parse nothing
  await app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    for (const name of ['stripe', 'paypal', 'sandbox'] as const) {
      hooks.post(
        `/webhooks/${name}`,
        {
          config: { access: 'provider', csrf: false, rawBody: true },
          schema: { response: { 200: webhookAnswerSchema } },
        },
        async (request) => {
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const result = await receiveWebhook(app, name, raw, request.headers);
          return { received: true, result };
        },
      );
    }
  });

  if (!sandbox) return;

  // the sandbox delivers its events to us right after each state change, signed like a real webhook
  sandbox.setDeliverer(async (raw, headers) => {
    try {
      await receiveWebhook(app, 'sandbox', raw, headers);
    } catch (err) {
      app.log.error({ err }, 'sandbox webhook failed');
    }
  });

  const clockAllowed = config.env !== 'production' || config.payments.sandboxAllowInProduction;
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw asAppError(err);
    }
  };

  // ---- the card form's "Stripe API": confirm a setup intent with the card's details
  app.post(
    '/sandbox/setup-intents/confirm',
    {
      config: { access: 'provider', csrf: false },
      schema: {
        body: z.object({
          client_secret: z.string().max(200),
          number: z.string().max(30),
          exp_month: z.coerce.number().int(),
          exp_year: z.coerce.number().int(),
          cvc: z.string().max(10),
          name: z.string().max(200).default(''),
        }),
        response: { 200: sandboxSetupConfirmAnswerSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const b = request.body;
      try {
        const r = await sandbox.confirmSetup({
          clientSecret: b.client_secret,
          number: b.number,
          expMonth: b.exp_month,
          expYear: b.exp_year,
          cvc: b.cvc,
          name: b.name,
        });
        return r.requiresAction
          ? { requires_action: true, payment_method: r.paymentMethod, url: r.url }
          : { payment_method: r.paymentMethod };
      } catch (err) {
        if (err instanceof ProviderError)
          return reply
            .status(err.code === 'not_found' ? 404 : 402)
            .send({ error: { code: err.code, message: err.message } });
        throw err;
      }
    },
  );

  // ---- 3-D Secure: the challenge's two buttons
  app.get(
    '/sandbox/payment-methods/:id',
    {
      config: { access: 'provider' },
      schema: { params: z.object({ id: z.string().max(100) }), response: { 200: sandboxPaymentMethodSchema } },
    },
    async (request) => {
      const pm = await sandbox.paymentMethodInfo(request.params.id);
      if (!pm) throw notFound();
      return pm;
    },
  );
  app.post(
    '/sandbox/authenticate/:id',
    {
      config: { access: 'provider', csrf: false },
      schema: {
        params: z.object({ id: z.string().max(100) }),
        body: z.object({ outcome: z.enum(['complete', 'fail']) }),
        response: { 200: sandboxAuthenticateAnswerSchema, ...refusals },
      },
    },
    async (request, reply) => {
      try {
        return { payment_method: (await sandbox.authenticate(request.params.id, request.body.outcome)).paymentMethod };
      } catch (err) {
        if (err instanceof ProviderError)
          return reply
            .status(err.code === 'not_found' ? 404 : 402)
            .send({ error: { code: err.code, message: err.message } });
        throw err;
      }
    },
  );

  // ---- the PayPal-like approval page's data and buttons
  app.get(
    '/sandbox/paypal/orders/:ref',
    {
      config: { access: 'provider' },
      schema: { params: z.object({ ref: z.string().max(100) }), response: { 200: sandboxApprovalSchema } },
    },
    async (request) => {
      const info = await sandbox.approvalInfo(request.params.ref);
      if (!info) throw notFound();
      return info;
    },
  );
  app.post(
    '/sandbox/paypal/approve/:ref',
    {
      config: { access: 'provider', csrf: false },
      schema: { params: z.object({ ref: z.string().max(100) }), response: { 200: sandboxReturnAnswerSchema } },
    },
    async (request) => ({
      url: await call(() => sandbox.approvePaypal(request.params.ref)),
    }),
  );
  app.post(
    '/sandbox/paypal/cancel/:ref',
    {
      config: { access: 'provider', csrf: false },
      schema: { params: z.object({ ref: z.string().max(100) }), response: { 200: sandboxReturnAnswerSchema } },
    },
    async (request) => ({
      url: await call(() => sandbox.cancelPaypal(request.params.ref)),
    }),
  );

  // ---- the hosted card checkout page: its data, the pay and cancel buttons
  app.get(
    '/sandbox/checkout-sessions/:ref',
    {
      config: { access: 'provider' },
      schema: { params: z.object({ ref: z.string().max(100) }), response: { 200: sandboxHostedCheckoutSchema } },
    },
    async (request) => {
      const info = await sandbox.hostedCheckoutInfo(request.params.ref);
      if (!info) throw notFound();
      return info;
    },
  );
  app.post(
    '/sandbox/checkout/:ref/pay',
    {
      config: { access: 'provider', csrf: false },
      schema: {
        params: z.object({ ref: z.string().max(100) }),
        body: z.discriminatedUnion('method', [
          z.object({
            method: z.literal('card'),
            number: z.string().max(30),
            exp_month: z.coerce.number().int(),
            exp_year: z.coerce.number().int(),
            cvc: z.string().max(10),
            name: z.string().max(200).default(''),
            authenticated: z.boolean().optional(),
          }),
          z.object({ method: z.literal('financing') }),
        ]),
        response: { 200: sandboxHostedPayAnswerSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const b = request.body;
      try {
        const r = await sandbox.payHostedCheckout(
          request.params.ref,
          b.method === 'card'
            ? {
                method: 'card',
                number: b.number,
                expMonth: b.exp_month,
                expYear: b.exp_year,
                cvc: b.cvc,
                name: b.name,
                ...(b.authenticated ? { authenticated: true } : {}),
              }
            : { method: 'financing' },
        );
        return 'url' in r ? { url: r.url } : { requires_action: true as const };
      } catch (err) {
        if (err instanceof ProviderError)
          return reply
            .status(err.code === 'not_found' ? 404 : 402)
            .send({ error: { code: err.code, message: err.message } });
        throw err;
      }
    },
  );
  app.post(
    '/sandbox/checkout/:ref/cancel',
    {
      config: { access: 'provider', csrf: false },
      schema: { params: z.object({ ref: z.string().max(100) }), response: { 200: sandboxReturnAnswerSchema } },
    },
    async (request) => ({
      url: await call(() => sandbox.cancelHostedCheckout(request.params.ref)),
    }),
  );

  // the clock the tests move and the test tools: never registered in production unless
  // SANDBOX_ALLOW_IN_PRODUCTION=1 (docs/security.md)
  if (clockAllowed) await app.register(sandboxToolRoutes(sandbox));
};
