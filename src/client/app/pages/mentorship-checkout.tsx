import { useParams, useSearchParams } from 'react-router';
import { MENTORSHIP_CARD_PAYMENT_KEYS, type MentorshipCardPayment } from '#shared/mentorship';
import { MentorshipCheckout } from '#client/features/mentorship-checkout/components/mentorship-checkout.tsx';
import { MentorshipCardCheckout, MentorshipCharge, MentorshipFinanceCheckout } from '#client/features/mentorship-checkout/components/card-checkout.tsx';
import { PageTitle } from './common.tsx';

/** /mentorship/checkout (spec 002 §2, §4; issue 8) */
export function MentorshipCheckoutPage() {
  const [search] = useSearchParams();
  return <MentorshipCheckout search={search} />;
}

/** /mentorship/stripe/{payment}: 3200, 2700, 1800, 1300, 650 or finance */
export function MentorshipCardPage() {
  const { payment } = useParams();
  const known = MENTORSHIP_CARD_PAYMENT_KEYS.find((p) => p === payment) as MentorshipCardPayment | undefined;
  if (!known) return <PageTitle title="This payment does not exist" subtitle={<a href="/mentorship/checkout" className="font-semibold text-accent-strong underline">See the mentorship payment options</a>} />;
  return <MentorshipCardCheckout key={known} payment={known} />;
}

/** /mentorship/stripe/charge?payment={payment}: the card provider's return address */
export function MentorshipChargePage() {
  const [search] = useSearchParams();
  return <MentorshipCharge search={search} />;
}

/** /mentorship/stripe/checkout: the financing option's hosted checkout */
export const MentorshipFinancePage = () => <MentorshipFinanceCheckout />;
