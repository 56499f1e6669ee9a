import { BillingOverview } from '#client/features/billing/components/billing-overview.tsx';
import { Receipts } from '#client/features/billing/components/receipts.tsx';
import { PageTitle } from './common.tsx';

/** /account/billing with the cancel, pause and upgrade modals (issue 7). Admins' cancellation reasons: admin/commerce. */
export function BillingPage() {
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageTitle title="Billing" subtitle="Your membership, payment method and invoices." />
      <BillingOverview />
      <Receipts />
    </div>
  );
}
