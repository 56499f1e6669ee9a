import { ProviderError, type SubscriptionState } from '../provider.ts';

/**
 * PayPal's REST API with fetch: an OAuth client-credentials token (kept until a minute before it
 * expires), PayPal's refusals in our words, and PayPal's objects mapped to ours.
 */

export interface PaypalLink {
  href: string;
  rel: string;
}
export interface PaypalSubscription {
  id: string;
  status: string;
  custom_id?: string;
  subscriber?: { email_address?: string };
  billing_info?: {
    next_billing_time?: string;
    cycle_executions?: { tenure_type: string; cycles_completed: number; total_cycles: number }[];
    last_payment?: { amount?: { value: string }; time?: string };
    last_failed_payment?: { amount?: { value: string }; time?: string };
    outstanding_balance?: { value: string; currency_code?: string };
    failed_payments_count?: number;
  };
  plan?: {
    billing_cycles?: {
      tenure_type: string;
      frequency: { interval_unit: string; interval_count: number };
      pricing_scheme?: { fixed_price?: { value: string } };
    }[];
  };
  status_update_time?: string;
  links?: PaypalLink[];
}

export const cents = (value: string | undefined) => Math.round(Number(value ?? 0) * 100);
export const money = (amountCents: number) => ({ currency_code: 'USD', value: (amountCents / 100).toFixed(2) });
export const payerLabel = (email: string | undefined) => (email ? `PayPal (${email})` : 'PayPal');

export function mapPaypalSubscription(sub: PaypalSubscription): SubscriptionState {
  const regular = sub.plan?.billing_cycles?.find((c) => c.tenure_type === 'REGULAR');
  const trial = sub.billing_info?.cycle_executions?.find((c) => c.tenure_type === 'TRIAL');
  const inTrial = !!trial && trial.cycles_completed < trial.total_cycles;
  const statusMap: Record<string, SubscriptionState['status']> = {
    APPROVAL_PENDING: 'approval_pending',
    APPROVED: 'approval_pending',
    ACTIVE: inTrial ? 'trialing' : 'active',
    SUSPENDED: 'paused',
    CANCELLED: 'canceled',
    EXPIRED: 'canceled',
  };
  const next = sub.billing_info?.next_billing_time;
  return {
    ref: sub.id,
    status: statusMap[sub.status] ?? 'incomplete',
    interval: regular?.frequency.interval_unit === 'YEAR' ? 'year' : 'month',
    priceCents: cents(regular?.pricing_scheme?.fixed_price?.value),
    currentPeriodEnd: next ? new Date(next) : new Date(sub.status_update_time ?? Date.now()),
    trialEndsAt: inTrial && next ? new Date(next) : null,
    cancelAtPeriodEnd: false,
    paymentMethodLabel: payerLabel(sub.subscriber?.email_address),
  };
}

export interface PaypalOptions {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  apiBase: string;
  appUrl?: string;
}

/** What the provider's parts share: the options and the access token while it lasts. */
export interface PaypalContext {
  opts: PaypalOptions;
  token: { value: string; expiresAt: number } | null;
}

/** our return addresses are site paths; PayPal needs them absolute (on APP_URL) */
export const absolute = (ctx: PaypalContext, url: string) =>
  ctx.opts.appUrl && url.startsWith('/') ? new URL(url, ctx.opts.appUrl).toString() : url;

async function accessToken(ctx: PaypalContext) {
  const { opts } = ctx;
  if (ctx.token && ctx.token.expiresAt > Date.now() + 60_000) return ctx.token.value;
  const res = await fetch(`${opts.apiBase}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    },
    body: 'grant_type=client_credentials',
  });
  if (!res.ok) throw new ProviderError('provider_error', 'PayPal refused our credentials.');
  const data = (await res.json()) as { access_token: string; expires_in: number };
  ctx.token = { value: data.access_token, expiresAt: Date.now() + data.expires_in * 1000 };
  return ctx.token.value;
}

export async function call<T>(
  ctx: PaypalContext,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: unknown,
  requestId?: string,
): Promise<T> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${await accessToken(ctx)}`,
    Accept: 'application/json',
    Prefer: 'return=representation',
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (requestId) headers['PayPal-Request-Id'] = requestId;
  const res = await fetch(`${ctx.opts.apiBase}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!res.ok) {
    const issue = (data.details as { issue?: string; description?: string }[] | undefined)?.[0];
    if (res.status === 404) throw new ProviderError('not_found', String(data.message ?? 'Not found at PayPal.'));
    if (issue?.issue === 'ORDER_NOT_APPROVED')
      throw new ProviderError('provider_error', 'The PayPal payment has not been approved.');
    if (issue?.issue === 'INSTRUMENT_DECLINED')
      throw new ProviderError('card_declined', 'PayPal declined this payment. Please choose another way to pay.');
    throw new ProviderError(
      'provider_error',
      String(issue?.description ?? data.message ?? 'PayPal could not do that.'),
    );
  }
  return data as T;
}

export async function getSubscription(ctx: PaypalContext, ref: string) {
  return mapPaypalSubscription(
    await call<PaypalSubscription>(ctx, 'GET', `/v1/billing/subscriptions/${encodeURIComponent(ref)}?fields=plan`),
  );
}
