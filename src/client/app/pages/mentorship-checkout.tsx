import { useSearchParams } from 'react-router';
import { MentorshipCheckout } from '#client/features/mentorship-checkout/components/mentorship-checkout.tsx';

/** /mentorship/checkout (docs/product/mentorship.md); the card pages are in ./mentorship-card.tsx */
export function MentorshipCheckoutPage() {
  const [search] = useSearchParams();
  return <MentorshipCheckout search={search} />;
}
