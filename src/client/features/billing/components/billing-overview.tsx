import { useSearchParams } from 'react-router';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { BILLING_MESSAGES } from '#shared/billing';
import { errorMessage } from '#client/lib/api.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useBilling } from '../api/billing.ts';
import { UpgradeModal } from './upgrade-modal.tsx';
import { MembershipsSection } from './memberships-section.tsx';
import { MentorshipSection } from './mentorship-section.tsx';
import { CoursesSection } from './courses-section.tsx';
import { PaymentsSection } from './receipts.tsx';
import { PastDueSection } from './past-due.tsx';

/**
 * /account/billing: everything the member has (memberships, the mentorship, courses) with what can
 * be done with each now, and their payments. Each section is its own component; see
 * docs/product/billing-page.md for what is shown and offered when.
 */
export function BillingOverview() {
  const billing = useBilling();
  const [params] = useSearchParams();
  if (billing.isPending) return <Spinner />;
  if (billing.isError)
    return (
      <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">
        {errorMessage(billing.error, [])}
      </p>
    );
  const { subscription, memberships, mentorships, courses, invoices } = billing.data;
  const lifetimeReturn = params.get('lifetime');
  return (
    <div className="flex flex-col gap-6">
      {lifetimeReturn === 'failed' || lifetimeReturn === 'canceled' ? (
        <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">
          {lifetimeReturn === 'failed' ? BILLING_MESSAGES.lifetimeCheckoutFailed : COMMERCE_MESSAGES.paymentCanceled}
        </p>
      ) : null}
      {/* a payment that needs the member (past due, ended unpaid) is explained here, above what they have */}
      {subscription && !memberships.some((m) => m.source === 'lifetime') ? <PastDueSection sub={subscription} /> : null}
      <MembershipsSection memberships={memberships} subscription={subscription} />
      <MentorshipSection mentorships={mentorships} />
      <CoursesSection courses={courses} />
      {/* mounted with the page, so its answer stays on screen after a lifetime upgrade replaces the subscription */}
      {subscription ? <UpgradeModal sub={subscription} /> : null}
      <PaymentsSection failed={invoices.filter((i) => i.status === 'failed')} />
    </div>
  );
}
