import { useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Flag, X } from 'lucide-react';
import clsx from 'clsx';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { api, errorMessage } from '#client/lib/api.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FormError, TextAreaField } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { toast } from '#client/components/ui/toast.tsx';

export type ReportKind = 'post' | 'chat' | 'wall';

const WHAT: Record<ReportKind, string> = { post: 'post', chat: 'chat message', wall: 'comment' };

/**
 * "Report" on a post, a chat message or a wall comment: a small dialog asks why (required) and sends
 * POST /api/reports {kind, id, reason}; the report lands in the admin queue (/admin/reports).
 * Reporting the same thing twice is harmless (the server answers the existing report). A missing
 * reason is shown as every form shows it (components/ui/form-feedback.ts).
 */
export function ReportButton({ kind, id, className }: { kind: ReportKind; id: number; className?: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const feedback = useFormFeedback();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const text = reason.trim();
    if (!text) {
      feedback.show({ reason: COMMUNITY_MESSAGES.reportReasonRequired }, null);
      return;
    }
    setBusy(true);
    feedback.clear();
    try {
      await api('POST', '/api/reports', { kind, id, reason: text });
      setOpen(false);
      setReason('');
      toast(COMMUNITY_MESSAGES.reportThanks);
    } catch (err) {
      // what the server says about the reported thing itself is the form's own message
      feedback.fail(err, errorMessage(err, ['id', 'kind']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) feedback.clear();
      }}
    >
      <Dialog.Trigger asChild>
        <button
          type="button"
          aria-label={`Report this ${WHAT[kind]}`}
          data-testid={`report-${kind}-${id}`}
          className={clsx(
            'inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-lg px-2 text-sm text-muted hover:bg-surface-2 hover:text-fg',
            className,
          )}
        >
          <Flag aria-hidden className="size-4" />
          <span>Report</span>
        </button>
      </Dialog.Trigger>
      {open ? (
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-[900] bg-black/55 backdrop-blur-[2px]" />
          <Dialog.Content className="fixed left-1/2 top-1/2 z-[901] max-h-[92vh] w-[calc(100vw-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-line bg-surface p-6 text-fg shadow-2xl sm:p-8">
            <div className="mb-4 flex items-start justify-between gap-4">
              <div>
                <Dialog.Title className="text-2xl font-bold tracking-tight">Report this {WHAT[kind]}</Dialog.Title>
                <Dialog.Description className="mt-1 text-muted">
                  Tell an admin what is wrong with it.
                </Dialog.Description>
              </div>
              <Dialog.Close
                aria-label="Close"
                className="-mr-2 -mt-2 grid size-11 shrink-0 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
              >
                <X aria-hidden className="size-5" />
              </Dialog.Close>
            </div>
            <form ref={feedback.formRef} onSubmit={submit} noValidate className="flex flex-col gap-3">
              <TextAreaField
                label="Reason"
                name="reason"
                required
                maxLength={COMMUNITY.reportReasonMax}
                error={feedback.error('reason')}
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  feedback.edited('reason');
                }}
              />
              <div className="mt-2 flex flex-wrap justify-end gap-3">
                <Dialog.Close asChild>
                  <Button variant="secondary">Cancel</Button>
                </Dialog.Close>
                <Button type="submit" disabled={busy}>
                  Send report
                </Button>
              </div>
              <FormError message={feedback.summary} inline />
            </form>
          </Dialog.Content>
        </Dialog.Portal>
      ) : null}
    </Dialog.Root>
  );
}
