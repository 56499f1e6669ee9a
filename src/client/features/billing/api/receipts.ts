import { useQuery } from '@tanstack/react-query';
import type { Receipt, ReceiptList } from '#shared/receipts';
import { get } from '#client/lib/api.ts';

export const RECEIPTS_KEY = ['billing', 'receipts'] as const;
export const useReceipts = () =>
  useQuery({ queryKey: RECEIPTS_KEY, queryFn: () => get<ReceiptList>('/api/billing/receipts') });
export const useReceipt = (number: string) =>
  useQuery({
    queryKey: [...RECEIPTS_KEY, number],
    queryFn: () => get<Receipt>(`/api/billing/receipts/${encodeURIComponent(number)}`),
    retry: false,
  });
