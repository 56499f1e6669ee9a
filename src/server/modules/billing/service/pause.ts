import { AppError } from '#server/lib/errors';
import { BILLING_MESSAGES } from '#shared/billing';
import type { AuthUser } from '#server/types';
import type { Once } from './once.ts';
import { LIVE_STATUSES, type ActionResult, type BillingContext, type RetentionCall } from './shared.ts';

/**
 * Pausing (card `pause`, PayPal `suspend`) once per subscription, for the offer's fee, and resuming
 * a paused one (docs/product/retention.md).
 */
export function createPauseFlow(ctx: BillingContext, once: Once) {
  const { serial, subscriptionRow, owned, idemKey, providerOf, sync, refreshed, feedback, viaProvider } = ctx;
  const { useOnce, pastUse, usingOnce } = once;

  async function pause(call: RetentionCall): Promise<ActionResult> {
    const { user, action, sub, clientKey, input, key, provider, live, notActive, o } = call;
    // a subscription is paused once, ever: paused now, or paused before and resumed, is 409
    const done = { message: BILLING_MESSAGES.pause };
    const use = live ? await useOnce(sub, 'pause', clientKey) : await pastUse(sub, 'pause', clientKey);
    if (use === 'again') return done;
    if (use === 'used' || (use === null && sub.status === 'paused'))
      throw new AppError('conflict', BILLING_MESSAGES.pauseUsed);
    if (use === null) throw notActive();
    const feeCents = action === 'pause' ? o.cardPauseFeeCents : o.paypalPauseFeeCents;
    return usingOnce(sub, 'pause', async () => {
      const state = await viaProvider(() => provider.pause(sub.providerRef, { feeCents }, key));
      await sync(sub, state);
      await feedback(sub, user.id, input, 'pause');
      return done;
    });
  }

  /**
   * POST /account/billing/resume: a paused subscription goes on at the provider and here; access
   * comes back. "Welcome back" only once both say it runs again: a subscription that is not
   * paused (by the provider's latest word) is 409, one the provider did not resume is 502.
   */
  async function resume(user: AuthUser, clientKey: string | null): Promise<ActionResult> {
    const first = await owned(user, null);
    return serial(first.id, async () => {
      let sub = (await subscriptionRow(first.id)) ?? first;
      // resumed (or paused) at the provider by a change whose event is still on its way: its word counts
      if (sub.status !== 'paused') sub = await refreshed(sub);
      if (sub.status !== 'paused')
        throw new AppError('conflict', BILLING_MESSAGES.notPaused, { subscription: [BILLING_MESSAGES.notPaused] });
      const state = await viaProvider(() =>
        providerOf(sub).resume(sub.providerRef, idemKey(user, sub, 'resume', clientKey)),
      );
      const after = (await sync(sub, state)) ?? sub;
      if (!LIVE_STATUSES.has(after.status))
        throw new AppError('provider-unavailable', BILLING_MESSAGES.resumeFailed, {
          subscription: [BILLING_MESSAGES.resumeFailed],
        });
      return { message: BILLING_MESSAGES.resume };
    });
  }

  return { pause, resume };
}
