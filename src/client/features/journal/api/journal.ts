import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JournalEntry, JournalPage, LogTimeResponse, PracticeStats, PracticeSummary } from '#shared/journal';
import { api, firstAnswerNow, get, post } from '#client/lib/api.ts';

export const useJournal = () =>
  useInfiniteQuery({
    queryKey: ['journal'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => get<JournalPage>(`/api/journal?page=${pageParam}`),
    getNextPageParam: (last) => (last.more ? last.page + 1 : undefined),
  });

export const usePracticeSummary = () =>
  useQuery({
    queryKey: ['practice-summary'],
    queryFn: async () => (await get<{ data: PracticeSummary }>('/api/practice/summary')).data,
  });

export const usePracticeStats = () =>
  useQuery({
    queryKey: ['practice-stats'],
    queryFn: async () => (await get<{ data: PracticeStats }>('/api/practice/stats')).data,
    initialData: () => firstAnswerNow<{ data: PracticeStats }>('/api/practice/stats')?.data,
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
      post<LogTimeResponse>('/journal/log-time-practiced', { minutes_practiced: minutes }),
  });
