import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { AppError, notFound } from '#server/lib/errors';
import type { ProviderName } from '#shared/commerce';
import { siteLinkSchema } from '#shared/http';
import { MalformedEventError, ProviderError } from './provider.ts';
import type { SandboxProvider } from './sandbox/index.ts';
import type { WebhookFailureInput } from './service.ts';
import { peekEvent } from './webhook-content.ts';

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

/** A provider refusal as an answer the page can show (402 with the provider's words). */
function asAppError(err: unknown): unknown {
  if (!(err instanceof ProviderError)) return err;
  if (err.code === 'not_found') return new AppError('not-found', err.message);
  return new AppError('payment-declined', err.message);
}

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
        { config: { access: 'provider', csrf: false, rawBody: true } },
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
    { config: { access: 'provider' }, schema: { params: z.object({ id: z.string().max(100) }) } },
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
    { config: { access: 'provider' }, schema: { params: z.object({ ref: z.string().max(100) }) } },
    async (request) => {
      const info = await sandbox.approvalInfo(request.params.ref);
      if (!info) throw notFound();
      return info;
    },
  );
  app.post(
    '/sandbox/paypal/approve/:ref',
    { config: { access: 'provider', csrf: false }, schema: { params: z.object({ ref: z.string().max(100) }) } },
    async (request) => ({
      url: await call(() => sandbox.approvePaypal(request.params.ref)),
    }),
  );
  app.post(
    '/sandbox/paypal/cancel/:ref',
    { config: { access: 'provider', csrf: false }, schema: { params: z.object({ ref: z.string().max(100) }) } },
    async (request) => ({
      url: await call(() => sandbox.cancelPaypal(request.params.ref)),
    }),
  );

  // ---- the hosted card checkout page: its data, the pay and cancel buttons
  app.get(
    '/sandbox/checkout-sessions/:ref',
    { config: { access: 'provider' }, schema: { params: z.object({ ref: z.string().max(100) }) } },
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
        return 'url' in r ? { url: r.url } : { requires_action: true };
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
    { config: { access: 'provider', csrf: false }, schema: { params: z.object({ ref: z.string().max(100) }) } },
    async (request) => ({
      url: await call(() => sandbox.cancelHostedCheckout(request.params.ref)),
    }),
  );

  // the clock the tests move and the test tools: never registered in production unless
  // SANDBOX_ALLOW_IN_PRODUCTION=1 (docs/security.md)
  if (clockAllowed) await app.register(sandboxToolRoutes(sandbox));
};

/** The sandbox's clock and the calls that make sandbox objects without a checkout (tests only). */
function sandboxToolRoutes(sandbox: SandboxProvider): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sandbox/clock/advance',
      {
        config: { access: 'provider', csrf: false },
        schema: { body: z.object({ days: z.coerce.number().min(0).max(3660) }) },
      },
      async (request) => {
        const r = await sandbox.advanceClock(request.body.days);
        return { now: r.now.toISOString(), steps: r.steps };
      },
    );
    // make sandbox objects without a checkout
    app.post('/sandbox/test/setup-intents', { config: { access: 'provider', csrf: false } }, async () => {
      const { clientSecret } = await sandbox.createCardSetup({
        email: 'test@sandbox.test',
        name: 'Sandbox test',
        idempotencyKey: `test-setup-${randomUUID()}`,
        metadata: {},
      });
      return { client_secret: clientSecret };
    });
    app.post(
      '/sandbox/test/paypal',
      {
        config: { access: 'provider', csrf: false },
        schema: {
          body: z.object({
            kind: z.enum(['order', 'subscription']),
            amount_cents: z.coerce.number().int().min(0),
            description: z.string().max(200).default('Sandbox test'),
            interval: z.enum(['month', 'year']).default('month'),
            trial_days: z.coerce.number().int().min(0).default(0),
            // the sandbox's approval page sends the buyer to these: like every way back, on this site only
            return_url: siteLinkSchema('return address'),
            cancel_url: siteLinkSchema('cancel address'),
          }),
        },
      },
      async (request) => {
        const b = request.body;
        const common = {
          description: b.description,
          returnUrl: b.return_url,
          cancelUrl: b.cancel_url,
          idempotencyKey: `test-paypal-${randomUUID()}`,
          metadata: {},
        };
        const approval =
          b.kind === 'order'
            ? await sandbox.createPaypalOrder({ ...common, amountCents: b.amount_cents })
            : await sandbox.createPaypalSubscription({
                ...common,
                priceCents: b.amount_cents,
                interval: b.interval,
                trialDays: b.trial_days,
              });
        return approval;
      },
    );

    // the PayPal buyer's funding source stops (or starts again) paying: a PayPal renewal fails
    app.post(
      '/sandbox/test/paypal/:ref/funding',
      {
        config: { access: 'provider', csrf: false },
        schema: { params: z.object({ ref: z.string().max(100) }), body: z.object({ fails: z.boolean() }) },
      },
      async (request) => {
        try {
          await sandbox.setPaypalFunding(request.params.ref, { fails: request.body.fails });
        } catch (err) {
          throw asAppError(err);
        }
        return { ok: true };
      },
    );

    app.get('/sandbox/clock', { config: { access: 'provider' } }, async () => {
      return { now: new Date(await sandbox.now()).toISOString() };
    });
  };
}
