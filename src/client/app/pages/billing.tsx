import { useSearchParams } from 'react-router';
import { BillingOverview } from '#client/features/billing/components/billing-overview.tsx';
import { CancellationsList } from '#client/features/billing/components/cancellations-list.tsx';
import { PageTitle } from './common.tsx';

/** /account/billing with the cancel, pause and upgrade modals; admins' cancellation reasons (issue 7). */
export function BillingPage() {
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageTitle title="Billing" subtitle="Your membership, payment method and invoices." />
      <BillingOverview />
    </div>
  );
}

export function AdminCancellationsPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  return (
    <>
      <PageTitle title="Cancellations" subtitle="Why members cancelled, paused or took an offer, newest first." />
      <CancellationsList page={page} onPage={(p) => setParams({ page: String(p) })} />
    </>
  );
}
