import clsx from 'clsx';
import { Download, FileText } from 'lucide-react';
import { formatMoney } from '#shared/money';
import { receiptHref, receiptPdfHref, type Receipt, type ReceiptSummary } from '#shared/receipts';
import type { BillingInvoice } from '#shared/billing';
import { errorMessage } from '#client/lib/api.ts';
import { Link } from '#client/components/ui/link.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useReceipts } from '../api/receipts.ts';
import { Section } from './section.tsx';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const kindLabel = (r: Pick<ReceiptSummary, 'kind'>) => (r.kind === 'credit_note' ? 'Credit note' : 'Receipt');

function Amount({ r, className }: { r: Pick<ReceiptSummary, 'amount_cents' | 'currency'>; className?: string }) {
  return (
    <span className={clsx('tabular font-semibold', r.amount_cents < 0 && 'text-success', className)}>
      {formatMoney(r.amount_cents, r.currency)}
    </span>
  );
}

/** A payment that did not go through: shown among the receipts, but it has none. */
type FailedPayment = Pick<BillingInvoice, 'id' | 'date' | 'description' | 'amount' | 'currency'>;

type PaymentRow = { at: string; receipt: ReceiptSummary } | { at: string; failed: FailedPayment };

/**
 * Every payment on /account/billing, newest first: each receipt and credit note opens its page or
 * downloads its PDF, and a payment that failed is listed where it happened (docs/product/receipts.md).
 */
