import { AppError } from '#server/lib/errors';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { BILLING_MESSAGES } from '#shared/billing';
import type { Once } from './once.ts';
import type { ActionResult, BillingContext, RetentionCall } from './shared.ts';

/**
 * The cancel flow's discount offer (docs/product/retention.md): a share off the next monthly
 * payments, or an amount off the next yearly one; once per subscription.
 */
export function createDiscountFlow(ctx: BillingContext, once: Once) {
  const { sync, feedback, viaProvider } = ctx;
  const { useOnce, pastUse, usingOnce } = once;

  return async function discount(call: RetentionCall): Promise<ActionResult> {
    const { user, sub, clientKey, input, key, provider, cycle, live, notActive, o } = call;
    const done = { message: BILLING_MESSAGES.discount(cycle, o) };
    const use =
      live && !sub.discountUsedAt
        ? await useOnce(sub, 'discount', clientKey)
        : await pastUse(sub, 'discount', clientKey);
    if (use === 'again') return done;
    if (use === 'used' || sub.discountUsedAt) throw new AppError('conflict', COMMERCE_MESSAGES.discountUsed);
    if (use === null) throw notActive();
    const offer =
      cycle === 'month'
        ? { percentOff: o.monthlyDiscountPercent, cycles: o.monthlyDiscountCycles }
        : { amountOffCents: o.yearlyDiscountCents, cycles: 1 };
    return usingOnce(sub, 'discount', async () => {
      const state = await viaProvider(() => provider.applyDiscount(sub.providerRef, offer, key));
      await sync(sub, state);
      await feedback(sub, user.id, input, 'discount', {
        discountUsedAt: new Date(),
        discountPercent: offer.percentOff ?? null,
        discountAmountCents: offer.amountOffCents ?? null,
        discountCyclesLeft: offer.cycles,
      });
      return done;
    });
  };
}
