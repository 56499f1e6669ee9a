import { ProviderError, type PaymentProvider } from '../provider.ts';
import { call, type PaypalContext } from './api.ts';

/** Refunds: an order's capture (Payments v2), or a subscription's payment, a sale (Payments v1). */

export function refundMethods(ctx: PaypalContext): Pick<PaymentProvider, 'refund' | 'subscriptionPaymentCharge'> {
  return {
    async refund(chargeRef, idempotencyKey, amountCents) {
      const amount =
        amountCents === undefined ? {} : { amount: { value: (amountCents / 100).toFixed(2), currency_code: 'USD' } };
      if (chargeRef.startsWith('sale:')) {
        // a subscription's payment (a sale): the v1 payments API refunds it
        const sale = chargeRef.slice('sale:'.length);
        const total =
          amountCents === undefined ? {} : { amount: { total: (amountCents / 100).toFixed(2), currency: 'USD' } };
        await call(ctx, 'POST', `/v1/payments/sale/${encodeURIComponent(sale)}/refund`, total, idempotencyKey);
        return;
      }
      const order = await call<{ purchase_units?: { payments?: { captures?: { id: string }[] } }[] }>(
        ctx,
        'GET',
        `/v2/checkout/orders/${encodeURIComponent(chargeRef)}`,
      );
      const capture = order.purchase_units?.[0]?.payments?.captures?.[0]?.id;
      if (!capture) throw new ProviderError('not_found', 'This PayPal payment has no capture to refund.');
      await call(ctx, 'POST', `/v2/payments/captures/${encodeURIComponent(capture)}/refund`, amount, idempotencyKey);
    },

    /** a subscription payment is a sale (the ledger keeps its id); the first is the subscription's oldest completed transaction */
    async subscriptionPaymentCharge(subscriptionRef, invoiceRef) {
      if (invoiceRef) return `sale:${invoiceRef}`;
      const sub = await call<{ create_time?: string }>(
        ctx,
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(subscriptionRef)}`,
      );
      const from = new Date(new Date(sub.create_time ?? Date.now()).getTime() - 86_400_000).toISOString();
      const list = await call<{ transactions?: { id: string; status: string; time: string }[] }>(
        ctx,
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(subscriptionRef)}/transactions?start_time=${encodeURIComponent(from)}&end_time=${encodeURIComponent(new Date().toISOString())}`,
      );
      const first = (list.transactions ?? [])
        .filter((t) => t.status === 'COMPLETED')
        .sort((a, b) => a.time.localeCompare(b.time))[0];
      if (!first) throw new ProviderError('not_found', 'PayPal has no payment for this subscription.');
      return `sale:${first.id}`;
    },
  };
}
