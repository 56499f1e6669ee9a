import type { Database } from '#server/db/client';
import type { PaymentProvider } from '../provider.ts';
import { cardMethods, cardPages } from './cards.ts';
import { hostedCheckoutMethods, hostedCheckoutPages } from './hosted-checkout.ts';
import { paypalMethods, paypalPages } from './paypal.ts';
import { recoveryMethods } from './recovery.ts';
import { refundMethods } from './refunds.ts';
import { advanceClock } from './renewals.ts';
import { clockNow, type Deliver, type SandboxContext } from './store.ts';
import { subscriptionMethods } from './subscriptions.ts';
import { webhookMethods } from './webhooks.ts';

/**
 * The built-in sandbox provider: plays Stripe and PayPal with no keys and no network, its
 * state in `sandbox_objects`. Test cards: SANDBOX_CARDS (4242… succeeds, …0002 is declined at
 * confirmation, …3155 needs authentication once, …0341 attaches but every later charge fails).
 *
 * Failed renewals: the sandbox retries on the schedule of DUNNING_RETRY_DAYS (days after the first
 * failure, in clock time) and cancels the subscription when the last retry fails, as Stripe does
 * with its retry settings. A PayPal subscription's funding fails when its `fundingFails` is set
 * (tests); approving it again on the approval page fixes it and collects what is due.
 *
 * Time: the sandbox has its own clock (real time + an offset the tests move with
 * POST /sandbox/clock/advance). It keeps its objects in clock time and reports times in real time
 * (clock time − offset), so "31 days later" looks to the app exactly like 31 days having passed.
 *
 * Events: every state change emits a ProviderEvent as a signed webhook (`Sandbox-Signature:
 * t=…,v1=HMAC-SHA256(secret, "t.body")`) handed to `deliver` (the app's own webhook handler).
 *
 * Its parts, by use case: store.ts (objects, idempotency, clock), cards.ts, hosted-checkout.ts,
 * paypal.ts (orders, subscriptions and their approval page), subscriptions.ts, renewals.ts (the clock
 * moving: renewals and retries), recovery.ts (after a failed payment), refunds.ts, charges.ts (money
 * and invoices), events.ts (events out) and webhooks.ts (signatures, events in).
 */

export type { Deliver } from './store.ts';
export { parseSandboxEvent, SANDBOX_SIGNATURE_HEADER, signSandboxPayload, verifySandboxSignature } from './webhooks.ts';

export type SandboxProvider = ReturnType<typeof createSandboxProvider>;

export function createSandboxProvider(deps: { db: Database; webhookSecret: string }) {
  const ctx: SandboxContext = { db: deps.db, webhookSecret: deps.webhookSecret, deliver: null };

  const provider: PaymentProvider = {
    name: 'sandbox',
    ...hostedCheckoutMethods(ctx),
    ...cardMethods(ctx),
    ...subscriptionMethods(ctx),
    ...paypalMethods(ctx),
    ...refundMethods(ctx),
    ...recoveryMethods(ctx),
    ...webhookMethods(ctx),
  };

  return {
    ...provider,
    name: 'sandbox' as const,
    setDeliverer(fn: Deliver | null) {
      ctx.deliver = fn;
    },
    now: () => clockNow(ctx.db),
    ...cardPages(ctx),
    ...paypalPages(ctx),
    ...hostedCheckoutPages(ctx),
    /** move the clock: renewals, failed payments, trial ends, cancellations at period end */
    advanceClock: (days: number) => advanceClock(ctx, days),
  };
}
