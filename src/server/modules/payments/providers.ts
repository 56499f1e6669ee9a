import type { AppConfig } from '#server/config';
import type { PaymentProvider } from './provider.ts';

/** The card and PayPal providers chosen by configuration (issue 7). */
export function createProviders(config: AppConfig): { card: PaymentProvider; paypal: PaymentProvider } {
  void config;
  const missing = new Proxy({} as PaymentProvider, {
    get(_t, prop) {
      if (prop === 'name') return 'sandbox';
      return () => Promise.reject(new Error('payment providers: not implemented yet'));
    },
  });
  return { card: missing, paypal: missing };
}
