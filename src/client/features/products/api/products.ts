import { useQuery } from '@tanstack/react-query';
import type { z } from '#shared/zod';
import type { courseProductResponseSchema, doubleKickResponseSchema } from '#shared/products';
import type { ClientSecretResponse, UrlResponse } from '#shared/commerce';
import { get, post } from '#client/lib/api.ts';

export type DoubleKickData = z.infer<typeof doubleKickResponseSchema>['data'];
export type CourseProductData = z.infer<typeof courseProductResponseSchema>['data'];

export const useDoubleKick = () =>
  useQuery({
    queryKey: ['products', 'double-kick'],
    queryFn: async () => (await get<{ data: DoubleKickData }>('/api/products/double-kick')).data,
  });

export const useCourseProduct = (courseId: number | null) =>
  useQuery({
    queryKey: ['products', 'course', courseId],
    enabled: courseId !== null,
    retry: false,
    queryFn: async () => (await get<{ data: CourseProductData }>(`/api/products/course/${courseId}`)).data,
  });

const slugUrl = (slug: string) => `/api/products/${encodeURIComponent(slug)}`;

/** the payment calls (the server prices every one; the key makes a double submit one order) */
export const productApi = {
  clientSecret: (slug: string) => post<ClientSecretResponse>(`${slugUrl(slug)}/card/client-secret`),
  payByCard: (slug: string, body: { stripeToken: string; affiliate: string | null; idempotency_key: string }) =>
    post<UrlResponse>(`${slugUrl(slug)}/card`, body),
  payByPaypal: (slug: string, body: { affiliate: string | null; idempotency_key: string }) =>
    post<UrlResponse>(`${slugUrl(slug)}/paypal`, body),
};

/** Where the browser goes next; a seam for tests. */
export const navigate = {
  to(url: string) {
    window.location.assign(url);
  },
};
