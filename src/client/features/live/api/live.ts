import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChatPageDto,
  ChatPosted,
  ChatTopicAnswer,
  FollowAnswer,
  HeartAnswer,
  LiveShowDto,
  LiveStatus,
  ScheduleShowInput,
  ShowLists,
} from '#shared/live';
import { get, post } from '#client/lib/api.ts';

export type { ShowLists };

export const showsKey = ['live', 'shows'] as const;
export const showKey = (id: number) => ['live', 'show', id] as const;

export const useShows = () =>
  useQuery({ queryKey: showsKey, queryFn: () => get<ShowLists>('/api/live/shows'), retry: false });
export const useShow = (id: number) =>
  useQuery({
    queryKey: showKey(id),
    queryFn: async () => (await get<{ data: LiveShowDto }>(`/api/live/shows/${id}`)).data,
    retry: false,
  });

/** the chat panel's calls */
export const chatCalls = {
  page: (showId: number, from?: number | null) =>
    get<ChatPageDto>(`/live-chat/get?showId=${showId}${from ? `&from=${from}` : ''}`),
  send: (showId: number, body: string) => post<ChatPosted>('/live-chat/messages', { body, showId }),
  setTopic: (showId: number, body: string) => post<ChatTopicAnswer>('/live-chat/set-topic', { body, showId }),
  toggleHeart: (showId: number, messageId: number) =>
    post<HeartAnswer>('/live-chat/toggle-heart', { show_id: showId, message_id: messageId }),
};

export function useScheduleShow() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: ScheduleShowInput) => (await post<{ data: LiveShowDto }>('/api/live/shows', input)).data,
    onSuccess: () => qc.invalidateQueries({ queryKey: showsKey }),
  });
}

/** Admin controls on the show page: status and chat open/closed. */
export function useShowControls(id: number) {
  const qc = useQueryClient();
  const done = (show: LiveShowDto) => {
    qc.setQueryData(showKey(id), show);
    void qc.invalidateQueries({ queryKey: showsKey });
  };
  return {
    status: useMutation({
      mutationFn: async (status: LiveStatus) =>
        (await post<{ data: LiveShowDto }>(`/api/live/shows/${id}/status`, { status })).data,
      onSuccess: done,
    }),
    chat: useMutation({
      mutationFn: async (open: boolean) =>
        (await post<{ data: LiveShowDto }>(`/api/live/shows/${id}/chat`, { open })).data,
      onSuccess: done,
    }),
  };
}

const followKey = (id: number) => ['live', 'show', id, 'follow'] as const;

/** Following a show that has not started: its followers are reminded (bell and e-mail) shortly before it starts. */
export function useFollowShow(id: number, enabled: boolean) {
  const qc = useQueryClient();
  const state = useQuery({
    queryKey: followKey(id),
    queryFn: async () => (await get<FollowAnswer>(`/api/live/shows/${id}/follow`)).data,
    enabled,
    retry: false,
  });
  const change = useMutation({
    mutationFn: async (follow: boolean) => (await post<FollowAnswer>(`/api/live/shows/${id}/follow`, { follow })).data,
    onSuccess: (data) => qc.setQueryData(followKey(id), data),
  });
  return { state, change };
}
