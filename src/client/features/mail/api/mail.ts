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
    // the box shows the choice at once; the server's answer (or, on a refusal, a fresh read) settles it
    onMutate: (setting) => {
      qc.setQueryData<NotificationSettingsResponse>(keys.settings, (old) =>
        old ? { settings: old.settings.map((s) => (s.topic === setting.topic ? { ...s, ...setting } : s)) } : old,
      );
    },
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
