import { ProviderError, type PaymentProvider } from '../provider.ts';
import { emit } from './events.ts';
import { get, put, subscription, type PaypalOrderData, type SandboxContext } from './store.ts';

/** Refunds: of a charge, a PayPal order's capture, or one payment of a subscription (found by its invoice). */

export function refundMethods(ctx: SandboxContext): Pick<PaymentProvider, 'refund' | 'subscriptionPaymentCharge'> {
  const { db } = ctx;
  return {
    /** the whole charge, or `amountCents` of it (a key already used refunds nothing more) */
    async refund(chargeRef, idempotencyKey, amountCents) {
      const order = await get<PaypalOrderData>(db, chargeRef, 'paypal_order');
      const id = order?.charge ?? chargeRef;
      const c = await get<{
        amountCents: number;
        metadata: Record<string, string>;
        refunded: boolean;
        refundedCents?: number;
      }>(db, id, 'charge');
      if (!c) throw new ProviderError('not_found', `No such charge: ${chargeRef}`);
      if (c.refunded) return;
      if (await get(db, `idem:refund:${idempotencyKey}`, 'idempotency')) return;
      const already = c.refundedCents ?? 0;
      const amount = amountCents ?? c.amountCents - already;
      if (amount <= 0 || already + amount > c.amountCents)
        throw new ProviderError('provider_error', 'The refund is more than what is left of the charge.');
      c.refundedCents = already + amount;
      c.refunded = c.refundedCents >= c.amountCents;
      await put(db, id, 'charge', c);
      await put(db, `idem:refund:${idempotencyKey}`, 'idempotency', { ref: id });
      await emit(ctx, {
        type: 'charge.refunded',
        charge: { ref: chargeRef, amountCents: amount, metadata: c.metadata },
      });
    },

    async subscriptionPaymentCharge(subscriptionRef, invoiceRef) {
      if (invoiceRef) {
        const inv = await get<{ subscription: string; charge: string | null }>(db, invoiceRef, 'invoice');
        if (!inv || inv.subscription !== subscriptionRef || !inv.charge)
          throw new ProviderError('not_found', 'The provider has no charge for this payment.');
        return inv.charge;
      }
      const s = await subscription(db, subscriptionRef);
      if (!s.firstCharge) throw new ProviderError('not_found', 'The provider has no charge for this payment.');
      return s.firstCharge;
    },
  };
}
