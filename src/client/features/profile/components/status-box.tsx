import { useEffect, useRef, useState, type FormEvent } from 'react';
import { format } from 'date-fns';
import { Pencil } from 'lucide-react';
import { pageConfig } from '#client/lib/page-config.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FormError, TextAreaField } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { useSaveStatus, type Profile } from '../api/profile.ts';

/**
 * Status and when it was updated; only the owner gets the edit form (the server allows no other).
 * Opening the form puts focus in its text; saving or cancelling gives it back to "Edit status".
 */
export function StatusBox({ profile }: { profile: Profile }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(profile.status ?? '');
  const save = useSaveStatus(profile.slug);
  const feedback = useFormFeedback();
  const editButton = useRef<HTMLButtonElement>(null);
  const text = useRef<HTMLTextAreaElement>(null);
  // null until the member first opens the form: the page's first render moves no focus
  const [wasEditing, setWasEditing] = useState<boolean | null>(null);
  useEffect(() => {
    if (wasEditing === editing) return;
    if (wasEditing !== null || editing) (editing ? text.current : editButton.current)?.focus();
    setWasEditing(editing);
  }, [editing, wasEditing]);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (save.isPending) return;
    feedback.clear();
    try {
      await save.mutateAsync(e.currentTarget);
      setEditing(false);
    } catch (err) {
      feedback.fail(err);
    }
  }
  return (
    <section aria-labelledby="status" className="rounded-2xl border border-line bg-surface p-5">
      <div className="flex items-center justify-between gap-3">
        <h2 id="status" className="text-lg font-bold">
          Status
        </h2>
        {profile.is_owner && !editing ? (
          <button
            ref={editButton}
            type="button"
            onClick={() => setEditing(true)}
            className="inline-flex min-h-11 items-center gap-2 rounded-lg px-3 font-semibold text-accent-strong hover:bg-surface-2"
          >
            <Pencil aria-hidden className="size-4" /> Edit status
          </button>
        ) : null}
      </div>
      {editing ? (
        <form ref={feedback.formRef} onSubmit={(e) => void submit(e)} className="mt-3 flex flex-col gap-3" noValidate>
          <input type="hidden" name="_token" value={pageConfig().csrfToken} />
          <TextAreaField
            ref={text}
            label="Your status"
            name="status"
            maxLength={280}
            className="[&>label]:sr-only"
            value={draft}
            error={feedback.error('status')}
            onChange={(e) => {
              setDraft(e.target.value);
              feedback.edited('status');
            }}
          />
          <FormError message={feedback.summary} inline />
          <div className="flex gap-2">
            <Button type="submit" disabled={save.isPending}>
              Save status
            </Button>
            <Button variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : profile.status ? (
        <>
          <p className="mt-2 whitespace-pre-wrap text-lg">{profile.status}</p>
          {profile.status_updated_at ? (
            <p className="mt-1 text-sm text-muted">Updated {format(new Date(profile.status_updated_at), 'PP')}</p>
          ) : null}
        </>
      ) : (
        <p className="mt-2 text-muted">
          {profile.is_owner ? 'Tell other drummers what you are working on.' : 'No status yet.'}
        </p>
      )}
    </section>
  );
}