export function PaymentsList({ receipts, failed }: { receipts: ReceiptSummary[]; failed: FailedPayment[] }) {
  const rows: PaymentRow[] = [
    ...receipts.map((receipt) => ({ at: receipt.issued_at, receipt })),
    ...failed.map((payment) => ({ at: payment.date, failed: payment })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  if (rows.length === 0) return <p className="text-muted">No payments yet: each one appears here with its receipt.</p>;
  return (
    <ul className="flex flex-col divide-y divide-line" aria-label="Payments" data-testid="payments">
      {rows.map((row) =>
        'receipt' in row ? (
          <ReceiptRow key={row.receipt.number} r={row.receipt} />
        ) : (
          <li key={`failed-${row.failed.id}`} className="flex flex-col gap-1 py-4 sm:flex-row sm:items-center sm:gap-4">
            <div className="min-w-0 flex-1">
              <p className="wrap-anywhere font-semibold">{row.failed.description || 'Membership'}</p>
              <p className="text-sm text-muted">
                <span className="font-semibold text-danger">Payment failed</span> ·{' '}
                <span className="whitespace-nowrap">{day(row.failed.date)}</span>
              </p>
            </div>
            <span className="tabular text-lg font-semibold text-muted">
              {formatMoney(row.failed.amount, row.failed.currency)}
            </span>
          </li>
        ),
      )}
    </ul>
  );
}

function ReceiptRow({ r }: { r: ReceiptSummary }) {
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:gap-4">
      <div className="min-w-0 flex-1">
        <p className="wrap-anywhere font-semibold">{r.item}</p>
        <p className="text-sm text-muted">
          {kindLabel(r)} <span className="tabular whitespace-nowrap">{r.number}</span> ·{' '}
          <span className="whitespace-nowrap">{day(r.issued_at)}</span>
          {r.refers_to ? (
            <>
              {' '}
              · refunds <span className="tabular whitespace-nowrap">{r.refers_to}</span>
            </>
          ) : null}
        </p>
      </div>
      <div className="flex items-center justify-between gap-3 sm:justify-end">
        <Amount r={r} className="text-lg" />
        <span className="flex gap-2">
          <Link
            to={receiptHref(r.number)}
            className={buttonClass('secondary')}
            aria-label={`View ${kindLabel(r).toLowerCase()} ${r.number}`}
          >
            <FileText aria-hidden className="size-4" /> View
          </Link>
          <a
            href={receiptPdfHref(r.number)}
            download
            className={buttonClass('ghost')}
            aria-label={`Download ${kindLabel(r).toLowerCase()} ${r.number} as PDF`}
          >
            <Download aria-hidden className="size-4" /> PDF
          </a>
        </span>
      </div>
    </li>
  );
}

/** The billing page's Payments section: the member's receipts with the payments that failed. */
export function PaymentsSection({ failed }: { failed: FailedPayment[] }) {
  const receipts = useReceipts();
  return (
    <Section title="Payments">
      <p className="-mt-2 mb-4 text-muted">A receipt for every payment, and a credit note for every refund.</p>
      {receipts.isPending ? (
        <Spinner />
      ) : receipts.isError ? (
        <p role="alert" className="text-danger">
          {errorMessage(receipts.error, [])}
        </p>
      ) : (
        <PaymentsList receipts={receipts.data.data} failed={failed} />
      )}
    </Section>
  );
}

/** One receipt or credit note as a document: who sold, who paid, what, how much, the tax line, how and when. */
export function ReceiptDocument({ receipt: r }: { receipt: Receipt }) {
  const credit = r.kind === 'credit_note';
  const money = (cents: number) => formatMoney(cents, r.currency);
  return (
    <article
      className="rounded-2xl border border-line bg-surface p-5 sm:p-8"
      aria-labelledby="receipt-title"
      data-testid="receipt"
    >
      <header className="flex flex-col gap-2 border-b border-line pb-5 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <div className="mb-3 h-1 w-9 rounded bg-accent" aria-hidden />
          <h1 id="receipt-title" className="text-3xl font-extrabold tracking-tight">
            {credit ? 'Credit note' : 'Receipt'}
          </h1>
          {credit && r.refers_to ? (
            <p className="mt-1 text-muted">
              Refund against receipt{' '}
              <Link to={receiptHref(r.refers_to)} className="font-semibold text-accent-strong underline">
                {r.refers_to}
              </Link>
            </p>
          ) : null}
        </div>
        <dl className="sm:text-right">
          <dt className="sr-only">Number</dt>
          <dd className="tabular whitespace-nowrap text-lg font-bold" data-testid="receipt-number">
            {r.number}
          </dd>
          <dt className="sr-only">Date</dt>
          <dd className="text-muted">{day(r.issued_at)}</dd>
        </dl>
      </header>
      <div className="grid gap-5 border-b border-line py-5 sm:grid-cols-2">
        <div className="min-w-0">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-muted">From</h2>
          <p className="mt-1 wrap-anywhere font-semibold">{r.seller.name}</p>
          {r.seller.address ? <p className="whitespace-pre-line wrap-anywhere text-muted">{r.seller.address}</p> : null}
        </div>
        <div className="min-w-0">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-muted">
            {credit ? 'Refunded to' : 'Billed to'}
          </h2>
          <p className="mt-1 wrap-anywhere font-semibold">{r.member.name}</p>
          <p className="break-all text-muted">{r.member.email}</p>
        </div>
      </div>
      <table className="my-5 w-full text-left">
        <caption className="sr-only">{credit ? 'What was refunded' : 'What was paid for'}</caption>
        <thead>
          <tr className="border-b border-fg text-sm uppercase tracking-wide text-muted">
            <th scope="col" className="pb-2 font-semibold">
              Item
            </th>
            <th scope="col" className="pb-2 text-right font-semibold">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-b border-line">
            <td className="wrap-anywhere py-3 pr-3">{r.item}</td>
            <td className="tabular py-3 text-right">{money(r.amount_cents)}</td>
          </tr>
          <tr className="text-muted">
            <td className="pt-3 pr-3">
              {r.tax.percent ? `${r.tax.label} (${r.tax.percent}%, included)` : r.tax.label}
            </td>
            <td className="tabular pt-3 text-right" data-testid="receipt-tax">
              {money(r.tax.amount_cents)}
            </td>
          </tr>
        </tbody>
        <tfoot>
          <tr className="text-lg font-bold">
            <th scope="row" className="pt-3 pr-3 text-left">
              {credit ? 'Total refunded' : 'Total paid'}
            </th>
            <td className="tabular pt-3 text-right" data-testid="receipt-total">
              {money(r.amount_cents)}
            </td>
          </tr>
        </tfoot>
      </table>
      <div className="border-t border-line pt-5">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-muted">Payment method</h2>
        <p className="mt-1" data-testid="receipt-method">
          {credit ? `Refunded to ${r.payment_method}` : r.payment_method}
        </p>
      </div>
      {r.credit_notes.length > 0 ? (
        <div className="mt-5 border-t border-line pt-5">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-muted">Refunds</h2>
          <ul className="mt-2 flex flex-col gap-2">
            {r.credit_notes.map((c) => (
              <li key={c.number} className="flex flex-wrap items-center justify-between gap-2">
                <Link to={receiptHref(c.number)} className="font-semibold text-accent-strong underline">
                  Credit note {c.number}
                </Link>
                <span className="text-muted">{day(c.issued_at)}</span>
                <Amount r={c} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </article>
  );
}
