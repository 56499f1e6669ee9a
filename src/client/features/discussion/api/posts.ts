import type { DiscussionSort, LikeAnswer, PostDto } from '#shared/community';
import type {
  AttachmentAnswer,
  InlineAnswer,
  PostLocation,
  PostType,
  Revision,
  ThreadAnswer,
} from '#shared/discussion';
import { api, firstAnswerPeek, get, post } from '#client/lib/api.ts';

export type { InlineAnswer, PostDto, PostLocation, Revision, ThreadAnswer };
export interface NewPost {
  type: PostType;
  resource_id: number;
  parent_id: number | null;
  replying_to: number | null;
  body: string;
  attachment: string | null;
}

const q = (params: Record<string, string | number | null | undefined>) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]) => (v === null || v === undefined ? [] : [[k, String(v)]])),
  ).toString();

const threadUrl = (type: PostType, id: number, from: number | null) => `/posts?${q({ id, type, from })}`;
const inlineUrl = (type: PostType, id: number, sort: DiscussionSort, page: number, to: number | null) =>
  `/inline-posts?${q({ type, id, sort, page, to })}`;

/**
 * The discussion's first page when the page came with it (lib/api.ts, first answers): the discussion's
 * first render shows the posts, with no loading state and no second render. Taken (`take()`) once mounted.
 */
export const firstPosts = {
  thread: (type: PostType, id: number) => firstAnswerPeek<ThreadAnswer>(threadUrl(type, id, null)),
  inline: (type: PostType, id: number, sort: DiscussionSort) =>
    firstAnswerPeek<InlineAnswer>(inlineUrl(type, id, sort, 1, null)),
};

/** The discussion calls. */
export const postCalls = {
  thread: (type: PostType, id: number, from: number | null) => get<ThreadAnswer>(threadUrl(type, id, from)),
  conversation: (type: PostType, id: number, postId: number) =>
    get<{ posts: PostDto[] }>(`/posts/thread?${q({ id, type, post_id: postId })}`),
  inline: (type: PostType, id: number, sort: DiscussionSort, page: number, to: number | null) =>
    get<InlineAnswer>(inlineUrl(type, id, sort, page, to)),
  create: (input: NewPost) => post<{ post: PostDto }>('/posts', input),
  update: (id: number, body: string) => api<PostDto>('PATCH', `/posts/${id}`, { body }),
  remove: (id: number) => api<{ ok: true }>('DELETE', `/posts/${id}`),
  like: (id: number) => post<LikeAnswer>('/toggle-like', { type: 'post', resource_id: id }),
  upload: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api<AttachmentAnswer>('POST', '/attachments', form);
  },
  deleteUpload: (filename: string) => post<{ ok: true }>('/attachments/delete', { filename }),
  revisions: (id: number) => get<{ data: Revision[] }>(`/api/posts/${id}/revisions`),
  show: (id: number) => get<PostLocation>(`/api/posts/${id}`),
};
