import { z } from './zod.ts';
import { formatMoney } from './money.ts';

/**
 * Receipts and credit notes (docs/product/receipts.md): every payment has a numbered receipt, every
 * refund a numbered credit note that names the receipt it refunds and carries a negative amount.
 */

export const RECEIPT_KINDS = ['receipt', 'credit_note'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

const PREFIX: Record<ReceiptKind, string> = { receipt: 'R', credit_note: 'CN' };

/** the number people read and the address uses: R-000042, CN-000007 */
export function receiptNumber(kind: ReceiptKind, n: number): string {
  return `${PREFIX[kind]}-${String(n).padStart(6, '0')}`;
}

/** "R-000042" (any case, leading zeros optional) → its series and number; anything else → null */
export function parseReceiptNumber(text: string): { kind: ReceiptKind; number: number } | null {
  const m = /^(R|CN)-(\d{1,9})$/i.exec(text.trim());
  if (!m) return null;
  const n = Number(m[2]);
  if (!Number.isSafeInteger(n) || n < 1) return null;
  return { kind: m[1]!.toUpperCase() === 'R' ? 'receipt' : 'credit_note', number: n };
}

// ---- the seller: the site setting `receipt_seller`

export const RECEIPT_SELLER_SETTING = 'receipt_seller';
export const TAX_PERCENT_MESSAGE =
  'Enter the tax included in prices as a percent from 0 to 50 (0 when no tax is charged).';
export const receiptSellerSchema = z.object({
  name: z.string().trim().min(1, 'Enter the name receipts are issued in.').max(200),
  address: z.string().trim().max(500),
  tax_label: z.string().trim().min(1, 'Enter the tax line’s label, for example “Tax” or “VAT”.').max(40),
  /** the tax included in every price, in percent (0: no tax is charged) */
  tax_percent: z.coerce.number({ error: TAX_PERCENT_MESSAGE }).min(0, TAX_PERCENT_MESSAGE).max(50, TAX_PERCENT_MESSAGE),
});
export type ReceiptSeller = z.infer<typeof receiptSellerSchema>;
export const DEFAULT_RECEIPT_SELLER: ReceiptSeller = {
  name: 'Backbeat Drum Academy',
  address: '',
  tax_label: 'Tax',
  tax_percent: 0,
};

/** the tax a tax-inclusive amount holds at `percent` (rounded to the cent; negative for a credit) */
export function includedTax(amountCents: number, percent: number): number {
  if (!percent) return 0;
  const tax = Math.round((Math.abs(amountCents) * percent) / (100 + percent));
  return amountCents < 0 ? -tax : tax;
}

// ---- what the member and admins read

export const receiptSummarySchema = z.object({
  number: z.string(),
  kind: z.enum(RECEIPT_KINDS),
  item: z.string(),
  amount_cents: z.number(),
  currency: z.string(),
  issued_at: z.string(),
  /** a credit note: the receipt it refunds */
  refers_to: z.string().nullable(),
});
export type ReceiptSummary = z.infer<typeof receiptSummarySchema>;

/** GET /api/billing/receipts/{number} */
export const receiptSchema = receiptSummarySchema.extend({
  seller: z.object({ name: z.string(), address: z.string() }),
  member: z.object({ name: z.string(), email: z.string() }),
  tax: z.object({ label: z.string(), percent: z.number(), amount_cents: z.number() }),
  payment_method: z.string(),
  /** a receipt: its credit notes */
  credit_notes: z.array(receiptSummarySchema),
});
export type Receipt = z.infer<typeof receiptSchema>;

/** GET /api/billing/receipts */
export const receiptListSchema = z.object({ data: z.array(receiptSummarySchema) });
export type ReceiptList = z.infer<typeof receiptListSchema>;

export const receiptHref = (number: string) => `/account/billing/receipts/${encodeURIComponent(number)}`;
export const receiptPdfHref = (number: string) => `/api/billing/receipts/${encodeURIComponent(number)}/pdf`;

/** how the payment was made, as the receipt says it (an empty label names the provider's way) */
export function paymentMethodText(label: string, provider: string): string {
  if (label.trim()) return label.trim();
  return provider === 'paypal' ? 'PayPal' : 'Card';
}

// ---- admin: refunding a subscription payment

/** GET /api/admin/subscriptions/:id/payments: one paid charge of the subscription */
export const subscriptionPaymentSchema = z.object({
  invoice_id: z.number(),
  receipt: z.string().nullable(),
  description: z.string(),
  amount_cents: z.number(),
  refunded_cents: z.number(),
  currency: z.string(),
  paid_at: z.string(),
  /** the most recent payment: refunding it in full ends the membership now */
  latest: z.boolean(),
});
export type SubscriptionPayment = z.infer<typeof subscriptionPaymentSchema>;
export const subscriptionPaymentsSchema = z.object({
  subscription: z.object({
    id: z.number(),
    member: z.string(),
    status: z.string(),
    access_ends_at: z.string().nullable(),
    plan: z.string(),
  }),
  payments: z.array(subscriptionPaymentSchema),
});
export type SubscriptionPayments = z.infer<typeof subscriptionPaymentsSchema>;
/** POST /api/admin/invoices/:id/refund */
export const subscriptionRefundResultSchema = z.object({
  message: z.string(),
  /** the credit note's number, when one was written */
  credit_note: z.string().nullable(),
  effect: z.string(),
  payments: subscriptionPaymentsSchema,
});
export type SubscriptionRefundResult = z.infer<typeof subscriptionRefundResultSchema>;

export const subscriptionRefundSchema = z.object({
  amount_cents: z.coerce
    .number({ error: 'Enter the amount to refund.' })
    .int('Enter the amount in whole cents.')
    .min(1, 'Enter an amount above zero.'),
  /** the same key again (a double click) is the same refund */
  idempotency_key: z.string().trim().min(8).max(100),
});
export type SubscriptionRefundInput = z.infer<typeof subscriptionRefundSchema>;

export const REFUND_MESSAGES = {
  tooMuch: (left: number, currency: string) =>
    `At most ${formatMoney(left, currency)} of this payment can still be refunded.`,
  nothingLeft: 'This payment has been refunded in full already.',
  notPaid: 'Only a payment that went through can be refunded.',
  refused: (reason: string) => `The provider refused the refund: ${reason}`,
} as const;

/**
 * What a refund does to the member's access, said before the admin confirms it and again after:
 * a full refund of the subscription's latest payment ends the membership now (the member gets back
 * what they paid for the period they are in); any other refund leaves access as it is.
 */
export function refundEffect(input: {
  member: string;
  amountCents: number;
  paidCents: number;
  refundedCents: number;
  latest: boolean;
  currency: string;
  accessEndsAt: string | null;
  live: boolean;
}): string {
  const name = input.member.trim() || 'The member';
  const possessive = /s$/i.test(name) ? `${name}’` : `${name}’s`;
  const money = formatMoney(input.amountCents, input.currency);
  const full = input.refundedCents + input.amountCents >= input.paidCents;
  const until = input.accessEndsAt ? ` until ${longDay(input.accessEndsAt)}` : '';
  if (!input.live) return `Refunding ${money} does not change access: ${possessive} membership has ended already.`;
  if (full && input.latest)
    return `A full refund of the latest payment ends ${possessive} membership now and stops its renewals.`;
  if (full) return `A full refund of this earlier payment keeps ${possessive} access${until}.`;
  return `A partial refund of ${money} keeps ${possessive} access${until}.`;
}

const longDay = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
