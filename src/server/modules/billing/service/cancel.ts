import { BILLING_MESSAGES, longDate } from '#shared/billing';
import type { ActionResult, BillingContext, RetentionCall } from './shared.ts';

/**
 * Cancelling (docs/product/retention.md): a card subscription ends at its period end; PayPal stops
 * at the provider now and the membership lasts to the end of the paid period.
 */
export function createCancelFlow(ctx: BillingContext) {
  const { sync, feedback, viaProvider } = ctx;

  return async function cancel(call: RetentionCall): Promise<ActionResult> {
    const { user, action, sub, input, key, provider } = call;
    const endDate = longDate(sub.currentPeriodEnd);
    if (sub.cancelAtPeriodEnd || sub.status === 'canceled') return { message: BILLING_MESSAGES.cancel(endDate) };
    // card: at the period end; PayPal: the provider stops now, our membership lasts to the paid period end
    const atPeriodEnd = action === 'cancel';
    const state = await viaProvider(() => provider.cancel(sub.providerRef, { atPeriodEnd }, key));
    const paidTo = state.currentPeriodEnd > sub.currentPeriodEnd ? state.currentPeriodEnd : sub.currentPeriodEnd;
    await sync(sub, { ...state, currentPeriodEnd: paidTo, cancelAtPeriodEnd: true });
    await feedback(sub, user.id, input, 'cancel', { cancelAtPeriodEnd: true });
    return { message: BILLING_MESSAGES.cancel(longDate(paidTo)) };
  };
}
