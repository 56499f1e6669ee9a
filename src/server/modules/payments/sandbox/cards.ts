import { randomBytes } from 'node:crypto';
import type { Database } from '#server/db/client';
import { COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { ProviderError, type ChargeResult, type MoneyCall, type PaymentProvider } from '../provider.ts';
import { charge } from './charges.ts';
import { emit } from './events.ts';
import { clockNow, get, must, once, put, rid, type Obj, type PaymentMethodData, type SandboxContext } from './store.ts';

/**
 * Cards: the SetupIntent a card form confirms (POST /sandbox/setup-intents/confirm), the
 * 3-D Secure challenge of the card that needs it, and one-time charges of a confirmed card. Test
 * cards: SANDBOX_CARDS.
 */

const luhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
};
export const brandOf = (n: string) =>
  n.startsWith('4') ? 'Visa' : /^5[1-5]/.test(n) ? 'Mastercard' : /^3[47]/.test(n) ? 'American Express' : 'Card';

/** the checks a card form's details get (number, expiry, CVC; the declined test card) */
export async function checkCard(
  db: Database,
  input: { number: string; expMonth: number; expYear: number; cvc: string },
) {
  const number = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number))
    throw new ProviderError('card_declined', 'Your card number is invalid.');
  const now = new Date(await clockNow(db));
  const year = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  if (
    !(input.expMonth >= 1 && input.expMonth <= 12) ||
    year < now.getUTCFullYear() ||
    (year === now.getUTCFullYear() && input.expMonth < now.getUTCMonth() + 1)
  )
    throw new ProviderError('card_declined', "Your card's expiration date is invalid.");
  if (!/^\d{3,4}$/.test(input.cvc)) throw new ProviderError('card_declined', "Your card's security code is invalid.");
  if (number === SANDBOX_CARDS.declined) throw new ProviderError('card_declined', COMMERCE_MESSAGES.cardDeclined);
  return { number, year };
}

export async function createCardSetup(
  db: Database,
  input: { email: string; name: string } & MoneyCall,
): Promise<{ clientSecret: string }> {
  const ref = await once(db, `setup:${input.idempotencyKey}`, async () => {
    const id = rid('seti_');
    await put(db, id, 'setup_intent', {
      secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      email: input.email,
      name: input.name,
      metadata: input.metadata,
      status: 'requires_payment_method',
      paymentMethod: null,
    });
    return id;
  });
  const seti = await must<{ secret: string }>(db, ref, 'setup_intent');
  return { clientSecret: seti.secret };
}

export function cardMethods(ctx: SandboxContext): Pick<PaymentProvider, 'createCardSetup' | 'chargeCard'> {
  const { db } = ctx;
  return {
    createCardSetup: (input) => createCardSetup(db, input),

    async chargeCard(input) {
      const method = await must<PaymentMethodData>(db, input.paymentMethod, 'payment_method');
      if (!method.usable) {
        return {
          ref: input.paymentMethod,
          status: 'requires_action',
          nextAction: { url: `/sandbox/authenticate/${input.paymentMethod}` },
          paymentMethodLabel: `${method.brand} ending ${method.last4}`,
        } satisfies ChargeResult;
      }
      const ref = await once(db, `charge:${input.idempotencyKey}`, async () => {
        const c = await charge(ctx, {
          paymentMethod: input.paymentMethod,
          amountCents: input.amountCents,
          metadata: input.metadata,
          description: input.description,
          offSession: false,
        });
        await emit(
          ctx,
          c.ok
            ? {
                type: 'charge.succeeded',
                charge: { ref: c.ref, amountCents: input.amountCents, metadata: input.metadata },
              }
            : {
                type: 'charge.failed',
                charge: {
                  ref: c.ref,
                  amountCents: input.amountCents,
                  metadata: input.metadata,
                  failureMessage: COMMERCE_MESSAGES.cardDeclined,
                },
              },
        );
        return c.ref;
      });
      const c = await must<{ status: string; paymentMethod: string }>(db, ref, 'charge');
      const pm = await must<PaymentMethodData>(db, c.paymentMethod, 'payment_method');
      const result: ChargeResult = {
        ref,
        status: c.status === 'succeeded' ? 'succeeded' : 'failed',
        paymentMethodLabel: `${pm.brand} ending ${pm.last4}`,
      };
      if (result.status === 'failed') result.failureMessage = COMMERCE_MESSAGES.cardDeclined;
      return result;
    },
  };
}

/** the sandbox's own card pages: the card form, the 3-D Secure challenge, what a payment method is */
export function cardPages(ctx: SandboxContext) {
  const { db } = ctx;
  return {
    /** POST /sandbox/setup-intents/confirm: the card the page collected */
    async confirmSetup(input: {
      clientSecret: string;
      number: string;
      expMonth: number;
      expYear: number;
      cvc: string;
      name: string;
    }): Promise<
      { paymentMethod: string; requiresAction: false } | { paymentMethod: string; requiresAction: true; url: string }
    > {
      const id = input.clientSecret.split('_secret_')[0] ?? '';
      const seti = await get<{ secret: string; status: string; paymentMethod: string | null }>(db, id, 'setup_intent');
      if (!seti || seti.secret !== input.clientSecret)
        throw new ProviderError('not_found', 'This card form has expired. Please refresh the page and try again.');
      const { number, year } = await checkCard(db, input);
      const pmId = rid('pm_');
      const needsAuth = number === SANDBOX_CARDS.needsAuthentication;
      const pm: PaymentMethodData = {
        brand: brandOf(number),
        last4: number.slice(-4),
        name: input.name,
        usable: !needsAuth,
        failsLater: number === SANDBOX_CARDS.failsLater,
        setupIntent: id,
        expMonth: input.expMonth,
        expYear: year,
      };
      await put(db, pmId, 'payment_method', pm);
      await put(db, id, 'setup_intent', {
        ...seti,
        status: needsAuth ? 'requires_action' : 'succeeded',
        paymentMethod: pmId,
      });
      return needsAuth
        ? { paymentMethod: pmId, requiresAction: true, url: `/sandbox/authenticate/${pmId}` }
        : { paymentMethod: pmId, requiresAction: false };
    },

    /** the 3-D Secure challenge: complete makes the card usable; fail leaves it refused */
    async authenticate(paymentMethod: string, outcome: 'complete' | 'fail') {
      const pm = await must<PaymentMethodData>(db, paymentMethod, 'payment_method');
      if (outcome === 'complete') {
        pm.usable = true;
        await put(db, paymentMethod, 'payment_method', pm);
        const seti = await get<Obj>(db, pm.setupIntent, 'setup_intent');
        if (seti) await put(db, pm.setupIntent, 'setup_intent', { ...seti, status: 'succeeded' });
        return { paymentMethod };
      }
      throw new ProviderError(
        'authentication_required',
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      );
    },

    async paymentMethodInfo(paymentMethod: string) {
      const pm = await get<PaymentMethodData>(db, paymentMethod, 'payment_method');
      return pm ? { id: paymentMethod, label: `${pm.brand} ending ${pm.last4}`, usable: pm.usable } : null;
    },
  };
}
