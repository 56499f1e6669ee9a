import { AppError, notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import type { PaymentKind } from '#shared/billing';
import { DUNNING_MESSAGES } from '#shared/dunning';
import { createCancelFlow } from './service/cancel.ts';
import { createDiscountFlow } from './service/discount.ts';
import { createDunningFlow } from './service/dunning.ts';
import { createOnce } from './service/once.ts';
import { createPauseFlow } from './service/pause.ts';
import { createPlanChangeFlow } from './service/plan-change.ts';
import {
  createBillingContext,
  cycleOf,
  LIVE_STATUSES,
  paymentKind,
  type ActionResult,
  type BillingDeps,
  type RetentionAction,
  type RetentionCall,
} from './service/shared.ts';
import { createBillingState } from './service/state.ts';

export { paymentKind, type ActionResult, type RetentionAction, type RetentionInput } from './service/shared.ts';

/** the upgrades that also exist outside the cancel flow (without `discount=1`: no reason, full price, no feedback) */
const PLAIN_UPGRADES = new Set<RetentionAction>(['upgrade-yearly', 'upgrade-lifetime']);

/**
 * Billing and the retention flows (docs/product/retention.md). Every change goes THROUGH THE
 * PROVIDER (the subscription's provider kind), then the ledger syncs our row from the provider's
 * answer; the member's reason is stored with the outcome. Calls on one subscription run one at a
 * time in this process, each carries an idempotency key (user + subscription + action + the
 * client's key, or the row's version without one) and each checks the state first, so a double
 * submit changes nothing twice.
 *
 * One file per flow in ./service/: discount, pause (and resume), cancel, plan-change (yearly,
 * lifetime), dunning (a new card, pay now); state is what the billing page shows.
 */
export function createBillingService(deps: BillingDeps) {
  const ctx = createBillingContext(deps);
  const { serial, subscriptionRow, owned, validateReason, idemKey, providerOf, refuse, offers } = ctx;
  const once = createOnce(ctx);
  const discount = createDiscountFlow(ctx, once);
  const pausing = createPauseFlow(ctx, once);
  const cancel = createCancelFlow(ctx);
  const planChange = createPlanChangeFlow(ctx);
  const dunning = createDunningFlow(ctx);
  const { state } = createBillingState(ctx, once);

  async function retention(
    user: AuthUser,
    kind: PaymentKind,
    action: RetentionAction,
    body: { reason?: string | null; description?: string | null; clientKey: string | null; discount?: boolean },
  ): Promise<ActionResult> {
    const first = await owned(user, kind);
    // the cancel flow's upgrades carry discount=1 (reason, retention price, feedback);
    // without it an upgrade is a plain one at the full price, with no reason and nothing stored
    const plain = PLAIN_UPGRADES.has(action) && !body.discount;
    const input = plain ? { reason: '', description: '' } : validateReason(body);
    return serial(first.id, async () => {
      // the state as it is now (a double submit waited for the first and sees its result)
      const sub = (await subscriptionRow(first.id)) ?? first;
      if (sub.userId !== user.id) throw notFound(COMMERCE_MESSAGES.noSubscription);
      // a payment is due: it is settled first (the card on file is the one that failed)
      if (
        sub.status === 'past_due' &&
        (action === 'upgrade-yearly' || action === 'upgrade-lifetime' || action === 'lifetime-checkout')
      )
        throw new AppError('conflict', DUNNING_MESSAGES.settleFirst);
      const call: RetentionCall = {
        user,
        action,
        sub,
        clientKey: body.clientKey,
        input,
        plain,
        key: idemKey(user, sub, plain ? `${action}-full` : action, body.clientKey),
        provider: providerOf(sub),
        cycle: cycleOf(sub),
        live: LIVE_STATUSES.has(sub.status) && !sub.cancelAtPeriodEnd,
        notActive: () => refuse(COMMERCE_MESSAGES.noSubscription),
        o: await offers(),
      };

      switch (action) {
        case 'discount':
          return discount(call);
        case 'upgrade-yearly':
          return planChange.upgradeYearly(call);
        case 'upgrade-lifetime':
          return planChange.upgradeLifetime(call);
        case 'pause':
        case 'suspend':
          return pausing.pause(call);
        case 'cancel':
        case 'paypal-cancel':
          return cancel(call);
        case 'lifetime-checkout':
          return planChange.lifetimeCheckout(call);
        default:
          throw notFound();
      }
    });
  }

  return {
    paymentKind,
    state,
    retention,
    cardSetup: dunning.cardSetup,
    updateCard: dunning.updateCard,
    payNow: dunning.payNow,
    resume: pausing.resume,
    lifetimeReturn: planChange.lifetimeReturn,
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
