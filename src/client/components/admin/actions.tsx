import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { errorMessage } from '#client/lib/api.ts';
import { Button } from '#client/components/ui/button.tsx';
import type { useConfirm } from '#client/components/ui/confirm.tsx';
import { toast } from '#client/components/ui/toast.tsx';

/**
 * A one-click admin action (hide, revoke, move, delete...): on success a toast says what was done
 * and the lists it changed are fetched again; on failure a red toast gives the reason (the first
 * message of `errorFields` in a 422, else the answer's message).
 */
export function useAdminAction<V = void, R = unknown>({
  mutationFn,
  done,
  invalidate,
  errorFields = [],
}: {
  mutationFn: (vars: V) => Promise<R>;
  /** the toast after success; none when absent */
  done?: string | ((vars: V, result: R) => string);
  /** the query keys to fetch again after success */
  invalidate: QueryKey[];
  errorFields?: string[];
}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (result, vars) => {
      if (done !== undefined) toast(typeof done === 'string' ? done : done(vars, result));
      for (const queryKey of invalidate) void qc.invalidateQueries({ queryKey });
    },
    onError: (err) => toast(errorMessage(err, errorFields), 'danger'),
  });
}

/**
 * A row's red Delete button: asks `question` in the page's confirm dialog (from useConfirm; the page
 * renders its `dialog`), then calls `onConfirm` when the admin agrees.
 */
export function DeleteButton({
  label,
  question,
  confirmLabel = 'Delete',
  confirm,
  disabled,
  onConfirm,
}: {
  /** what a screen reader says, e.g. "Delete Grooves" */
  label: string;
  question: string;
  confirmLabel?: string;
  confirm: ReturnType<typeof useConfirm>[0];
  disabled: boolean;
  onConfirm: () => void;
}) {
  return (
    <Button
      variant="ghost"
      className="text-danger"
      aria-label={label}
      disabled={disabled}
      onClick={() => void confirm(question, { confirmLabel, danger: true }).then((ok) => ok && onConfirm())}
    >
      <Trash2 aria-hidden className="size-4" /> Delete
    </Button>
  );
}
