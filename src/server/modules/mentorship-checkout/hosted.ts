import { randomUUID } from 'node:crypto';
import { AppError, notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import { ProviderError, type ChargeResult } from '#server/modules/payments/index';
import {
  MENTORSHIP_CARD_PAYMENTS,
  MENTORSHIP_CHECKOUT_MESSAGES as CM,
  MENTORSHIP_MESSAGES as M,
  type MentorshipOneTimePrice,
} from '#shared/mentorship';
import { formatMoney } from '#shared/money';
import { attemptKey, MENTORSHIP_HOME, type MentorshipCheckoutDeps, type MentorshipOrders } from './orders.ts';

const PRICE_OPTIONS: Record<MentorshipOneTimePrice, string> = {
  3200: 'onetime',
  1600: 'onetime1600',
  2600: 'onetime2600',
  3900: 'onetime3900',
};

/** The one-time prices and the financing option, paid on the card provider's hosted checkout. */
export function createHostedCheckout(deps: MentorshipCheckoutDeps, steps: MentorshipOrders) {
  const { payments, enrolment } = deps;
  const { guard, mergeMetadata, readOrder } = steps;

  /** a hosted checkout at the card provider (one-time prices, financing) */
  async function hostedCheckout(
    user: AuthUser,
    input: {
      option: string;
      amountCents: number;
      methods: 'card' | 'financing';
      back: string;
      clientKey: string | null;
    },
  ): Promise<{ url: string }> {
    const card = payments.providerFor('card');
    const key = attemptKey(user.id, 'hosted', input.option, input.clientKey ?? randomUUID());
    if (await guard(user, key)) return { url: MENTORSHIP_HOME };
    const { order, created } = await payments.startOrder(user, {
      kind: 'mentorship',
      productSlug: input.option,
      plan: null,
      amountCents: input.amountCents,
      provider: card.name,
      affiliate: null,
      idempotencyKey: key,
      metadata: {
        option: input.option,
        paymentType: input.methods === 'financing' ? 'financing' : 'card',
        description: `Backbeat mentorship (${formatMoney(input.amountCents)})`,
      },
    });
    if (!created) {
      const current = await payments.settledOrder(order, (o) => typeof o.metadata?.checkoutUrl === 'string');
      if (current.status === 'paid') return { url: MENTORSHIP_HOME };
      const url = current.metadata?.checkoutUrl;
      if (typeof url === 'string' && current.status === 'pending') return { url };
      throw new AppError('provider-unavailable', CM.checkoutFailed);
    }
    try {
      const approval = await card.createHostedCheckout({
        amountCents: input.amountCents,
        description: `Backbeat mentorship (${formatMoney(input.amountCents)})`,
        successUrl: `/mentorship/checkout/complete?order=${order.id}`,
        cancelUrl: `${input.back}?checkout=cancelled`,
        methods: input.methods,
        email: user.email,
        idempotencyKey: key,
        metadata: { orderId: String(order.id), userId: String(user.id), mentorship: input.option },
      });
      await payments.attachProviderRef(order.id, approval.ref);
      await mergeMetadata(order.id, { checkoutUrl: approval.url, back: input.back });
      return { url: approval.url };
    } catch (err) {
      await payments
        .markOrderFailed(order.id, err instanceof Error ? err.message : CM.checkoutFailed)
        .catch(() => undefined);
      if (err instanceof ProviderError || !(err instanceof AppError))
        throw new AppError('provider-unavailable', CM.checkoutFailed);
      throw err;
    }
  }

  return {
    /** POST /mentorship/create-checkout */
    createCheckout(user: AuthUser, input: { price: MentorshipOneTimePrice; clientKey: string | null }) {
      return hostedCheckout(user, {
        option: PRICE_OPTIONS[input.price],
        amountCents: input.price * 100,
        methods: 'card',
        back: '/mentorship/checkout',
        clientKey: input.clientKey,
      });
    },

    /** POST /mentorship/stripe/checkout: the financing option (3,900) */
    financeCheckout(user: AuthUser, input: { clientKey: string | null }) {
      return hostedCheckout(user, {
        option: 'finance',
        amountCents: MENTORSHIP_CARD_PAYMENTS.finance.amountCents,
        methods: 'financing',
        back: '/mentorship/stripe/finance',
        clientKey: input.clientKey,
      });
    },

    /**
     * GET /mentorship/checkout/complete?order=: the buyer is back from the hosted checkout. Verify
     * with the provider, mark the order paid (which enrols), and answer where to go.
     */
    async complete(user: AuthUser, orderId: number): Promise<string> {
      const order = await readOrder(orderId);
      if (!order || order.userId !== user.id || order.kind !== 'mentorship') throw notFound();
      const back = typeof order.metadata?.back === 'string' ? order.metadata.back : '/mentorship/checkout';
      if (order.status === 'paid') {
        await enrolment.enrol(order);
        return MENTORSHIP_HOME;
      }
      if ((order.status !== 'pending' && order.status !== 'requires_action') || !order.providerRef) {
        // refused because another purchase enrolled them first (and refunded): the checkout says they are a student
        return order.failureMessage === M.alreadyEnrolled && (await enrolment.isEnrolled(user.id))
          ? back
          : `${back}?checkout=failed`;
      }
      const card = payments.providerNamed(order.provider);
      let charge: ChargeResult;
      try {
        charge = await card.getHostedCheckout(order.providerRef);
      } catch {
        return `${back}?checkout=failed`;
      }
      if (charge.status === 'succeeded') {
        try {
          await payments.markOrderPaid(order.id, charge);
        } catch (err) {
          // enrolled through another purchase meanwhile: this payment was refunded, and the
          // checkout page says they are a student already
          if (err instanceof AppError && err.statusCode === 409) return back;
          throw err;
        }
        return MENTORSHIP_HOME;
      }
      if (charge.status === 'failed')
        await payments.markOrderFailed(order.id, charge.failureMessage ?? CM.checkoutFailed);
      return `${back}?checkout=${charge.status === 'failed' ? 'failed' : 'cancelled'}`;
    },
  };
}
