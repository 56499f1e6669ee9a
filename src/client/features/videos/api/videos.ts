import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VideoSubmission, VideoSubmissionPage } from '#shared/upload';
import { api, get, post } from '#client/lib/api.ts';

export interface VideoQuery {
  student_id?: number | undefined;
  awaiting?: boolean | undefined;
  page: number;
}

export const VIDEOS_KEY = ['mentorship-videos'] as const;

const listUrl = (q: VideoQuery) => {
  const params = new URLSearchParams({ page: String(q.page) });
  if (q.student_id) params.set('student_id', String(q.student_id));
  if (q.awaiting) params.set('awaiting', '1');
  return `/api/mentorship/videos?${params}`;
};

export const useVideos = (q: VideoQuery) =>
  useQuery({
    queryKey: [...VIDEOS_KEY, 'list', q],
    queryFn: () => get<VideoSubmissionPage>(listUrl(q)),
    placeholderData: keepPreviousData,
  });

export const useVideo = (id: number) =>
  useQuery({
    queryKey: [...VIDEOS_KEY, 'one', id],
    queryFn: async () => (await get<{ data: VideoSubmission }>(`/api/mentorship/videos/${id}`)).data,
    enabled: id > 0,
  });

export function useSubmitVideo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: { upload_id: string; title: string; note: string }) =>
      (await post<{ data: VideoSubmission }>('/mentorship/videos', body)).data,
    onSuccess: () => qc.invalidateQueries({ queryKey: VIDEOS_KEY }),
  });
}

export function useGiveFeedback(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (feedback: string) =>
      (await post<{ data: VideoSubmission }>(`/mentorship/videos/${id}/feedback`, { feedback })).data,
    onSuccess: (video) => {
      qc.setQueryData([...VIDEOS_KEY, 'one', id], video);
      return qc.invalidateQueries({ queryKey: [...VIDEOS_KEY, 'list'] });
    },
  });
}

export function useDeleteVideo(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ deleted: true }>('POST', `/mentorship/videos/${id}`, { _method: 'delete' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: VIDEOS_KEY }),
  });
}

function useVideoUpdate(id: number) {
  const qc = useQueryClient();
  return (video: VideoSubmission) => {
    qc.setQueryData([...VIDEOS_KEY, 'one', id], video);
    return qc.invalidateQueries({ queryKey: [...VIDEOS_KEY, 'list'] });
  };
}

/** admin: attach a WebVTT caption file (multipart `captions` and `lang`) */
export function useAttachCaptions(id: number) {
  const update = useVideoUpdate(id);
  return useMutation({
    mutationFn: async (form: FormData) =>
      (await api<{ data: VideoSubmission }>('POST', `/mentorship/videos/${id}/captions`, form)).data,
    onSuccess: update,
  });
}

export function useRemoveCaptions(id: number) {
  const update = useVideoUpdate(id);
  return useMutation({
    mutationFn: async () => (await api<{ data: VideoSubmission }>('DELETE', `/mentorship/videos/${id}/captions`)).data,
    onSuccess: update,
  });
}
