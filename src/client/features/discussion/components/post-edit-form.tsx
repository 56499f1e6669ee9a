import { useId, useState, type FormEvent, type ReactNode } from 'react';
import clsx from 'clsx';
import { COMMUNITY, type PostDto } from '#shared/community';
import { Button } from '#client/components/ui/button.tsx';
import { FieldMessage, FormError } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { postCalls } from '../api/posts.ts';

/**
 * Editing a post, in its thread or on its own page: the shared form pattern (components/ui/form-feedback.ts),
 * so the server's message about the text is shown under it, the text is marked and described by it and
 * takes focus, and any other failure is the form's own line with focus back on Save. `cancel` is the
 * way out (a button in the thread, a link on the page); Escape in the text does the same where
 * `onCancel` is given.
 */
export function PostEditForm({
  post,
  label,
  hideLabel = false,
  autoFocus = false,
  onSaved,
  onCancel,
  cancel,
}: {
  post: Pick<PostDto, 'id' | 'body'>;
  label: string;
  hideLabel?: boolean;
  autoFocus?: boolean;
  onSaved: (post: PostDto) => void;
  onCancel?: () => void;
  cancel: ReactNode;
}) {
  const [draft, setDraft] = useState(post.body);
  const [saving, setSaving] = useState(false);
  const feedback = useFormFeedback();
  const id = useId();
  const empty = !draft.trim();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (empty || saving) return;
    setSaving(true);
    feedback.clear();
    try {
      // the form stays busy after a save: it closes, or the page goes back to the thread
      onSaved(await postCalls.update(post.id, draft.trim()));
    } catch (err) {
      setSaving(false);
      feedback.fail(err);
    }
  }

  return (
    <form ref={feedback.formRef} onSubmit={submit} noValidate className="flex flex-col gap-2">
      <label htmlFor={id} className={clsx(hideLabel ? 'sr-only' : 'font-semibold')}>
        {label}
      </label>
      <textarea
        id={id}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          feedback.edited('body');
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && onCancel) onCancel();
        }}
        maxLength={COMMUNITY.postBodyMax}
        autoFocus={autoFocus}
        style={{ height: COMMUNITY.postEditHeightPx }}
        {...invalidProps(feedback.errors.body, `${id}-err`)}
        className="w-full resize-y rounded-xl border border-line bg-surface px-4 py-3 text-base text-fg focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-danger"
      />
      <FieldMessage id={`${id}-err`} message={feedback.errors.body} />
      <div className="flex justify-end gap-2">
        {cancel}
        <Button type="submit" disabled={saving || empty}>
          {saving ? <Spinner label="Saving" className="[&_svg]:text-accent-fg" /> : null}
          Save
        </Button>
      </div>
      <FormError message={feedback.summary} inline />
    </form>
  );
}
