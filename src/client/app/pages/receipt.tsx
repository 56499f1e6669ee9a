import { useParams } from 'react-router';
import { ArrowLeft, Download } from 'lucide-react';
import { receiptPdfHref } from '#shared/receipts';
import { ApiError, errorMessage } from '#client/lib/api.ts';
import { Link } from '#client/components/ui/link.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ReceiptDocument } from '#client/features/billing/components/receipts.tsx';
import { useReceipt } from '#client/features/billing/api/receipts.ts';

/** /account/billing/receipts/:number: one receipt or credit note, with its PDF (the owner's or, for admins, anyone's). */
export function ReceiptPage() {
  const { number = '' } = useParams();
  const receipt = useReceipt(number);
  return (
    <div className="mx-auto w-full max-w-3xl">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <Link to="/account/billing" className={buttonClass('ghost')}>
          <ArrowLeft aria-hidden className="size-4" /> Billing
        </Link>
        {receipt.data ? (
          <a href={receiptPdfHref(receipt.data.number)} download className={buttonClass('primary')}>
            <Download aria-hidden className="size-4" /> Download PDF
          </a>
        ) : null}
      </div>
      {receipt.isPending ? (
        <Spinner />
      ) : receipt.isError ? (
        <div role="alert" className="rounded-2xl border border-line bg-surface p-6">
          <h1 className="text-2xl font-bold">
            {receipt.error instanceof ApiError && receipt.error.status === 404
              ? 'Receipt not found'
              : 'Something went wrong'}
          </h1>
          <p className="mt-2 text-muted">{errorMessage(receipt.error, [])}</p>
        </div>
      ) : (
        <ReceiptDocument receipt={receipt.data} />
      )}
    </div>
  );
}
