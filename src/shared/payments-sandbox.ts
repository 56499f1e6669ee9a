import { z } from './zod.ts';

// The sandbox payment provider's own pages and calls (docs/api.md): what its card form, its
// 3-D Secure challenge, its hosted checkout and its PayPal-like approval page read.

/** POST /sandbox/setup-intents/confirm: the card's payment method, or the challenge to pass first */
export const sandboxSetupConfirmAnswerSchema = z.union([
  z.object({ requires_action: z.literal(true), payment_method: z.string(), url: z.string() }),
  z.object({ payment_method: z.string() }),
]);

/** the sandbox's refusal of a card or a payment (402; 404 for an object it does not know), shaped like Stripe's */
export const sandboxRefusalSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** POST /sandbox/authenticate/{id}: the card passed the challenge */
export const sandboxAuthenticateAnswerSchema = z.object({ payment_method: z.string() });

/** GET /sandbox/payment-methods/{id}: the card the challenge page names */
export const sandboxPaymentMethodSchema = z.object({ id: z.string(), label: z.string(), usable: z.boolean() });

/** GET /sandbox/checkout-sessions/{ref}: the hosted checkout page's data */
export const sandboxHostedCheckoutSchema = z.object({
  ref: z.string(),
  amountCents: z.number(),
  description: z.string(),
  methods: z.enum(['card', 'financing']),
  status: z.enum(['open', 'complete', 'canceled']),
});
export type SandboxHostedCheckout = z.infer<typeof sandboxHostedCheckoutSchema>;

/** POST /sandbox/checkout/{ref}/pay: where the buyer goes, or the card's challenge first */
export const sandboxHostedPayAnswerSchema = z.union([
  z.object({ requires_action: z.literal(true) }),
  z.object({ url: z.string() }),
]);

/** GET /sandbox/paypal/orders/{ref}: the approval page's data */
export const sandboxApprovalSchema = z.object({
  ref: z.string(),
  kind: z.enum(['order', 'subscription']),
  amountCents: z.number(),
  description: z.string(),
  interval: z.enum(['month', 'year']).nullable(),
  trialDays: z.number(),
  status: z.enum(['pending', 'approved', 'canceled']),
});
export type SandboxApproval = z.infer<typeof sandboxApprovalSchema>;

/** the approval and hosted pages' buttons: where the provider sends the buyer back */
export const sandboxReturnAnswerSchema = z.object({ url: z.string() });
