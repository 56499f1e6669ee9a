import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PracticePlan,
  PracticePlanAnswer,
  PracticePlanSaveAnswer,
  ReusableDayExercise,
  SavedDay,
  SavedDaySummary,
} from '#shared/mentorship';
import { get, post } from '#client/lib/api.ts';

export type { SavedDay, SavedDaySummary };

export const planUrl = (studentId: number | null) =>
  `/mentorship/practice-plan${studentId ? `?student_id=${studentId}` : ''}`;
export const fetchPlan = (studentId: number | null) => get<PracticePlanAnswer>(planUrl(studentId));

export const usePlan = (studentId: number | null) =>
  useQuery({
    queryKey: ['practice-plan', studentId],
    queryFn: () => fetchPlan(studentId),
    // the editor owns the plan once open; every visit loads it afresh
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });

/** POST /mentorship/practice-plan (autosaved) */
export const savePlan = (body: {
  practice_plan: PracticePlan;
  id: number;
  admin_version: number;
  student_version: number;
}) => post<PracticePlanSaveAnswer>('/mentorship/practice-plan', body);

export const useSavedDays = (enabled = true) =>
  useQuery({
    queryKey: ['practice-plan-days'],
    enabled,
    queryFn: async () => (await get<{ days: SavedDaySummary[] }>('/mentorship/practice-plan-days')).days,
  });

export const fetchSavedDay = (id: number) => get<SavedDay>(`/mentorship/practice-plan-days/${id}`);
export const useSavedDay = (id: number | null) =>
  useQuery({ queryKey: ['practice-plan-day', id], enabled: id !== null, queryFn: () => fetchSavedDay(id!) });

export function useSaveDay() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title, exercises }: { id: number | null; title: string; exercises: ReusableDayExercise[] }) =>
      post<SavedDay>(id ? `/mentorship/practice-plan-days/${id}` : '/mentorship/practice-plan-days', {
        title,
        exercises,
      }),
    onSuccess: (day) => {
      qc.setQueryData(['practice-plan-day', day.id], day);
      void qc.invalidateQueries({ queryKey: ['practice-plan-days'] });
    },
  });
}

export function useDeleteDay() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<{ deleted: true }>(`/mentorship/practice-plan-days/${id}`, { _method: 'delete' }),
    onSuccess: (_r, id) => {
      qc.setQueryData<SavedDaySummary[]>(['practice-plan-days'], (list) => list?.filter((d) => d.id !== id));
      qc.removeQueries({ queryKey: ['practice-plan-day', id] });
    },
  });
}
