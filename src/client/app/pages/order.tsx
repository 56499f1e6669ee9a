import { useSearchParams } from 'react-router';
import { OrderConfirmation } from '#client/features/checkout/components/order-confirmation.tsx';

/** The order confirmation (/order?order=) (issue 7); apart from /join's chunk (issue 9). */
export function OrderPage() {
  const [search] = useSearchParams();
  return <OrderConfirmation orderId={search.get('order')} />;
}
