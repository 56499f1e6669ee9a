import { describe, expect, it } from 'vitest';
import { COMMERCE_MESSAGES as M } from './commerce.ts';
import { checkoutErrors, type CheckoutForm } from './checkout.ts';

const empty: CheckoutForm = {
  plan: '',
  paymentType: 'card',
  name: '',
  email: '',
  emailConfirmation: 'x@y.z',
  password: '',
  cardHolder: '',
  terms: false,
};
const valid: CheckoutForm = {
  plan: 'monthly',
  paymentType: 'card',
  name: 'Ann',
  email: 'ann@example.com',
  emailConfirmation: 'ANN@example.com',
  password: 'longenough',
  cardHolder: 'Ann',
  terms: true,
};

describe('checkoutErrors (the validation order of docs/product/membership-checkout.md)', () => {
  it('lists the eight messages in the order of the spec', () => {
    expect(checkoutErrors(empty, true).map((e) => e.message)).toEqual([
      M.planRequired,
      M.nameRequired,
      M.emailRequired,
      M.emailsMustMatch,
      M.passwordRequired,
      M.cardHolderRequired,
      M.termsRequired,
    ]);
    expect(checkoutErrors({ ...valid, password: 'short' }, true).map((e) => e.message)).toEqual([M.passwordMin]);
  });
  it('skips the guest fields for a signed-in buyer and the card holder for PayPal', () => {
    expect(checkoutErrors({ ...empty, plan: 'yearly' }, false).map((e) => e.message)).toEqual([
      M.cardHolderRequired,
      M.termsRequired,
    ]);
    expect(checkoutErrors({ ...empty, plan: 'yearly', paymentType: 'paypal' }, false).map((e) => e.message)).toEqual([
      M.termsRequired,
    ]);
  });
  it('passes a complete form (emails compared without case)', () => {
    expect(checkoutErrors(valid, true)).toEqual([]);
  });
});
