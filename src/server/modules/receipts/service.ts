import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { receipts } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import {
  paymentMethodText,
  parseReceiptNumber,
  receiptNumber,
  type Receipt,
  type ReceiptSummary,
} from '#shared/receipts';
import type { ReceiptRow } from './ledger.ts';
import { receiptPdf } from './pdf.ts';

const NOT_FOUND = 'That receipt does not exist.';

/** Reading receipts: a member reads their own; admins read anyone's. Anyone else hears 404, as for a receipt that does not exist. */
export function createReceiptService({ db }: { db: Database }) {
  async function numbersOf(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: receipts.id, kind: receipts.kind, number: receipts.number })
      .from(receipts)
      .where(inArray(receipts.id, ids));
    return new Map(rows.map((r) => [r.id, receiptNumber(r.kind, r.number)]));
  }

  const summary = (r: ReceiptRow, refersTo: string | null): ReceiptSummary => ({
    number: receiptNumber(r.kind, r.number),
    kind: r.kind,
    item: r.item,
    amount_cents: r.amountCents,
    currency: r.currency,
    issued_at: r.issuedAt.toISOString(),
    refers_to: refersTo,
  });

  async function find(user: AuthUser, numberText: string): Promise<ReceiptRow> {
    const parsed = parseReceiptNumber(numberText);
    if (!parsed) throw notFound(NOT_FOUND);
    const [row] = await db
      .select()
      .from(receipts)
      .where(and(eq(receipts.kind, parsed.kind), eq(receipts.number, parsed.number)))
      .limit(1);
    // someone else's receipt answers exactly as a missing one: its number says nothing about it
    if (!row || (row.userId !== user.id && user.role !== 'admin')) throw notFound(NOT_FOUND);
    return row;
  }

  async function detail(user: AuthUser, numberText: string): Promise<Receipt> {
    const row = await find(user, numberText);
    const refers = row.refersToId === null ? null : ((await numbersOf([row.refersToId])).get(row.refersToId) ?? null);
    const credits =
      row.kind === 'receipt'
        ? await db
            .select()
            .from(receipts)
            .where(eq(receipts.refersToId, row.id))
            .orderBy(asc(receipts.issuedAt), asc(receipts.id))
        : [];
    const own = receiptNumber(row.kind, row.number);
    return {
      ...summary(row, refers),
      seller: { name: row.seller.name, address: row.seller.address },
      member: { name: row.memberName, email: row.memberEmail },
      tax: { label: row.seller.taxLabel, percent: row.seller.taxPercent, amount_cents: row.taxCents },
      payment_method: paymentMethodText(row.paymentMethod, row.provider),
      credit_notes: credits.map((c) => summary(c, own)),
    };
  }

  return {
    /** the member's receipts and credit notes, newest first */
    async list(user: AuthUser): Promise<ReceiptSummary[]> {
      const rows = await db
        .select()
        .from(receipts)
        .where(eq(receipts.userId, user.id))
        .orderBy(desc(receipts.issuedAt), desc(receipts.id));
      const refers = await numbersOf([...new Set(rows.flatMap((r) => (r.refersToId === null ? [] : [r.refersToId])))]);
      return rows.map((r) => summary(r, r.refersToId === null ? null : (refers.get(r.refersToId) ?? null)));
    },
    detail,
    async pdf(user: AuthUser, numberText: string): Promise<{ receipt: Receipt; pdf: Buffer }> {
      const receipt = await detail(user, numberText);
      return { receipt, pdf: await receiptPdf(receipt) };
    },
  };
}
export type ReceiptService = ReturnType<typeof createReceiptService>;
