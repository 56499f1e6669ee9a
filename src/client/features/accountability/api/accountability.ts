import { useCallback, useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CSRF_HEADER } from '#shared/constants';
import {
  ACCOUNTABILITY_DEBOUNCE_MS,
  type AccountabilityLink,
  type AccountabilityLinkAdded,
  type AccountabilityLinksAnswer,
} from '#shared/mentorship';
import { api, get, post } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';

const key = (studentId: number) => ['accountability', studentId] as const;

export const useAccountabilityLinks = (studentId: number) =>
  useQuery({
    queryKey: key(studentId),
    queryFn: async () =>
      (await get<AccountabilityLinksAnswer>(`/mentorship/accountability?student_id=${studentId}`)).links,
  });

export function useAddLink(studentId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { url: string; label: string }) =>
      post<AccountabilityLinkAdded>('/mentorship/accountability/links', { student_id: studentId, ...input }),
    onSuccess: (res) => qc.setQueryData(key(studentId), res.links),
  });
}

export function useDeleteLink(studentId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api<AccountabilityLinksAnswer>('POST', `/mentorship/accountability/links/${id}`, { _method: 'delete' }),
    onSuccess: (res) => qc.setQueryData(key(studentId), res.links),
  });
}

const SAVE_URL = '/mentorship/accountability/save-label';

/**
 * Label autosave (docs/product/mentorship.md): every edit restarts one timer; ACCOUNTABILITY_DEBOUNCE_MS after
 * typing stops, all labels changed since the last save go in one POST save-label. Failures are
 * silent (the next edit sends the label again). Leaving the page sends what is still waiting with a
 * keepalive request, so a quick reload does not lose the last word typed.
 */
export function useLabelAutosave(studentId: number, onSaved: (ids: number[]) => void) {
  const qc = useQueryClient();
  const pending = useRef(new Map<number, string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const savedRef = useRef(onSaved);
  savedRef.current = onSaved;

  const body = () => ({ student_id: studentId, links: [...pending.current].map(([id, label]) => ({ id, label })) });

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!pending.current.size) return;
    const sent = new Map(pending.current);
    pending.current.clear();
    try {
      const res = await post<AccountabilityLinksAnswer>(SAVE_URL, {
        student_id: studentId,
        links: [...sent].map(([id, label]) => ({ id, label })),
      });
      // the inputs keep what the user typed; the cache learns the saved labels
      qc.setQueryData<AccountabilityLink[]>(key(studentId), () => res.links);
      savedRef.current([...sent.keys()]);
    } catch {
      // silent; put back what was not overwritten since, for the next save
      for (const [id, label] of sent) if (!pending.current.has(id)) pending.current.set(id, label);
    }
  }, [qc, studentId]);

  const change = useCallback(
    (id: number, label: string) => {
      pending.current.set(id, label);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), ACCOUNTABILITY_DEBOUNCE_MS);
    },
    [flush],
  );

  useEffect(() => {
    const leave = () => {
      if (!pending.current.size) return;
      const token =
        document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content || pageConfig().csrfToken;
      void fetch(SAVE_URL, {
        method: 'POST',
        keepalive: true,
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', [CSRF_HEADER]: token },
        body: JSON.stringify(body()),
      }).catch(() => undefined);
      pending.current.clear();
    };
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      // leaving the component (not the page): save at once
      void flush();
    };
  }, [flush]);

  return { change, flush };
}
