import { createRequire } from 'node:module';
import type StripeSdk from 'stripe';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { ProviderError, type Interval } from '../provider.ts';
import type {
  StripeCheckoutSession,
  StripeInvoicePayment,
  StripePaymentMethod,
  StripeSubscription,
} from './objects.ts';

/**
 * The SDK as the provider's parts use it: one client per provider, the calls we make typed by the
 * parts we read, and Stripe's errors in our words.
 */

/**
 * The SDK, loaded when a Stripe provider is made: a process on the sandbox provider never loads it
 * (several MB in memory).
 */
let Stripe: typeof StripeSdk;
const require = createRequire(import.meta.url);

export function refusal(err: unknown): never {
  if (err instanceof Stripe.errors.StripeCardError)
    throw new ProviderError('card_declined', err.message || COMMERCE_MESSAGES.cardDeclined);
  if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing')
    throw new ProviderError('not_found', err.message);
  if (err instanceof Stripe.errors.StripeError) throw new ProviderError('provider_error', err.message);
  throw err;
}

/** a card the bank refused: the caller answers it as a failed payment rather than an error */
export const isCardError = (err: unknown): err is InstanceType<typeof StripeSdk.errors.StripeCardError> =>
  err instanceof Stripe.errors.StripeCardError;

// the SDK's typings are strict about every API version's shapes; we pass Stripe's documented params
type Loose = Record<string, unknown>;
export interface StripeCalls {
  customers: { create(p: Loose, o: Loose): Promise<{ id: string }> };
  setupIntents: { create(p: Loose, o: Loose): Promise<{ client_secret: string | null }> };
  paymentMethods: { retrieve(id: string): Promise<StripePaymentMethod> };
  paymentIntents: {
    create(
      p: Loose,
      o: Loose,
    ): Promise<{
      id: string;
      status: string;
      client_secret: string | null;
      last_payment_error?: { message?: string } | null;
    }>;
  };
  products: { create(p: Loose, o: Loose): Promise<{ id: string }> };
  coupons: { create(p: Loose, o: Loose): Promise<{ id: string }> };
  subscriptions: {
    create(p: Loose, o: Loose): Promise<StripeSubscription>;
    retrieve(id: string, p?: Loose): Promise<StripeSubscription>;
    update(id: string, p: Loose, o?: Loose): Promise<StripeSubscription>;
    cancel(id: string, p?: Loose, o?: Loose): Promise<StripeSubscription>;
  };
  refunds: { create(p: Loose, o: Loose): Promise<unknown> };
  invoices: {
    pay(id: string, p: Loose, o: Loose): Promise<{ id: string; status: string | null }>;
    retrieve(id: string, p?: Loose): Promise<StripeInvoicePayment & { id: string; status: string | null }>;
    list(p: Loose): Promise<{ data: StripeInvoicePayment[] }>;
  };
  checkout: {
    sessions: {
      create(p: Loose, o: Loose): Promise<StripeCheckoutSession>;
      retrieve(id: string, p?: Loose): Promise<StripeCheckoutSession>;
    };
  };
  events: { retrieve(id: string): Promise<unknown> };
}

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  apiBase: string | null;
  appUrl?: string;
}

/** What the provider's parts share: the SDK client, its calls as we type them, and the options. */
export interface StripeContext {
  stripe: StripeSdk;
  sdk: StripeCalls;
  opts: StripeOptions;
  /** Stripe Checkout needs absolute return addresses: our site paths go on APP_URL */
  absolute(url: string): string;
}

/** STRIPE_API_BASE (tests) points the SDK at another host: http://127.0.0.1:PORT */
export function createStripeContext(opts: StripeOptions): StripeContext {
  const absolute = (url: string) => (opts.appUrl && url.startsWith('/') ? new URL(url, opts.appUrl).toString() : url);
  const base = opts.apiBase ? new URL(opts.apiBase) : null;
  Stripe ??= require('stripe') as typeof StripeSdk;
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: base ? 0 : 2,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
  return { stripe, sdk: stripe as unknown as StripeCalls, opts, absolute };
}

/** subscriptions are read with their payment method, for its label */
export const expand = ['default_payment_method'];

export const priceData = (product: string, priceCents: number, interval: Interval) => ({
  currency: 'usd',
  product,
  unit_amount: priceCents,
  recurring: { interval },
});

export async function paymentMethod(ctx: StripeContext, id: string) {
  try {
    return await ctx.sdk.paymentMethods.retrieve(id);
  } catch (err) {
    return refusal(err);
  }
}
