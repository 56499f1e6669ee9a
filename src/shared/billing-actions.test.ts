import { describe, expect, it } from 'vitest';
import { subscriptionActions } from './billing.ts';

// What a subscription offers now (docs/product/billing-page.md).

const sub = (over: Partial<Parameters<typeof subscriptionActions>[0]> = {}) => ({
  status: 'active' as const,
  cancelAtPeriodEnd: false,
  pauseUsed: false,
  provider: 'card' as const,
  plan: 'monthly' as const,
  ...over,
});

describe('subscriptionActions', () => {
  it('a running card subscription: upgrade, pause once, cancel, change the card', () => {
    expect(subscriptionActions(sub(), false)).toEqual(['upgrade', 'pause', 'cancel', 'change-card']);
    expect(subscriptionActions(sub({ status: 'trialing' }), false)).toEqual([
      'upgrade',
      'pause',
      'cancel',
      'change-card',
    ]);
  });

  it('no second pause, no upgrade beside a lifetime membership, no card upgrade through PayPal', () => {
    expect(subscriptionActions(sub({ pauseUsed: true }), false)).toEqual(['upgrade', 'cancel', 'change-card']);
    expect(subscriptionActions(sub(), true)).toEqual(['pause', 'cancel', 'change-card']);
    expect(subscriptionActions(sub({ provider: 'paypal' }), false)).toEqual(['pause', 'cancel', 'change-card']);
  });

  it('paused: resume or cancel, never upgrade', () => {
    expect(subscriptionActions(sub({ status: 'paused', pauseUsed: true }), false)).toEqual(['resume', 'cancel']);
  });

  it('a payment due: change the card or cancel, never upgrade or pause', () => {
    expect(subscriptionActions(sub({ status: 'past_due' }), false)).toEqual(['change-card', 'cancel']);
  });

  it('cancelled: nothing to do until it ends', () => {
    expect(subscriptionActions(sub({ cancelAtPeriodEnd: true }), false)).toEqual([]);
    expect(subscriptionActions(sub({ status: 'canceled' }), false)).toEqual([]);
  });
});
