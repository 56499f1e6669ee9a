import { useQuery } from '@tanstack/react-query';
import type { OrderAnswer } from '#shared/checkout';
import { get } from '#client/lib/api.ts';

/** GET /api/order: one of my orders, or my latest membership (apart from checkout.ts: /join does not load the query cache) */
export const useOrder = (orderId: string | null) =>
  useQuery({
    queryKey: ['order', orderId],
    queryFn: () => get<OrderAnswer>(orderId ? `/api/order?order=${encodeURIComponent(orderId)}` : '/api/order'),
    retry: false,
  });
