import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from '#shared/zod';
import { ProviderError, type PaymentProvider, type ProviderEvent } from '../provider.ts';
import { eventJson, field, readEvent } from '../webhook-content.ts';
import { get, type SandboxContext } from './store.ts';

/**
 * The sandbox's webhooks as the app receives them: signed as Stripe signs its own
 * (`Sandbox-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`), checked, then read back into a
 * ProviderEvent.
 */

export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';

export function signSandboxPayload(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** The same check Stripe makes: a fresh timestamp (5 minutes) and a matching v1 signature. */
export function verifySandboxSignature(
  secret: string,
  rawBody: Buffer,
  signature: string | undefined,
  toleranceSeconds = 300,
) {
  const parts = new Map<string, string[]>();
  for (const item of (signature ?? '').split(',')) {
    const [k, v] = item.split('=', 2);
    if (k && v) parts.set(k.trim(), [...(parts.get(k.trim()) ?? []), v.trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds)
    throw new ProviderError('invalid_signature', 'Invalid webhook signature.');
  const expected = Buffer.from(
    createHmac('sha256', secret)
      .update(`${t}.${rawBody.toString('utf8')}`)
      .digest('hex'),
  );
  const ok = (parts.get('v1') ?? []).some((v) => {
    const got = Buffer.from(v);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
  if (!ok) throw new ProviderError('invalid_signature', 'Invalid webhook signature.');
}

export function webhookMethods(ctx: SandboxContext): Pick<PaymentProvider, 'verifyWebhook' | 'fetchEvent'> {
  return {
    async verifyWebhook(rawBody, headers) {
      verifySandboxSignature(ctx.webhookSecret, rawBody, header(headers, SANDBOX_SIGNATURE_HEADER));
      return parseSandboxEvent(rawBody);
    },

    async fetchEvent(eventId) {
      const stored = await get<{ body: string }>(ctx.db, eventId, 'event');
      if (!stored) throw new ProviderError('not_found', 'The sandbox has no event with this id.');
      return parseSandboxEvent(Buffer.from(stored.body));
    },
  };
}

// ---- the sandbox's events as it sends them (events.ts): checked before they are used

const isoDate = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'not a date');
const SANDBOX_EVENT = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int().nonnegative().optional(),
  sequence: z.number().int().nonnegative().optional(),
});
const SANDBOX_PARTS = {
  charge: z.looseObject({
    ref: z.string(),
    amountCents: z.number().int(),
    metadata: z.record(z.string(), z.string()).default({}),
    failureMessage: z.string().optional(),
  }),
  invoice: z.looseObject({
    ref: z.string(),
    subscriptionRef: z.string(),
    amountCents: z.number().int(),
    periodStart: isoDate,
    periodEnd: isoDate,
    billingReason: z.string().optional(),
    attemptCount: z.number().int().optional(),
    nextAttemptAt: isoDate.nullable().optional(),
  }),
  subscription: z.looseObject({
    ref: z.string(),
    status: z.enum(['trialing', 'active', 'past_due', 'paused', 'canceled', 'incomplete', 'approval_pending']),
    interval: z.enum(['month', 'year']),
    priceCents: z.number().int(),
    currentPeriodEnd: isoDate,
    trialEndsAt: isoDate.nullable(),
    cancelAtPeriodEnd: z.boolean(),
    paymentMethodLabel: z.string(),
  }),
};

/** the sandbox's event body back into a ProviderEvent (dates revived); MalformedEventError when it is not in its shape */
export function parseSandboxEvent(rawBody: Buffer): ProviderEvent {
  const json = eventJson(rawBody);
  const read = <S extends z.ZodType>(schema: S) => readEvent(schema, json, field(json, 'id'), field(json, 'type'));
  const { id, type, created, sequence } = read(SANDBOX_EVENT);
  switch (type) {
    case 'charge.succeeded':
    case 'charge.failed':
    case 'charge.refunded':
      return { id, type, charge: read(SANDBOX_EVENT.extend({ charge: SANDBOX_PARTS.charge })).charge };
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const inv = read(SANDBOX_EVENT.extend({ invoice: SANDBOX_PARTS.invoice })).invoice;
      return {
        id,
        type,
        invoice: {
          ref: inv.ref,
          subscriptionRef: inv.subscriptionRef,
          amountCents: inv.amountCents,
          periodStart: new Date(inv.periodStart),
          periodEnd: new Date(inv.periodEnd),
          ...(inv.billingReason !== undefined ? { billingReason: inv.billingReason } : {}),
          ...(inv.attemptCount !== undefined ? { attemptCount: inv.attemptCount } : {}),
          ...(inv.nextAttemptAt !== undefined
            ? { nextAttemptAt: inv.nextAttemptAt === null ? null : new Date(inv.nextAttemptAt) }
            : {}),
        },
      };
    }
    case 'subscription.updated':
    case 'subscription.canceled': {
      const sub = read(SANDBOX_EVENT.extend({ subscription: SANDBOX_PARTS.subscription })).subscription;
      return {
        id,
        type,
        subscription: {
          ref: sub.ref,
          status: sub.status,
          interval: sub.interval,
          priceCents: sub.priceCents,
          currentPeriodEnd: new Date(sub.currentPeriodEnd),
          trialEndsAt: sub.trialEndsAt ? new Date(sub.trialEndsAt) : null,
          cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
          paymentMethodLabel: sub.paymentMethodLabel,
          ...(created !== undefined ? { asOf: { at: new Date(created * 1000), sequence: sequence ?? 0 } } : {}),
        },
      };
    }
    default:
      return { id, type: 'ignored', providerType: type };
  }
}
