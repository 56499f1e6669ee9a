import { useParams, useSearchParams } from 'react-router';
import { DEFAULT_CHECKOUT_SLUG } from '#shared/checkout';
import { MembershipCheckout } from '#client/features/checkout/components/membership-checkout.tsx';

/** Membership checkout (/join, /join/:slug; docs/product/membership-checkout.md). */
export function JoinPage() {
  const { slug } = useParams();
  const [search] = useSearchParams();
  return (
    <MembershipCheckout key={slug ?? DEFAULT_CHECKOUT_SLUG} slug={slug || DEFAULT_CHECKOUT_SLUG} search={search} />
  );
}
