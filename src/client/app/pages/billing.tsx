import { BillingOverview } from '#client/features/billing/components/billing-overview.tsx';
import { PageTitle } from './common.tsx';

/** /account/billing: what the member has and what they can do with it. Admins read cancellation reasons in admin/commerce. */
export function BillingPage() {
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageTitle
        title="Billing"
        subtitle="Everything you have with Backbeat: memberships, mentorship, courses and payments."
      />
      <BillingOverview />
    </div>
  );
}
