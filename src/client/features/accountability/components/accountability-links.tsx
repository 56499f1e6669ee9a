import { useState, type FormEvent } from 'react';
import { Check, ExternalLink, Link2, Trash2 } from 'lucide-react';
import {
  ACCOUNTABILITY_LIMITS,
  ACCOUNTABILITY_MESSAGES,
  truncateLink,
  type AccountabilityLink,
} from '#shared/mentorship';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Field, FormError, inputClass } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { errorMessage } from '#client/lib/api.ts';
import { useAccountabilityLinks, useAddLink, useDeleteLink, useLabelAutosave } from '../api/accountability.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * One student's accountability links (docs/product/mentorship.md): labels autosave after typing stops, the
 * address shows truncated to 40 characters and opens in a new tab, add (what is wrong shown as every
 * form shows it, components/ui/form-feedback.ts), delete with confirmation. The student's own page and the mentor's student page both use it.
 */
export function AccountabilityLinks({ studentId, mentorView = false }: { studentId: number; mentorView?: boolean }) {
  const links = useAccountabilityLinks(studentId);
  const [savedIds, setSavedIds] = useState<Set<number>>(new Set());
  const autosave = useLabelAutosave(studentId, (ids) => {
    setSavedIds(new Set(ids));
    setTimeout(() => setSavedIds(new Set()), 1500);
  });
  const [confirm, dialog] = useConfirm();
  const remove = useDeleteLink(studentId);

  const onDelete = async (link: AccountabilityLink) => {
    if (!(await confirm(ACCOUNTABILITY_MESSAGES.deleteConfirm, { confirmLabel: 'Delete link', danger: true }))) return;
    remove.mutate(link.id, {
      onSuccess: () => toast('Link deleted.', 'success'),
      onError: (err) => toast(errorMessage(err, []), 'danger'),
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <AddLinkForm studentId={studentId} mentorView={mentorView} />
      <section aria-labelledby={`links-${studentId}`} className="flex flex-col gap-3">
        <h2 id={`links-${studentId}`} className="text-xl font-bold">
          {mentorView ? 'Their links' : 'Your links'}
          {links.data ? (
            <span className="ml-2 text-base font-semibold text-muted tabular">({links.data.length})</span>
          ) : null}
        </h2>
        {links.isPending ? (
          <div className="grid place-items-center py-10">
            <Spinner />
          </div>
        ) : links.isError ? (
          <p className="rounded-2xl border border-line bg-surface p-5 text-muted">
            We could not load the links. Please refresh the page.
          </p>
        ) : links.data.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-line bg-surface p-6 text-muted">
            {mentorView
              ? 'No links yet. Add one above and the student will see it.'
              : 'No links yet. Add your first practice video or recording above.'}
          </p>
        ) : (
          <ul className="flex flex-col gap-3" data-testid="accountability-links">
            {links.data.map((link) => (
              <LinkRow
                key={link.id}
                link={link}
                saved={savedIds.has(link.id)}
                onLabel={(label) => autosave.change(link.id, label)}
                onDelete={() => void onDelete(link)}
              />
            ))}
          </ul>
        )}
      </section>
      {dialog}
    </div>
  );
}

function LinkRow({
  link,
  saved,
  onLabel,
  onDelete,
}: {
  link: AccountabilityLink;
  saved: boolean;
  onLabel: (label: string) => void;
  onDelete: () => void;
}) {
  // the input owns what is typed; saves never overwrite it
  const [label, setLabel] = useState(link.label);
  const inputId = `link-label-${link.id}`;
  return (
    <li
      className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 sm:flex-row sm:items-center sm:gap-4 sm:p-5"
      data-testid="accountability-link"
    >
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <label htmlFor={inputId} className="sr-only">
          Label for {link.url}
        </label>
        <div className="relative">
          <input
            id={inputId}
            value={label}
            maxLength={ACCOUNTABILITY_LIMITS.label}
            placeholder="Add a label, e.g. Week 3: paradiddles at 90 bpm"
            onChange={(e) => {
              setLabel(e.target.value);
              onLabel(e.target.value);
            }}
            className={`${inputClass} pr-20 font-semibold placeholder:font-normal`}
          />
          <span
            aria-live="polite"
            className="pointer-events-none absolute inset-y-0 right-3 flex items-center gap-1 text-sm font-semibold text-success"
          >
            {saved ? (
              <>
                <Check aria-hidden className="size-4" /> Saved
              </>
            ) : null}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <a
            href={link.url}
            target="_blank"
            rel="noopener noreferrer"
            title={link.url}
            className="inline-flex min-h-11 min-w-0 items-center gap-1.5 break-all font-medium text-accent-strong hover:underline"
            data-testid="link-text"
          >
            <Link2 aria-hidden className="size-4 shrink-0" />
            {truncateLink(link.url)}
            <ExternalLink aria-hidden className="size-3.5 shrink-0" />
          </a>
          <span className="text-muted">Added {dateFormat.format(new Date(link.created_at))}</span>
        </div>
      </div>
      <Button
        variant="ghost"
        onClick={onDelete}
        aria-label={`Delete link ${link.label || truncateLink(link.url)}`}
        className="self-end text-danger sm:self-center"
      >
        <Trash2 aria-hidden className="size-5" /> <span className="sm:sr-only">Delete</span>
      </Button>
    </li>
  );
}

function AddLinkForm({ studentId, mentorView }: { studentId: number; mentorView: boolean }) {
  const add = useAddLink(studentId);
  const [url, setUrl] = useState('');
  const [label, setLabel] = useState('');
  const feedback = useFormFeedback();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (add.isPending) return;
    if (!url.trim()) return feedback.show({ url: ACCOUNTABILITY_MESSAGES.urlRequired }, null);
    feedback.clear();
    add.mutate(
      { url: url.trim(), label: label.trim() },
      {
        onSuccess: () => {
          setUrl('');
          setLabel('');
          toast('Link added.', 'success');
        },
        onError: (err) => feedback.fail(err),
      },
    );
  };

  return (
    <form
      ref={feedback.formRef}
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 sm:p-6"
      aria-label="Add a link"
    >
      <h2 className="text-xl font-bold">Add a link</h2>
      <p className="-mt-2 text-muted">
        {mentorView
          ? 'Share a video or page with this student.'
          : 'Post a video of your practice, a recording or anything your mentor should see.'}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <Field
          label="Link"
          type="url"
          inputMode="url"
          placeholder="https://"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            feedback.edited('url');
          }}
          error={feedback.error('url')}
          maxLength={ACCOUNTABILITY_LIMITS.url}
          autoComplete="off"
        />
        <Field
          label="Label"
          value={label}
          onChange={(e) => {
            setLabel(e.target.value);
            feedback.edited('label');
          }}
          error={feedback.error('label')}
          maxLength={ACCOUNTABILITY_LIMITS.label}
          placeholder="Optional"
        />
      </div>
      <div>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? <Spinner label="Adding" className="[&_svg]:text-accent-fg" /> : null}
          Add link
        </Button>
      </div>
      <FormError message={feedback.summary} />
    </form>
  );
}
