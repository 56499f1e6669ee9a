import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client';
import { receiptCounters, receipts, siteSettings, users } from '#server/db/schema/index';
import {
  DEFAULT_RECEIPT_SELLER,
  includedTax,
  RECEIPT_SELLER_SETTING,
  receiptSellerSchema,
  type ReceiptKind,
  type ReceiptSeller,
} from '#shared/receipts';

export type ReceiptRow = typeof receipts.$inferSelect;
type ProviderName = ReceiptRow['provider'];

/**
 * Writing receipts and credit notes. Every function takes the transaction that records the payment
 * or refund: the document and its number are written with it or not at all (docs/product/receipts.md).
 */

/**
 * The next number of a series. The counter row is raised (and so locked) in the caller's transaction:
 * a concurrent payment waits for it to commit, then takes the next number; a payment that rolls back
 * gives its number back. The row is made on first use, for a database that has none yet.
 */
async function nextNumber(tx: Executor, series: ReceiptKind): Promise<number> {
  const [row] = await tx
    .insert(receiptCounters)
    .values({ series, last: 1 })
    .onConflictDoUpdate({ target: receiptCounters.series, set: { last: sql`${receiptCounters.last} + 1` } })
    .returning({ last: receiptCounters.last });
  return row!.last;
}

export async function sellerSetting(tx: Executor): Promise<ReceiptSeller> {
  const [row] = await tx
    .select({ value: siteSettings.value })
    .from(siteSettings)
    .where(eq(siteSettings.key, RECEIPT_SELLER_SETTING))
    .limit(1);
  const parsed = row ? receiptSellerSchema.safeParse(row.value) : null;
  return parsed?.success ? parsed.data : DEFAULT_RECEIPT_SELLER;
}

export interface ReceiptInput {
  /** what the receipt stands for, once (see receipts.source) */
  source: string;
  userId: number;
  item: string;
  amountCents: number;
  currency?: string;
  paymentMethod: string;
  provider: ProviderName;
  invoiceId?: number | null;
  orderId?: number | null;
  subscriptionId?: number | null;
  issuedAt?: Date;
}

async function issue(
  tx: Executor,
  kind: ReceiptKind,
  input: ReceiptInput & { refersToId?: number | null },
): Promise<ReceiptRow | null> {
  const [member] = await tx
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, input.userId))
    .limit(1);
  if (!member) return null;
  const seller = await sellerSetting(tx);
  // the number first: from here the series is this transaction's until it ends, so the look for an
  // existing receipt below also sees one another process committed while this one waited
  const number = await nextNumber(tx, kind);
  // the same payment again (a replayed webhook, the return page and the webhook both): its receipt
  // stands, and the number goes back (nobody else can have taken a later one meanwhile)
  const [existing] = await tx.select().from(receipts).where(eq(receipts.source, input.source)).limit(1);
  if (existing) {
    await tx
      .update(receiptCounters)
      .set({ last: sql`${receiptCounters.last} - 1` })
      .where(eq(receiptCounters.series, kind));
    return existing;
  }
  const [row] = await tx
    .insert(receipts)
    .values({
      kind,
      number,
      source: input.source,
      userId: input.userId,
      memberName: member.name,
      memberEmail: member.email,
      seller: {
        name: seller.name,
        address: seller.address,
        taxLabel: seller.tax_label,
        taxPercent: seller.tax_percent,
      },
      item: input.item,
      amountCents: input.amountCents,
      taxCents: includedTax(input.amountCents, seller.tax_percent),
      currency: input.currency ?? 'usd',
      paymentMethod: input.paymentMethod,
      provider: input.provider,
      invoiceId: input.invoiceId ?? null,
      orderId: input.orderId ?? null,
      subscriptionId: input.subscriptionId ?? null,
      refersToId: input.refersToId ?? null,
      ...(input.issuedAt ? { issuedAt: input.issuedAt } : {}),
    })
    .returning();
  return row!;
}

/** a payment went through: its receipt (the same source again answers the receipt it has) */
export function issueReceipt(tx: Executor, input: ReceiptInput): Promise<ReceiptRow | null> {
  return issue(tx, 'receipt', input);
}

/**
 * Money went back: a credit note for `amountCents` (positive: what was refunded) against `receipt`,
 * written with a negative amount, to the member and by the method of the receipt it refunds.
 */
export function issueCreditNote(
  tx: Executor,
  receipt: ReceiptRow,
  input: { source: string; amountCents: number; issuedAt?: Date },
): Promise<ReceiptRow | null> {
  if (receipt.userId === null) return Promise.resolve(null);
  return issue(tx, 'credit_note', {
    source: input.source,
    userId: receipt.userId,
    item: `Refund of ${receipt.item}`,
    amountCents: -Math.abs(input.amountCents),
    currency: receipt.currency,
    paymentMethod: receipt.paymentMethod,
    provider: receipt.provider,
    invoiceId: receipt.invoiceId,
    orderId: receipt.orderId,
    subscriptionId: receipt.subscriptionId,
    refersToId: receipt.id,
    ...(input.issuedAt ? { issuedAt: input.issuedAt } : {}),
  });
}

/** the receipt of an invoice row (a paid charge), if it has one */
export async function receiptOfInvoice(tx: Executor, invoiceId: number): Promise<ReceiptRow | null> {
  const [row] = await tx
    .select()
    .from(receipts)
    .where(eq(receipts.source, `invoice:${invoiceId}`))
    .limit(1);
  return row ?? null;
}

/** an order's receipt written before the provider named the payment method (its webhook came first) learns it */
export async function fillReceiptMethod(tx: Executor, orderId: number, paymentMethod: string): Promise<void> {
  await tx
    .update(receipts)
    .set({ paymentMethod })
    .where(and(eq(receipts.orderId, orderId), eq(receipts.kind, 'receipt'), eq(receipts.paymentMethod, '')));
}
