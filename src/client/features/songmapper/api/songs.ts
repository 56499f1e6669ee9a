import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RedirectAnswer } from '#shared/http';
import type { Song, SongAnswer, SongSummary, SongTemplatesResponse } from '#shared/songmapper';
import { api, get, post } from '#client/lib/api.ts';

export const useSongs = () =>
  useQuery({ queryKey: ['songs'], queryFn: async () => (await get<{ data: SongSummary[] }>('/api/songmapper')).data });

export const useSong = (id: string | null) =>
  useQuery({
    queryKey: ['song', id],
    enabled: id !== null,
    // the editor owns the song once open; each visit loads the stored copy afresh
    gcTime: 0,
    refetchOnWindowFocus: false,
    queryFn: async () => (await get<{ data: SongAnswer }>(`/api/songmapper/${id}`)).data,
  });

/** POST /songmapper {song, id} → id */
export const saveSong = (song: Song, id: string | null) => post<{ id: string }>('/songmapper', { song, id });

export function useDeleteSong() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => post<RedirectAnswer>(`/songmapper/${id}`, { _method: 'delete' }),
    onSuccess: (_r, id) => {
      qc.setQueryData<SongSummary[]>(['songs'], (list) => list?.filter((s) => s.id !== id));
      qc.removeQueries({ queryKey: ['song', id] });
    },
  });
}

export const useTemplates = () =>
  useQuery({
    queryKey: ['song-templates'],
    queryFn: async () => (await get<SongTemplatesResponse>('/songmapper/templates')).templates,
  });

export function useSaveTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; song: Song }) => post<SongTemplatesResponse>('/songmapper/templates', body),
    onSuccess: (r) => qc.setQueryData(['song-templates'], r.templates),
  });
}

export function useDeleteTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<SongTemplatesResponse>('DELETE', `/songmapper/templates/${id}`),
    onSuccess: (r) => qc.setQueryData(['song-templates'], r.templates),
  });
}
