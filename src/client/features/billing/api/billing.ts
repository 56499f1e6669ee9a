import { useQuery } from '@tanstack/react-query';
import type { BillingActionAnswer, BillingState } from '#shared/billing';
import type { ClientSecretResponse } from '#shared/commerce';
import { get, post } from '#client/lib/api.ts';

export const BILLING_KEY = ['billing'] as const;
export const useBilling = () => useQuery({ queryKey: BILLING_KEY, queryFn: () => get<BillingState>('/api/billing') });

/** a fresh client key for one intent (a double click sends the same one) */
export const newIdempotencyKey = () =>
  globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;

export type CardCall = 'discount' | 'upgrade-yearly' | 'upgrade-lifetime' | 'pause' | 'cancel';
export type PaypalCall = 'suspend' | 'cancel';
export interface ReasonFields {
  reason: string;
  reason_description: string;
}

/** POST /account/billing/stripe/{call} with reason, reason_description (discount=1 for the upgrades) */
export const cardCall = (call: CardCall, fields: ReasonFields, key: string) =>
  post<BillingActionAnswer>(`/account/billing/stripe/${call}`, {
    ...fields,
    ...(call.startsWith('upgrade') ? { discount: 1 } : {}),
    idempotency_key: key,
  });
export const paypalCall = (call: PaypalCall, fields: ReasonFields, key: string) =>
  post<BillingActionAnswer>(`/account/billing/paypal/${call}`, { ...fields, idempotency_key: key });
/** a plain upgrade (the Upgrade modal): no discount flag, no reason; the server charges the full price */
export type UpgradeCall = 'upgrade-yearly' | 'upgrade-lifetime';
export const upgradeCall = (call: UpgradeCall, key: string) =>
  post<BillingActionAnswer>(`/account/billing/stripe/${call}`, { idempotency_key: key });
export const resumeCall = (key: string) =>
  post<BillingActionAnswer>('/account/billing/resume', { idempotency_key: key });

// recovery from a failed payment (docs/product/dunning.md)
/** the provider's setup flow for a new card: a SetupIntent's client secret for the card form */
export const cardSetupCall = () => post<ClientSecretResponse>('/account/billing/card/setup', {});
/** the membership pays with the card the setup flow confirmed */
export const updateCardCall = (paymentMethod: string, key: string) =>
  post<BillingActionAnswer>('/account/billing/card', { payment_method: paymentMethod, idempotency_key: key });
/** collect the payment due at once */
export const payNowCall = (key: string) =>
  post<BillingActionAnswer>('/account/billing/pay-now', { idempotency_key: key });
