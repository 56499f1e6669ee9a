/** A concrete address for a registered route: each `:param` gets a plausible value. */
export function concreteUrl(route: string, value = '1'): string {
  return route
    .replace(/:([A-Za-z_]+)\??/g, (_m, name: string) =>
      name === 'slug' ? 'academy' : name === 'payment' ? '3200' : value,
    )
    .replace(/\*$/, 'x');
}

/**
 * Routes that take no CSRF token, each with its reason. They prove who calls them another way: provider
 * webhooks by signature; the sandbox provider's own pages and API stand in for Stripe's and PayPal's
 * (which are other sites) and act only on unguessable references; the sandbox test tools exist only when
 * the sandbox clock is allowed (never in production).
 */
export const CSRF_EXEMPT: Record<string, string> = {
  'POST /webhooks/stripe': 'signed by Stripe',
  'POST /api/unsubscribe/:token':
    "one-click unsubscribe (RFC 8058): a mail client's POST with no session; the signed token is the proof",
  'POST /webhooks/paypal': 'verified with PayPal',
  'POST /webhooks/sandbox': 'signed by the sandbox provider',
  'POST /sandbox/authenticate/:id': "the sandbox 3-D Secure page (the card issuer's page in production)",
  'POST /sandbox/setup-intents/confirm': 'the sandbox "Stripe API": the client secret is the proof',
  'POST /sandbox/paypal/approve/:ref': 'the sandbox "PayPal" approval page (another site\'s page in production)',
  'POST /sandbox/paypal/cancel/:ref': 'the sandbox "PayPal" approval page (another site\'s page in production)',
  'POST /sandbox/checkout/:ref/pay': "the sandbox hosted checkout (Stripe Checkout's page in production)",
  'POST /sandbox/checkout/:ref/cancel': "the sandbox hosted checkout (Stripe Checkout's page in production)",
  'POST /sandbox/clock/advance': 'test tool; 404 unless the sandbox clock is allowed',
  'POST /sandbox/test/setup-intents': 'test tool; 404 unless the sandbox clock is allowed',
  'POST /sandbox/test/paypal': 'test tool; 404 unless the sandbox clock is allowed',
  'POST /sandbox/test/paypal/:ref/funding': 'test tool; 404 unless the sandbox clock is allowed',
};

/** a body as JSON, or null when it is not JSON (a page, an empty answer) */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
