import type { MentorshipCheckoutAnswer, MentorshipPayAnswer } from '#shared/mentorship';
import type {
  MentorshipCardPayment,
  MentorshipInstalmentOption,
  MentorshipOneTimePrice,
} from '#shared/mentorship-checkout';
import type { MentorshipCheckoutOptions } from '#shared/admin-commerce';
import type { ClientSecretResponse, UrlResponse } from '#shared/commerce';
import { get, post } from '#client/lib/api.ts';
import { registerAndSignIn } from '#client/lib/register.ts';
import { useLoad } from '#client/lib/use-load.ts';

// plain reads (no query cache): the checkout pages are public and do not load TanStack Query (scripts/initial-js.ts)

/** GET /api/mentorship/checkout: who is buying, and whether they already are a student */
export const useMentorshipCheckout = () =>
  useLoad(
    'mentorship-checkout',
    () => get<MentorshipCheckoutAnswer>('/api/mentorship/checkout'),
    '/api/mentorship/checkout',
  );

/** GET /api/mentorship/checkout/options: the default flags an admin chose (the address's flags apply on top) */
export const useMentorshipCheckoutOptions = () =>
  useLoad(
    'mentorship-checkout-options',
    () => get<MentorshipCheckoutOptions>('/api/mentorship/checkout/options'),
    '/api/mentorship/checkout/options',
  );

/** POST /register, mentorship flavour */
export const registerStudent = (body: { name: string; email: string; email_confirmation: string; password: string }) =>
  registerAndSignIn<{ name: string; email: string; redirect: string }>({ ...body, mentorship_signup: 1 });

/** POST /logout (the checkout's "Log out" goes to /login?to=/mentorship/account afterwards) */
export const logout = () => post<{ redirect: string }>('/logout');

/** POST /mentorship/create-checkout → the hosted card checkout's address */
export const createCheckout = (body: { price: MentorshipOneTimePrice; idempotency_key: string }) =>
  post<UrlResponse>('/mentorship/create-checkout', body);

/** the PayPal instalment subscription's approval address */
export const paypalSubscription = (body: { plan: MentorshipInstalmentOption; idempotency_key: string }) =>
  post<UrlResponse>('/mentorship/paypal/subscription', body);

/** POST /mentorship/payment-plan after the PayPal approval */
export const paymentPlan = (body: {
  contact_name: string;
  contact_email: string;
  name: string;
  email: string;
  agreement_id: string;
}) => post<UrlResponse>('/mentorship/payment-plan', body);

/** a card set-up's client secret (the same call as the membership checkout) */
export const fetchClientSecret = () => get<ClientSecretResponse>('/order/stripe-client-secret');

/** the card charge after the set-up was confirmed */
export const chargeCard = (body: {
  payment: Exclude<MentorshipCardPayment, 'finance'>;
  payment_method: string;
  idempotency_key?: string;
}) => post<MentorshipPayAnswer>('/mentorship/stripe/charge', body);

/** the financing option's hosted checkout */
export const financeCheckout = (body: { idempotency_key: string }) =>
  post<UrlResponse>('/mentorship/stripe/checkout', body);

export { navigate, newAttemptKey } from '#client/lib/browser.ts';
