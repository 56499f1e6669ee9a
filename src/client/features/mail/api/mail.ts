import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSetting, NotificationSettingsResponse, UnsubscribeInfo } from '#shared/mail';
import { api, get, post } from '#client/lib/api.ts';

const keys = {
  settings: ['mail', 'settings'] as const,
  unsubscribe: (token: string) => ['mail', 'unsubscribe', token] as const,
};

export const useNotificationSettings = () =>
  useQuery({
    queryKey: keys.settings,
    queryFn: () => get<NotificationSettingsResponse>('/api/account/notifications'),
  });

export function useSaveNotificationSetting() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (setting: NotificationSetting) =>
      api<NotificationSettingsResponse>('PUT', '/api/account/notifications', { settings: [setting] }),
    // the page shows the choice at once (notification-settings.tsx); the server's answer, or on a
    // refusal a fresh read, settles the saved settings
    onSuccess: (data) => qc.setQueryData(keys.settings, data),
    onError: () => qc.invalidateQueries({ queryKey: keys.settings }),
  });
}

export const useUnsubscribeInfo = (token: string) =>
  useQuery({
    queryKey: keys.unsubscribe(token),
    queryFn: () => get<UnsubscribeInfo>(`/api/unsubscribe/${encodeURIComponent(token)}`),
    retry: false,
  });

export function useUnsubscribe(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => post<{ message: string }>(`/api/unsubscribe/${encodeURIComponent(token)}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.unsubscribe(token) }),
  });
}
