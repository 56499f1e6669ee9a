import type { AppConfig } from '#server/config';
import type { Database } from '#server/db/client';
import type { PaymentProvider } from './provider.ts';
import { createSandboxProvider, type SandboxProvider } from './sandbox/index.ts';
import { createStripeProvider } from './stripe/index.ts';
import { createPaypalProvider } from './paypal/index.ts';

/**
 * The card and PayPal providers chosen by configuration: PAYMENTS_CARD_PROVIDER=sandbox|stripe,
 * PAYMENTS_PAYPAL_PROVIDER=sandbox|paypal. `sandbox` is set when either one is the sandbox (its pages,
 * clock and webhooks are served then).
 */
export function createProviders(
  config: AppConfig,
  opts: { db: Database },
): { card: PaymentProvider; paypal: PaymentProvider; sandbox: SandboxProvider | null } {
  const p = config.payments;
  const sandbox =
    p.card === 'sandbox' || p.paypal === 'sandbox'
      ? createSandboxProvider({ db: opts.db, webhookSecret: p.sandboxWebhookSecret })
      : null;
  const card: PaymentProvider =
    p.card === 'stripe'
      ? createStripeProvider({
          secretKey: p.stripe.secretKey ?? '',
          webhookSecret: p.stripe.webhookSecret ?? '',
          apiBase: p.stripe.apiBase,
          appUrl: config.appUrl,
        })
      : sandbox!;
  const paypal: PaymentProvider =
    p.paypal === 'paypal'
      ? createPaypalProvider({
          clientId: p.paypalApi.clientId ?? '',
          clientSecret: p.paypalApi.clientSecret ?? '',
          webhookId: p.paypalApi.webhookId ?? '',
          apiBase: p.paypalApi.apiBase,
          appUrl: config.appUrl,
        })
      : sandbox!;
  return { card, paypal, sandbox };
}
