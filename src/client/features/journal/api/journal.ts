import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JournalExercise } from '#shared/learning';
import { api, get, post } from '#client/lib/api.ts';

export interface JournalEntry {
  id: number;
  exercises: JournalExercise[];
  notes: string | null;
  created_at: string;
}

export const useJournal = () =>
  useInfiniteQuery({
    queryKey: ['journal'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      get<{ data: JournalEntry[]; page: number; more: boolean }>(`/api/journal?page=${pageParam}`),
    getNextPageParam: (last) => (last.more ? last.page + 1 : undefined),
  });

export const usePracticeSummary = () =>
  useQuery({
    queryKey: ['practice-summary'],
    queryFn: async () =>
      (
        await get<{ data: { today: number; week: number; days: Array<{ day: string; minutes: number }> } }>(
          '/api/practice/summary',
        )
      ).data,
  });

/** The form posts itself: its hidden field `exercises` holds the rows as JSON. */
export function useSaveJournal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (form: HTMLFormElement) => api<{ data: JournalEntry }>('POST', '/journal', new FormData(form)),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['journal'] }),
  });
}

export const useLogTime = () =>
  useMutation({
    mutationFn: (minutes: number) =>
      post<{ redirect: string }>('/journal/log-time-practiced', { minutes_practiced: minutes }),
  });
