import { COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { ProviderError, type Approval, type ChargeResult, type PaymentProvider } from '../provider.ts';
import { brandOf, checkCard } from './cards.ts';
import { emit } from './events.ts';
import { get, must, once, put, rid, withParams, type HostedCheckoutData, type SandboxContext } from './store.ts';

/**
 * The hosted checkout as the sandbox plays Stripe Checkout: a payment page of its own
 * (/sandbox/checkout/:ref) where the buyer pays by card or, for a financing checkout, "Pay over
 * time", then returns to the success (or cancel) address.
 */

const FINANCING_LABEL = 'Pay over time (sandbox financing)';

function hostedResult(ref: string, h: HostedCheckoutData): ChargeResult {
  if (h.status === 'complete') return { ref: h.charge ?? ref, status: 'succeeded', paymentMethodLabel: h.label };
  if (h.status === 'canceled')
    return {
      ref,
      status: 'failed',
      failureMessage: 'The checkout was cancelled. You have not been charged.',
      paymentMethodLabel: h.label,
    };
  return {
    ref,
    status: 'requires_action',
    nextAction: { url: `/sandbox/checkout/${ref}` },
    paymentMethodLabel: h.label,
  };
}

export function hostedCheckoutMethods(
  ctx: SandboxContext,
): Pick<PaymentProvider, 'createHostedCheckout' | 'getHostedCheckout'> {
  const { db } = ctx;
  return {
    async createHostedCheckout(input) {
      const ref = await once(db, `hosted:${input.idempotencyKey}`, async () => {
        const id = rid('cs_test_');
        const data: HostedCheckoutData = {
          amountCents: input.amountCents,
          description: input.description,
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          methods: input.methods,
          metadata: input.metadata,
          status: 'open',
          charge: null,
          label: '',
        };
        await put(db, id, 'hosted_checkout', data);
        return id;
      });
      return { ref, url: `/sandbox/checkout/${ref}` } satisfies Approval;
    },

    async getHostedCheckout(ref) {
      return hostedResult(ref, await must<HostedCheckoutData>(db, ref, 'hosted_checkout'));
    },
  };
}

/** the sandbox's hosted checkout page: what it shows, the buyer paying or leaving */
export function hostedCheckoutPages(ctx: SandboxContext) {
  const { db } = ctx;
  return {
    /** what the sandbox's hosted checkout page shows */
    async hostedCheckoutInfo(ref: string) {
      const h = await get<HostedCheckoutData>(db, ref, 'hosted_checkout');
      return h
        ? { ref, amountCents: h.amountCents, description: h.description, methods: h.methods, status: h.status }
        : null;
    },

    /**
     * The buyer pays on the hosted page: by card (the test cards; …3155 asks for authentication
     * first: `authenticated` is the buyer's answer) or, for a financing checkout, "Pay over time".
     * Emits charge.succeeded with the checkout's metadata; answers the success address.
     */
    async payHostedCheckout(
      ref: string,
      input:
        | {
            method: 'card';
            number: string;
            expMonth: number;
            expYear: number;
            cvc: string;
            name: string;
            authenticated?: boolean;
          }
        | { method: 'financing' },
    ): Promise<{ url: string } | { requiresAction: true }> {
      const h = await must<HostedCheckoutData>(db, ref, 'hosted_checkout');
      const done = () => ({ url: withParams(h.successUrl, { session_id: ref }) });
      if (h.status === 'complete') return done();
      if (h.status === 'canceled')
        throw new ProviderError('canceled', 'This checkout was cancelled. Please start again from the shop.');
      let label = FINANCING_LABEL;
      let chargeable = true;
      if (input.method === 'card') {
        const { number } = await checkCard(db, input);
        if (number === SANDBOX_CARDS.needsAuthentication && !input.authenticated) return { requiresAction: true };
        label = `${brandOf(number)} ending ${number.slice(-4)}`;
        chargeable = number !== SANDBOX_CARDS.failsLater;
      } else if (h.methods !== 'financing') {
        throw new ProviderError('unsupported', 'This checkout takes cards only.');
      }
      if (!chargeable) throw new ProviderError('card_declined', COMMERCE_MESSAGES.cardDeclined);
      // one payment per checkout, whatever the double clicks
      await once(db, `hosted-pay:${ref}`, async () => {
        const c = rid('ch_');
        await put(db, c, 'charge', {
          paymentMethod: null,
          amountCents: h.amountCents,
          metadata: h.metadata,
          description: h.description,
          offSession: false,
          status: 'succeeded',
          refunded: false,
        });
        const current = await must<HostedCheckoutData>(db, ref, 'hosted_checkout');
        await put(db, ref, 'hosted_checkout', { ...current, status: 'complete', charge: c, label });
        await emit(ctx, {
          type: 'charge.succeeded',
          charge: { ref: c, amountCents: h.amountCents, metadata: h.metadata },
        });
        return c;
      });
      return done();
    },

    async cancelHostedCheckout(ref: string): Promise<string> {
      const h = await must<HostedCheckoutData>(db, ref, 'hosted_checkout');
      if (h.status === 'open') await put(db, ref, 'hosted_checkout', { ...h, status: 'canceled' });
      return withParams(h.cancelUrl, { session_id: ref });
    },
  };
}
