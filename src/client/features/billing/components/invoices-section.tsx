import clsx from 'clsx';
import { longDate, type BillingInvoice } from '#shared/billing';
import { formatMoney } from '#shared/money';
import { Section } from './section.tsx';

/** Every payment, newest first: a list on phones, a table from small screens up. */
export function InvoicesSection({ invoices }: { invoices: BillingInvoice[] }) {
  const status = (s: BillingInvoice['status']) => (
    <span className={clsx('font-semibold capitalize', s === 'paid' ? 'text-success' : 'text-danger')}>{s}</span>
  );
  return (
    <Section title="Invoices">
      {invoices.length === 0 ? (
        <p className="text-muted">No payments yet.</p>
      ) : (
        <>
          <ul className="flex flex-col divide-y divide-line sm:hidden" aria-label="Invoices">
            {invoices.map((i) => (
              <li key={i.id} className="flex items-start justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-semibold wrap-anywhere">{i.description || 'Membership'}</p>
                  <p className="text-sm text-muted">{longDate(i.date)}</p>
                </div>
                <div className="text-right">
                  <p className="font-semibold whitespace-nowrap tabular">{formatMoney(i.amount, i.currency)}</p>
                  <p className="text-sm">{status(i.status)}</p>
                </div>
              </li>
            ))}
          </ul>
          <table className="hidden w-full text-left sm:table">
            <caption className="sr-only">Invoices</caption>
            <thead>
              <tr className="border-b border-line text-sm text-muted">
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Date
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Description
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  Amount
                </th>
                <th scope="col" className="py-2 font-semibold">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((i) => (
                <tr key={i.id} className="border-b border-line last:border-0">
                  <td className="py-3 pr-4 whitespace-nowrap">{longDate(i.date)}</td>
                  <td className="py-3 pr-4">{i.description || 'Membership'}</td>
                  <td className="py-3 pr-4 text-right whitespace-nowrap tabular">
                    {formatMoney(i.amount, i.currency)}
                  </td>
                  <td className="py-3">{status(i.status)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Section>
  );
}
