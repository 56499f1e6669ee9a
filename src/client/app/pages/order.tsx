import { useSearchParams } from 'react-router';
import { OrderConfirmation } from '#client/features/checkout/components/order-confirmation.tsx';

/** The order confirmation (/order?order=); apart from /join's chunk, so /join does not load it. */
export function OrderPage() {
  const [search] = useSearchParams();
  return <OrderConfirmation orderId={search.get('order')} />;
}
