import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from '#shared/zod';
import type {
  Notification,
  notificationPageResponseSchema,
  ReadAllResponse,
  recentNotificationsResponseSchema,
} from '#shared/notifications';
import { userChannel } from '#shared/realtime';
import { firstAnswerNow, get, post } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { useChannelEvent } from '#client/lib/socket.ts';

export type Area = 'main' | 'mentorship';
type Recent = z.infer<typeof recentNotificationsResponseSchema>;
type Page = z.infer<typeof notificationPageResponseSchema>;

export const recentUrl = (area: Area) =>
  area === 'mentorship' ? '/mentorship/notifications/recent' : '/notifications/recent';
export const notificationHref = (area: Area, id: number) =>
  area === 'mentorship' ? `/mentorship/notifications/${id}` : `/notifications/${id}`;
const keys = {
  recent: (area: Area) => ['notifications', 'recent', area] as const,
  page: (area: Area, page: number) => ['notifications', 'page', area, page] as const,
  one: (id: number) => ['notifications', 'one', id] as const,
};

export const useRecentNotifications = (area: Area) =>
  useQuery({
    queryKey: keys.recent(area),
    queryFn: () => get<Recent>(recentUrl(area)),
    initialData: () => firstAnswerNow<Recent>(recentUrl(area)),
  });
export const useNotificationPage = (area: Area, page: number) =>
  useQuery({
    queryKey: keys.page(area, page),
    queryFn: () => get<Page>(`/api/notifications?area=${area}&page=${page}`),
  });
export const useNotification = (id: number) =>
  useQuery({ queryKey: keys.one(id), queryFn: () => get<{ data: Notification }>(`/api/notifications/${id}`) });

export function useMarkAllRead(area: Area) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => post<ReadAllResponse>('/api/notifications/read-all', { area }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['notifications'] }),
  });
}

/** New notifications arrive on the user's private channel: prepend them at once. */
export function useLiveNotifications(area: Area, onArrive?: (n: Notification) => void) {
  const qc = useQueryClient();
  const id = pageConfig().authId;
  useChannelEvent<{ notification: Notification; area: Area; unread_count: number }>(
    id ? userChannel(id) : null,
    'NotificationCreated',
    (payload) => {
      if (payload.area !== area) return;
      qc.setQueryData<Recent>(keys.recent(area), (old) => ({
        data: [payload.notification, ...(old?.data ?? []).filter((n) => n.id !== payload.notification.id)].slice(0, 8),
        unread_count: payload.unread_count,
      }));
      void qc.invalidateQueries({ queryKey: ['notifications', 'page', area] });
      onArrive?.(payload.notification);
    },
  );
}
