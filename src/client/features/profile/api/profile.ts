import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, get, post } from '#client/lib/api.ts';

import type { FriendAnswer, FriendItem, FriendStatus, FriendsResponse, ProfileDto } from '#shared/profile';

export type { FriendItem, FriendStatus };
export type Profile = ProfileDto;

export const profileKey = (slug: string) => ['profile', slug] as const;
export const useProfile = (slug: string) =>
  useQuery({
    queryKey: profileKey(slug),
    queryFn: async () => (await get<{ data: Profile }>(`/api/profiles/${encodeURIComponent(slug)}`)).data,
  });
export const useFriends = () =>
  useQuery({
    queryKey: ['friends'],
    queryFn: async () => (await get<FriendsResponse>('/api/friends')).data,
  });

export const friendCalls = {
  add: (userId: number) => post<FriendAnswer>('/friends', { user_id: userId }),
  cancel: (relationshipId: number) => post<FriendAnswer>(`/friends/${relationshipId}/request`, { action: 0 }),
  accept: (relationshipId: number) => post<FriendAnswer>(`/friends/${relationshipId}/request`, { action: 1 }),
  unfriend: (userId: number) => post<FriendAnswer>('/friends', { user_id: userId, _method: 'delete' }),
};

export function useSaveStatus(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    // a form post with the status and the page's CSRF value
    mutationFn: (form: HTMLFormElement) =>
      api<{ status: string; status_updated_at: string }>('POST', '/status', new FormData(form)),
    onSuccess: (res) =>
      qc.setQueryData<Profile>(profileKey(slug), (old) =>
        old ? { ...old, status: res.status || null, status_updated_at: res.status_updated_at } : old,
      ),
  });
}
