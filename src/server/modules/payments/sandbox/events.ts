import type { Database } from '#server/db/client';
import type { ProviderEvent, SubscriptionState } from '../provider.ts';
import { offset, put, rid, type Obj, type SandboxContext, type SubscriptionData } from './store.ts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from './webhooks.ts';

/**
 * The sandbox's events going out: every state change is stored as an event and, once the app's
 * handler is set, delivered to it as a signed webhook.
 */

/** `created` (seconds, as Stripe's events) is the time of the event unless the event says otherwise */
export async function emit(ctx: SandboxContext, event: Omit<ProviderEvent, 'id'> & Obj) {
  const id = rid('evt_');
  const body = JSON.stringify({ created: Math.floor(Date.now() / 1000), ...event, id });
  await put(ctx.db, id, 'event', { body });
  if (!ctx.deliver) return;
  const signature = signSandboxPayload(ctx.webhookSecret, body);
  await ctx.deliver(Buffer.from(body), { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature });
}

/** a subscription as the provider reports it: times in real time (clock time − offset) */
export async function toState(db: Database, ref: string, s: SubscriptionData): Promise<SubscriptionState> {
  const off = await offset(db);
  return {
    ref,
    status: s.status,
    interval: s.interval,
    priceCents: s.priceCents,
    currentPeriodEnd: new Date(s.periodEnd - off),
    trialEndsAt: s.trialEndsAt === null ? null : new Date(s.trialEndsAt - off),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    paymentMethodLabel: s.label,
    // whole seconds, as its events say it (`created`): a state and the event of the same change compare equal
    asOf: { at: new Date(Math.floor((s.changedAt ?? 0) / 1000) * 1000), sequence: s.version ?? 0 },
  };
}

/** the event of the subscription's last change: `created` is when it changed, `sequence` its version */
export async function emitSubscription(ctx: SandboxContext, ref: string, s: SubscriptionData) {
  const state = await toState(ctx.db, ref, s);
  const { asOf, ...subscription } = state;
  await emit(ctx, {
    type: s.status === 'canceled' ? 'subscription.canceled' : 'subscription.updated',
    created: Math.floor(asOf!.at.getTime() / 1000),
    sequence: asOf!.sequence,
    subscription,
  });
  return state;
}
