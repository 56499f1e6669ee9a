import { useState, type FormEvent } from 'react';
import type { z } from '#shared/zod';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '#client/lib/api.ts';
import { toast } from '#client/components/ui/toast.tsx';
import { useFormErrors } from '#client/components/admin/form.tsx';
import type { Resource } from './parts.tsx';

// What the content editors share: the calls, the number fields, the form layout and the submit.

export const put = <T>(url: string, body: unknown) => api<T>('PUT', url, body);
export const del = <T>(url: string) => api<T>('DELETE', url);
export const num = (v: string) => (v.trim() === '' ? 0 : Number(v));
export const formClass = 'flex flex-col gap-4';
export const twoCols = 'grid gap-4 sm:grid-cols-2';

/** a form submit that validates with the shared schema, sends, and shows the server's field errors */
export function useSubmit() {
  const form = useFormErrors();
  const [busy, setBusy] = useState(false);
  async function submit(
    e: FormEvent | null,
    schema: z.ZodType,
    values: unknown,
    send: (body: unknown) => Promise<void>,
  ) {
    e?.preventDefault();
    // a second submit while the first is on its way (the Save button stays focusable while busy)
    if (busy) return;
    const formEl = e?.currentTarget instanceof HTMLFormElement ? e.currentTarget : null;
    // the form's wrong fields are marked, announced and the first one focused (components/ui/form-feedback.ts)
    const body: unknown = form.check(schema, values, formEl);
    if (body === null) return;
    setBusy(true);
    try {
      await send(body);
    } catch (err) {
      form.fromServer(err, formEl);
    } finally {
      setBusy(false);
    }
  }
  return { form, busy, submit };
}

/**
 * Saving and deleting the object of an edit page (a course, a stage, an achievement): `save` updates
 * it in place, or creates it and opens its page; `remove` deletes it and goes back to the list. Both
 * refresh the list.
 */
export function useEditorCalls<T extends { id: number }>({ noun, api: url, page: list, queryKey, listKey }: Resource) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return {
    /** `cached`: what the edit page's cache keeps of an update's answer (the answer itself by default) */
    async save(item: T | null, body: unknown, cached: (saved: T, before: T) => T = (saved) => saved) {
      if (item) {
        const res = await put<{ data: T }>(`${url}/${item.id}`, body);
        qc.setQueryData([queryKey, String(item.id)], cached(res.data, item));
        toast(`${noun} saved.`);
      } else {
        const res = await api<{ data: T }>('POST', url, body);
        toast(`${noun} created.`);
        navigate(`${list}/${res.data.id}`);
      }
      await qc.invalidateQueries({ queryKey: [listKey] });
    },
    async remove(item: T) {
      await del(`${url}/${item.id}`);
      await qc.invalidateQueries({ queryKey: [listKey] });
      toast(`${noun} deleted.`);
      navigate(list);
    },
  };
}
