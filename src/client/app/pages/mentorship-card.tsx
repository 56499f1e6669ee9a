import { useParams, useSearchParams } from 'react-router';
import { MENTORSHIP_CARD_PAYMENT_KEYS, type MentorshipCardPayment } from '#shared/mentorship-checkout';
import {
  MentorshipCardCheckout,
  MentorshipCharge,
  MentorshipFinanceCheckout,
} from '#client/features/mentorship-checkout/components/card-checkout.tsx';
import { PageTitle } from './common.tsx';

// The mentorship card pages (/mentorship/stripe/...), apart from /mentorship/checkout's chunk: that public
// page does not load the card form (a public page's initial JavaScript stays within its budget: scripts/initial-js.ts).

/** /mentorship/stripe/{payment}: 3200, 2700, 1800, 1300, 650 or finance */
export function MentorshipCardPage() {
  const { payment } = useParams();
  const known = MENTORSHIP_CARD_PAYMENT_KEYS.find((p) => p === payment) as MentorshipCardPayment | undefined;
  if (!known)
    return (
      <PageTitle
        title="This payment does not exist"
        subtitle={
          <a href="/mentorship/checkout" className="font-semibold text-accent-strong underline">
            See the mentorship payment options
          </a>
        }
      />
    );
  return <MentorshipCardCheckout key={known} payment={known} />;
}

/** /mentorship/stripe/charge?payment={payment}: the card provider's return address */
export function MentorshipChargePage() {
  const [search] = useSearchParams();
  return <MentorshipCharge search={search} />;
}

/** /mentorship/stripe/checkout: the financing option's hosted checkout */
export const MentorshipFinancePage = () => <MentorshipFinanceCheckout />;
