import { emit } from './events.ts';
import {
  must,
  offset,
  PAYPAL_BUYER,
  put,
  rid,
  type PaymentMethodData,
  type SandboxContext,
  type SubscriptionData,
} from './store.ts';

/** Moving money: a charge on a card or the sandbox PayPal buyer, and the invoice a subscription's payment is filed under. */

/** move money from a payment method (card) or the sandbox PayPal buyer; false = declined */
export async function charge(
  ctx: SandboxContext,
  input: {
    paymentMethod: string | null;
    amountCents: number;
    metadata: Record<string, string>;
    description: string;
    offSession: boolean;
    fundingFails?: boolean;
  },
) {
  let ok = !input.fundingFails;
  let label = `PayPal (${PAYPAL_BUYER})`;
  if (input.paymentMethod) {
    const pm = await must<PaymentMethodData>(ctx.db, input.paymentMethod, 'payment_method');
    label = `${pm.brand} ending ${pm.last4}`;
    ok = pm.usable && !pm.failsLater;
  }
  const ref = rid('ch_');
  await put(ctx.db, ref, 'charge', { ...input, status: ok ? 'succeeded' : 'failed', refunded: false });
  return { ref, ok, label };
}

/** `open`: an attempt on the invoice still due (the same invoice, as Stripe retries it), with what follows a failure */
export async function invoice(
  ctx: SandboxContext,
  subRef: string,
  s: SubscriptionData,
  amountCents: number,
  ok: boolean,
  chargeRef: string | null,
  open?: {
    invoice: NonNullable<SubscriptionData['openInvoice']>;
    attemptCount: number;
    nextAttemptAt: number | null;
  },
) {
  const ref = open?.invoice.ref ?? rid('in_');
  const off = await offset(ctx.db);
  const periodStart = open?.invoice.periodStart ?? s.periodStart;
  const periodEnd = open?.invoice.periodEnd ?? s.periodEnd;
  await put(ctx.db, ref, 'invoice', {
    subscription: subRef,
    amountCents,
    status: ok ? 'paid' : 'failed',
    charge: chargeRef,
  });
  await emit(ctx, {
    type: ok ? 'invoice.paid' : 'invoice.payment_failed',
    invoice: {
      ref,
      subscriptionRef: subRef,
      amountCents,
      periodStart: new Date(periodStart - off),
      periodEnd: new Date(periodEnd - off),
      ...(open && !ok
        ? {
            attemptCount: open.attemptCount,
            nextAttemptAt: open.nextAttemptAt === null ? null : new Date(open.nextAttemptAt - off),
          }
        : {}),
    },
  });
}
