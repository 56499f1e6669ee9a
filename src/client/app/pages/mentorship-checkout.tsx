import { useSearchParams } from 'react-router';
import { MentorshipCheckout } from '#client/features/mentorship-checkout/components/mentorship-checkout.tsx';

/** /mentorship/checkout (spec 002 §2, §4; issue 8); the card pages are in ./mentorship-card.tsx */
export function MentorshipCheckoutPage() {
  const [search] = useSearchParams();
  return <MentorshipCheckout search={search} />;
}
