import type { CheckoutAnswer, OrderStripeAnswer } from '#shared/checkout';
import type { ClientSecretResponse, MembershipPlan, UrlResponse } from '#shared/commerce';
import { get, post } from '#client/lib/api.ts';
import { registerAndSignIn } from '#client/lib/register.ts';
import { useLoad } from '#client/lib/use-load.ts';

/**
 * GET /api/checkout/{slug}: the plan object, who is buying, and whether they already are a member.
 * A plain read (no query cache): /join is a public page that does not load TanStack Query (scripts/initial-js.ts).
 */
export const useCheckout = (slug: string) =>
  useLoad(`checkout/${slug}`, () => get<CheckoutAnswer>(`/api/checkout/${encodeURIComponent(slug)}`));

/** POST /register, membership flavour: checkout_slug and dbo_academy_signup */
export const registerGuest = (body: {
  name: string;
  email: string;
  email_confirmation: string;
  password: string;
  checkout_slug: string;
}) => registerAndSignIn<{ name: string; email: string; redirect: string }>({ ...body, dbo_academy_signup: true });

export const fetchClientSecret = () => get<ClientSecretResponse>('/order/stripe-client-secret');

/** POST /order/stripe; the idempotency key of this checkout attempt rides along */
export const payByCard = (body: {
  checkout: string;
  stripeToken: string;
  plan: MembershipPlan;
  idempotency_key: string;
}) => post<OrderStripeAnswer>('/order/stripe', body);

export const paypalApprovalUrl = (body: { plan: MembershipPlan; checkout: string; idempotency_key: string }) =>
  post<UrlResponse>('/paypal/get-approval-url', body);
export const paypalLifetimeCheckout = (body: { checkout: string; idempotency_key: string }) =>
  post<UrlResponse>('/paypal/lifetime-checkout', body);

export { navigate, newAttemptKey } from '#client/lib/browser.ts';
