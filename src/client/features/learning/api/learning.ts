import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Bookmark,
  ContinueLesson,
  CourseDetail,
  CourseSummary,
  Lesson,
  LessonCompletionAnswer,
  PathItem,
  Progress,
  Stage,
  StageSummary,
} from '#shared/learning';
import { userChannel } from '#shared/realtime';
import { firstAnswerNow, get, post } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { useChannelEvent } from '#client/lib/socket.ts';

export type { Bookmark, CourseDetail, CourseSummary, Lesson, PathItem, Progress, Stage, StageSummary };

const keys = {
  courses: ['courses'] as const,
  course: (slug: string) => ['courses', slug] as const,
  lesson: (id: number) => ['lessons', id] as const,
  stages: ['stages'] as const,
  stage: (id: number) => ['stages', id] as const,
  myPractice: ['my-practice'] as const,
  continue: ['continue'] as const,
};

export const useCourses = () =>
  useQuery({
    queryKey: keys.courses,
    queryFn: async () => (await get<{ data: CourseSummary[] }>('/api/courses')).data,
  });
export const useCourse = (slug: string) =>
  useQuery({
    queryKey: keys.course(slug),
    queryFn: async () => (await get<{ data: CourseDetail }>(`/api/courses/${encodeURIComponent(slug)}`)).data,
  });
export const useLesson = (id: number) =>
  useQuery({
    queryKey: keys.lesson(id),
    queryFn: async () => (await get<{ data: Lesson }>(`/api/lessons/${id}`)).data,
    initialData: () => firstAnswerNow<{ data: Lesson }>(`/api/lessons/${id}`)?.data,
  });
export const useStages = () =>
  useQuery({ queryKey: keys.stages, queryFn: async () => (await get<{ data: StageSummary[] }>('/api/stages')).data });
export const useStage = (id: number) =>
  useQuery({ queryKey: keys.stage(id), queryFn: async () => (await get<{ data: Stage }>(`/api/stages/${id}`)).data });
export const useMyPractice = () =>
  useQuery({
    queryKey: keys.myPractice,
    queryFn: async () => (await get<{ data: Bookmark[] }>('/api/my-practice')).data,
    initialData: () => firstAnswerNow<{ data: Bookmark[] }>('/api/my-practice')?.data,
  });
export const useContinueLesson = () =>
  useQuery({
    queryKey: keys.continue,
    queryFn: async () => (await get<{ data: ContinueLesson }>('/api/continue')).data,
    initialData: () => firstAnswerNow<{ data: ContinueLesson }>('/api/continue')?.data,
  });

/** Optimistic change of one lesson's cached fields; the server's answer or a refetch settles it. */
function useLessonPatch() {
  const qc = useQueryClient();
  return (lessonId: number, patch: (l: Lesson) => Lesson) =>
    qc.setQueryData<Lesson>(keys.lesson(lessonId), (old) => (old ? patch(old) : old));
}

export function useBookmark(lessonId: number) {
  const qc = useQueryClient();
  const patch = useLessonPatch();
  return useMutation({
    mutationFn: (bookmarked: boolean) => post('/lesson-bookmarks', { lesson_id: lessonId, bookmarked }),
    onMutate: (bookmarked) => patch(lessonId, (l) => ({ ...l, bookmarked })),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.myPractice }),
  });
}

export function useLessonCompletion(lessonId: number) {
  const qc = useQueryClient();
  const patch = useLessonPatch();
  return useMutation({
    mutationFn: (complete: boolean) =>
      post<LessonCompletionAnswer>('/lesson-completions', { lesson_id: lessonId, complete }),
    onMutate: (complete) => patch(lessonId, (l) => ({ ...l, complete })),
    onSuccess: (res) => patch(lessonId, (l) => ({ ...l, progress: res.progress })),
    onError: (_e, complete) => patch(lessonId, (l) => ({ ...l, complete: !complete })),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: keys.courses });
      void qc.invalidateQueries({ queryKey: keys.continue });
    },
  });
}

export function usePathCompletion(lessonId: number) {
  const patch = useLessonPatch();
  const setPath = (pathId: number, complete: boolean) =>
    patch(lessonId, (l) => ({ ...l, paths: l.paths.map((p) => (p.id === pathId ? { ...p, complete } : p)) }));
  return useMutation({
    mutationFn: ({ pathId, complete }: { pathId: number; complete: boolean }) =>
      post('/soundslice-path-completions', { soundslice_path_id: pathId, complete }),
    onMutate: ({ pathId, complete }) => setPath(pathId, complete),
    onError: (_e, { pathId, complete }) => setPath(pathId, !complete),
  });
}

/** A path completed in another tab shows here too (the private per-user channel). */
export function useLivePathStatus(lessonId: number) {
  const patch = useLessonPatch();
  const id = pageConfig().authId;
  useChannelEvent<{ soundslice_path_id: number; complete: boolean }>(
    id ? userChannel(id) : null,
    'SoundslicePathStatus',
    ({ soundslice_path_id, complete }) =>
      patch(lessonId, (l) => ({
        ...l,
        paths: l.paths.map((p) => (p.id === soundslice_path_id ? { ...p, complete } : p)),
      })),
  );
}

/**
 * A lesson completed (or not) in another tab shows here too, as a path does: the lesson's toggle and
 * progress when it is in this page's cache, and the course lists and "continue" card read again.
 */
export function useLiveLessonStatus() {
  const qc = useQueryClient();
  const patch = useLessonPatch();
  const id = pageConfig().authId;
  useChannelEvent<{ lesson_id: number; complete: boolean; progress: Progress }>(
    id ? userChannel(id) : null,
    'LessonStatus',
    ({ lesson_id, complete, progress }) => {
      patch(lesson_id, (l) => ({ ...l, complete, progress }));
      void qc.invalidateQueries({ queryKey: keys.courses });
      void qc.invalidateQueries({ queryKey: keys.continue });
    },
  );
}

export function useStageCheckmark(stageId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ hash_id, completed }: { hash_id: string; completed: boolean }) =>
      post('/stages/toggle-checkmark', { stage_id: stageId, hash_id, completed }),
    onMutate: ({ hash_id, completed }) =>
      qc.setQueryData<Stage>(keys.stage(stageId), (old) =>
        old ? { ...old, steps: old.steps.map((s) => (s.hash_id === hash_id ? { ...s, completed } : s)) } : old,
      ),
    // errors are ignored silently
    onSettled: () => qc.invalidateQueries({ queryKey: keys.stages }),
  });
}
