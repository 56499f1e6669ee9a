import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { siteLinkSchema } from '#shared/http';
import { AppError } from '#server/lib/errors';
import { ProviderError } from './provider.ts';
import type { SandboxProvider } from './sandbox/index.ts';

/** A provider refusal as an answer the page can show (402 with the provider's words). */
export function asAppError(err: unknown): unknown {
  if (!(err instanceof ProviderError)) return err;
  if (err.code === 'not_found') return new AppError('not-found', err.message);
  return new AppError('payment-declined', err.message);
}

/** The sandbox's clock and the calls that make sandbox objects without a checkout (tests only). */
export function sandboxToolRoutes(sandbox: SandboxProvider): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sandbox/clock/advance',
      {
        config: { access: 'provider', csrf: false },
        schema: {
          body: z.object({ days: z.coerce.number().min(0).max(3660) }),
          response: { 200: z.object({ now: z.string(), steps: z.number() }) },
        },
      },
      async (request) => {
        const r = await sandbox.advanceClock(request.body.days);
        return { now: r.now.toISOString(), steps: r.steps };
      },
    );
    // make sandbox objects without a checkout
    app.post(
      '/sandbox/test/setup-intents',
      {
        config: { access: 'provider', csrf: false },
        schema: { response: { 200: z.object({ client_secret: z.string() }) } },
      },
      async () => {
        const { clientSecret } = await sandbox.createCardSetup({
          email: 'test@sandbox.test',
          name: 'Sandbox test',
          idempotencyKey: `test-setup-${randomUUID()}`,
          metadata: {},
        });
        return { client_secret: clientSecret };
      },
    );
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
          response: { 200: z.object({ ref: z.string(), url: z.string() }) },
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
        schema: {
          params: z.object({ ref: z.string().max(100) }),
          body: z.object({ fails: z.boolean() }),
          response: { 200: z.object({ ok: z.literal(true) }) },
        },
      },
      async (request) => {
        try {
          await sandbox.setPaypalFunding(request.params.ref, { fails: request.body.fails });
        } catch (err) {
          throw asAppError(err);
        }
        return { ok: true as const };
      },
    );

    app.get(
      '/sandbox/clock',
      { config: { access: 'provider' }, schema: { response: { 200: z.object({ now: z.string() }) } } },
      async () => ({ now: new Date(await sandbox.now()).toISOString() }),
    );
  };
}
