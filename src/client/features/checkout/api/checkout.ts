import { useQuery } from '@tanstack/react-query';
import type { CheckoutAnswer, OrderAnswer, OrderStripeAnswer } from '#shared/checkout';
import type { MembershipPlan } from '#shared/commerce';
import { get, post } from '#client/lib/api.ts';

/** GET /api/checkout/{slug}: the plan object, who is buying, and whether they already are a member */
export const useCheckout = (slug: string) =>
  useQuery({ queryKey: ['checkout', slug], queryFn: () => get<CheckoutAnswer>(`/api/checkout/${encodeURIComponent(slug)}`), retry: false });

/** GET /api/order: one of my orders, or my latest membership */
export const useOrder = (orderId: string | null) =>
  useQuery({ queryKey: ['order', orderId], queryFn: () => get<OrderAnswer>(orderId ? `/api/order?order=${encodeURIComponent(orderId)}` : '/api/order'), retry: false });

/** spec 002 §7 POST /register, membership flavour: checkout_slug and dbo_academy_signup */
export const registerGuest = (body: { name: string; email: string; email_confirmation: string; password: string; checkout_slug: string }) =>
  post<{ name: string; email: string; redirect: string }>('/register', { ...body, dbo_academy_signup: true });

export const fetchClientSecret = () => get<{ clientSecret: string }>('/order/stripe-client-secret');

/** spec 002 §7 POST /order/stripe; the idempotency key of this checkout attempt rides along */
export const payByCard = (body: { checkout: string; stripeToken: string; plan: MembershipPlan; idempotency_key: string }) => post<OrderStripeAnswer>('/order/stripe', body);

export const paypalApprovalUrl = (body: { plan: MembershipPlan; checkout: string; idempotency_key: string }) => post<{ url: string }>('/paypal/get-approval-url', body);
export const paypalLifetimeCheckout = (body: { checkout: string; idempotency_key: string }) => post<{ url: string }>('/paypal/lifetime-checkout', body);

export { navigate, newAttemptKey } from '#client/lib/browser.ts';
