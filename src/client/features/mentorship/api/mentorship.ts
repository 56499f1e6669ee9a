import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AssignMentorAnswer,
  MentorshipCourse,
  MentorshipLesson,
  MentorshipLessonCompletionAnswer,
  MentorshipOverview,
  MentorshipStudentDetail,
  MentorshipStudentSummary,
  MentorOption,
} from '#shared/mentorship';
import { get, post } from '#client/lib/api.ts';

const keys = {
  overview: ['mentorship', 'overview'] as const,
  courses: ['mentorship', 'lessons'] as const,
  lesson: (id: number) => ['mentorship', 'lessons', id] as const,
  students: (mine: boolean, q: string, page: number) => ['mentorship', 'students', { mine, q, page }] as const,
  student: (id: number) => ['mentorship', 'student', id] as const,
  mentors: ['mentorship', 'mentors'] as const,
};

export const useOverview = () =>
  useQuery({ queryKey: keys.overview, queryFn: () => get<MentorshipOverview>('/api/mentorship/overview') });
export const useMentorshipCourses = () =>
  useQuery({
    queryKey: keys.courses,
    queryFn: async () => (await get<{ courses: MentorshipCourse[] }>('/api/mentorship/lessons')).courses,
  });
export const useMentorshipLesson = (id: number) =>
  useQuery({
    queryKey: keys.lesson(id),
    queryFn: async () => (await get<{ lesson: MentorshipLesson }>(`/api/mentorship/lessons/${id}`)).lesson,
  });

/** Completion, optimistic (POST /mentorship/lesson-completions): the toggle flips at once and flips back on failure. */
export function useMentorshipLessonCompletion(lessonId: number) {
  const qc = useQueryClient();
  const set = (complete: boolean) => {
    qc.setQueryData<MentorshipLesson>(keys.lesson(lessonId), (old) => (old ? { ...old, complete } : old));
    qc.setQueryData<MentorshipCourse[]>(keys.courses, (old) =>
      old?.map((c) => {
        const lessons = c.lessons.map((l) => (l.id === lessonId ? { ...l, complete } : l));
        return {
          ...c,
          lessons,
          progress: { complete: lessons.filter((l) => l.complete).length, total: lessons.length },
        };
      }),
    );
  };
  return useMutation({
    mutationFn: (complete: boolean) =>
      post<MentorshipLessonCompletionAnswer>('/mentorship/lesson-completions', {
        lesson_id: lessonId,
        complete,
      }),
    onMutate: (complete) => set(complete),
    onError: (_e, complete) => set(!complete),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.overview }),
  });
}

export const useStudents = (mine: boolean, q: string, page: number) =>
  useQuery({
    queryKey: keys.students(mine, q, page),
    queryFn: () =>
      get<{ students: MentorshipStudentSummary[]; more: boolean }>(
        `/api/mentorship/students?${new URLSearchParams({ ...(mine ? { mine: '1' } : {}), ...(q ? { q } : {}), page: String(page) })}`,
      ),
    placeholderData: keepPreviousData,
  });

export const useStudent = (id: number) =>
  useQuery({
    queryKey: keys.student(id),
    queryFn: () => get<MentorshipStudentDetail>(`/api/mentorship/students/${id}`),
  });
export const useMentors = () =>
  useQuery({
    queryKey: keys.mentors,
    queryFn: async () => (await get<{ mentors: MentorOption[] }>('/api/mentorship/mentors')).mentors,
  });

export function useAssignMentor(studentId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (mentorId: number | null) =>
      post<AssignMentorAnswer>(`/api/mentorship/students/${studentId}/mentor`, {
        mentor_id: mentorId,
      }),
    onSuccess: (res) => {
      qc.setQueryData<MentorshipStudentDetail>(keys.student(studentId), (old) =>
        old ? { ...old, mentor: res.mentor } : old,
      );
      void qc.invalidateQueries({ queryKey: ['mentorship', 'students'] });
      void qc.invalidateQueries({ queryKey: keys.overview });
    },
  });
}
