import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { COMMUNITY } from '#shared/community';
import { WALL_HAS_MORE_HEADER, type WallCommentDto } from '#shared/wall';
import { api, ApiError } from '#client/lib/api.ts';

export interface WallPage {
  comments: WallCommentDto[];
  more: boolean;
}
type WallData = InfiniteData<WallPage, number>;

export const wallKey = (slug: string) => ['wall', slug] as const;

/**
 * GET /profile-comments/{slug}: the answer is a bare list; whether older comments
 * exist comes in the X-Has-More header, so this one call reads the response itself.
 */
async function fetchPage(slug: string, page: number): Promise<WallPage> {
  const res = await fetch(`/profile-comments/${encodeURIComponent(slug)}?page=${page}`, {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
  });
  const data = (await res.json().catch(() => null)) as unknown;
  if (!res.ok || !Array.isArray(data)) throw new ApiError(res.status, res.statusText, undefined, data);
  return { comments: data as WallCommentDto[], more: res.headers.get(WALL_HAS_MORE_HEADER) === '1' };
}

export const useWall = (slug: string) =>
  useInfiniteQuery({
    queryKey: wallKey(slug),
    queryFn: ({ pageParam }) => fetchPage(slug, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (last.more ? lastParam + 1 : undefined),
  });

/** every comment once (a new comment shifts the offset pages), in order */
export function flatten(data: InfiniteData<WallPage, unknown> | undefined): WallCommentDto[] {
  const seen = new Set<number>();
  const out: WallCommentDto[] = [];
  for (const p of data?.pages ?? [])
    for (const c of p.comments)
      if (!seen.has(c.id)) {
        seen.add(c.id);
        out.push(c);
      }
  return out;
}

/** POST /profile-comments: the answer (page 1, new comment first) replaces the list */
export function usePostComment(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { body: string; to_id: number; parent_id: number | null }) =>
      api<WallCommentDto[]>('POST', '/profile-comments', input),
    onSuccess: (list) =>
      qc.setQueryData<WallData>(wallKey(slug), {
        pages: [{ comments: list, more: list.length >= COMMUNITY.wallCommentsPerPage }],
        pageParams: [1],
      }),
  });
}

/** POST /profile-comments/{id} with _method delete; the comment (and its replies) leave the list */
export function useDeleteComment(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api('POST', `/profile-comments/${id}`, { _method: 'delete' }),
    onSuccess: (_res, id) =>
      qc.setQueryData<WallData>(wallKey(slug), (old) =>
        old
          ? {
              ...old,
              pages: old.pages.map((p) => ({
                ...p,
                comments: p.comments
                  .filter((c) => c.id !== id)
                  .map((c) =>
                    c.children.some((r) => r.id === id) ? { ...c, children: c.children.filter((r) => r.id !== id) } : c,
                  ),
              })),
            }
          : old,
      ),
  });
}
