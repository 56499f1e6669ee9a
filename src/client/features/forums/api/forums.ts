import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LikeAnswer } from '#shared/community';
import type { CategoryPage, ForumCategoryDto, MoveAnswer, NewTopic, NewTopicAnswer, TopicAnswer } from '#shared/forums';
import { mayUseCommunityClient } from '../access.ts';
import { FIRST_ANSWERS_MS, firstAnswerNow, get, post } from '#client/lib/api.ts';

export const forumKeys = {
  all: ['forums'] as const,
  categories: () => ['forums', 'categories'] as const,
  category: (slug: string, page: number) => ['forums', 'category', slug, page] as const,
  topic: (id: number) => ['forums', 'topic', id] as const,
};

export const useCategories = () =>
  useQuery({
    queryKey: forumKeys.categories(),
    queryFn: async () => (await get<{ data: ForumCategoryDto[] }>('/api/forums')).data,
    initialData: () => firstAnswerNow<{ data: ForumCategoryDto[] }>('/api/forums')?.data,
    enabled: mayUseCommunityClient(),
  });

export const useCategoryPage = (slug: string, page: number) =>
  useQuery({
    queryKey: forumKeys.category(slug, page),
    queryFn: () => get<CategoryPage>(`/api/forums/${encodeURIComponent(slug)}?page=${page}`),
    placeholderData: keepPreviousData,
    enabled: mayUseCommunityClient(),
  });

export const useTopic = (id: number | null) =>
  useQuery({
    queryKey: forumKeys.topic(id ?? 0),
    queryFn: async () => (await get<TopicAnswer>(`/forums/api/topic/${id}`)).data[0],
    initialData: () => (id === null ? undefined : firstAnswerNow<TopicAnswer>(`/forums/api/topic/${id}`)?.data[0]),
    enabled: id !== null && mayUseCommunityClient(),
    // a topic is read afresh on every visit; the page's first answer is that read (no fetch has updated it yet)
    staleTime: (query) => (query.state.dataUpdateCount === 0 && query.state.data !== undefined ? FIRST_ANSWERS_MS : 0),
  });

export const forumCalls = {
  /** the topic as GET /forums/api/topic/{id} answers it */
  toggleLike: (topicId: number) => post<LikeAnswer>('/forums/api/likes/topics/toggle', { model_id: topicId }),
  watch: (topicId: number, watch: boolean) =>
    post<{ watching: boolean }>(`/api/forums/topics/${topicId}/watch`, { watch }),
  pin: (topicId: number, pinned: boolean) => post<{ pinned: boolean }>(`/api/forums/topics/${topicId}/pin`, { pinned }),
  lock: (topicId: number, locked: boolean) =>
    post<{ locked: boolean }>(`/api/forums/topics/${topicId}/lock`, { locked }),
  move: (topicId: number, categoryId: number) =>
    post<MoveAnswer>(`/api/forums/topics/${topicId}/move`, { category_id: categoryId }),
};

export function useCreateTopic() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, ...body }: NewTopic & { slug: string }) =>
      post<NewTopicAnswer>(`/api/forums/${encodeURIComponent(slug)}/topics`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: forumKeys.all }),
  });
}

/** After a moderation call: every forum list and the topic itself are fetched again. */
export function useRefreshForums() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: forumKeys.all });
}
