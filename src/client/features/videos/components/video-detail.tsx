import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Link } from '#client/components/ui/link.tsx';
import { format } from 'date-fns';
import { CAPTION_MESSAGES, captionLabel, VIDEO_CAPTIONS, VIDEO_LIMITS, type VideoSubmission } from '#shared/upload';
import { errorMessage } from '#client/lib/api.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FieldMessage, FormError, inputClass, TextAreaField } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { useAttachCaptions, useDeleteVideo, useGiveFeedback, useRemoveCaptions, useVideo } from '../api/videos.ts';
import { StatusBadge } from './video-list.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

const when = (iso: string) => format(new Date(iso), "d MMM yyyy 'at' HH:mm");

/** The mentor's feedback; what the server refuses is shown as every form shows it (components/ui/form-feedback.ts). */
function FeedbackForm({ id, current }: { id: number; current: string | null }) {
  const [text, setText] = useState(current ?? '');
  const give = useGiveFeedback(id);
  const feedback = useFormFeedback();
  useEffect(() => setText(current ?? ''), [current]);
  const send = (e: FormEvent) => {
    e.preventDefault();
    feedback.clear();
    give.mutate(text, {
      onSuccess: () => toast('Feedback sent to the student.', 'success'),
      onError: (err) => feedback.fail(err),
    });
  };
  return (
    <form ref={feedback.formRef} onSubmit={send} className="flex flex-col gap-3" aria-label="Feedback">
      <TextAreaField
        label={current ? 'Update your feedback' : 'Your feedback'}
        name="feedback"
        rows={5}
        value={text}
        maxLength={VIDEO_LIMITS.feedback}
        error={feedback.error('feedback')}
        onChange={(e) => {
          setText(e.target.value);
          feedback.edited('feedback');
        }}
        placeholder="What went well, what to work on next…"
      />
      <div>
        <Button type="submit" disabled={!text.trim() || give.isPending}>
          {give.isPending ? 'Sending…' : current ? 'Update feedback' : 'Send feedback'}
        </Button>
      </div>
      <FormError message={feedback.summary} />
    </form>
  );
}

/**
 * Admins: attach a WebVTT caption file to the video (or replace or remove it). The player shows it as
 * its default captions track. The server judges the file; its sentence shows under the file field, as
 * every form shows what is wrong (components/ui/form-feedback.ts).
 */
function CaptionsForm({ video }: { video: VideoSubmission }) {
  const id = useId();
  const attach = useAttachCaptions(video.id);
  const remove = useRemoveCaptions(video.id);
  const fileRef = useRef<HTMLInputElement>(null);
  const feedback = useFormFeedback();
  const error = feedback.error(VIDEO_CAPTIONS.field);
  const langError = feedback.error(VIDEO_CAPTIONS.langField);
  const send = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const file = form.get(VIDEO_CAPTIONS.field);
    if (!(file instanceof File) || file.size === 0) {
      feedback.show({ [VIDEO_CAPTIONS.field]: CAPTION_MESSAGES.required }, null);
      return;
    }
    feedback.clear();
    attach.mutate(form, {
      onSuccess: () => {
        if (fileRef.current) fileRef.current.value = '';
        toast(CAPTION_MESSAGES.attached, 'success');
      },
      onError: (err) => feedback.fail(err),
    });
  };
  const onRemove = () =>
    remove.mutate(undefined, {
      onSuccess: () => toast(CAPTION_MESSAGES.removed, 'success'),
      onError: (err) => toast(errorMessage(err, []), 'danger'),
    });
  return (
    <section className="rounded-2xl border border-line bg-surface p-5" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-xl font-bold">
        Captions
      </h2>
      <p className="mt-2 text-muted">
        {video.captions
          ? `This video has ${video.captions.label} captions. A new file replaces them.`
          : 'No captions yet. Attach a WebVTT file (.vtt) and the player shows it as its captions.'}
      </p>
      <form
        ref={feedback.formRef}
        onSubmit={send}
        className="mt-4 flex flex-col gap-4"
        aria-label="Captions"
        noValidate
      >
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <div className="flex min-w-0 flex-col gap-1.5">
            <label htmlFor={`${id}-file`} className="text-sm font-semibold">
              Caption file (.vtt, up to 500 KB)
            </label>
            <input
              ref={fileRef}
              id={`${id}-file`}
              name={VIDEO_CAPTIONS.field}
              type="file"
              accept=".vtt,text/vtt"
              {...invalidProps(error, `${id}-err`)}
              onChange={() => feedback.edited(VIDEO_CAPTIONS.field)}
              className={`${inputClass} py-2.5 file:mr-3 file:rounded-lg file:border-0 file:bg-surface-2 file:px-3 file:py-1.5 file:font-semibold file:text-fg`}
            />
            <FieldMessage id={`${id}-err`} message={error} />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-lang`} className="text-sm font-semibold">
              Language
            </label>
            <select
              id={`${id}-lang`}
              name={VIDEO_CAPTIONS.langField}
              defaultValue={video.captions?.lang ?? VIDEO_CAPTIONS.defaultLang}
              className={inputClass}
              {...invalidProps(langError, `${id}-lang-err`)}
              onChange={() => feedback.edited(VIDEO_CAPTIONS.langField)}
            >
              {VIDEO_CAPTIONS.languages.map((lang) => (
                <option key={lang} value={lang}>
                  {captionLabel(lang)}
                </option>
              ))}
            </select>
            <FieldMessage id={`${id}-lang-err`} message={langError} />
          </div>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={attach.isPending}>
            {attach.isPending ? 'Attaching…' : video.captions ? 'Replace captions' : 'Attach captions'}
          </Button>
          {video.captions ? (
            <Button type="button" variant="secondary" onClick={onRemove} disabled={remove.isPending}>
              Remove captions
            </Button>
          ) : null}
        </div>
        <FormError message={feedback.summary} inline />
      </form>
    </section>
  );
}

/** One practice video: the player, title, note, date and the mentor's feedback (admins write it). */
export function VideoDetail({ id, admin, backTo }: { id: number; admin: boolean; backTo: string }) {
  const video = useVideo(id);
  const remove = useDeleteVideo(id);
  const navigate = useNavigate();
  const [confirm, dialog] = useConfirm();
  if (video.isPending) return <Spinner label="Loading video" />;
  if (video.isError)
    return (
      <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">
        {errorMessage(video.error, [])}
      </p>
    );
  const v = video.data;
  const onDelete = async () => {
    if (
      !(await confirm('Delete this video? Your mentor will no longer see it.', {
        confirmLabel: 'Delete',
        danger: true,
      }))
    )
      return;
    remove.mutate(undefined, {
      onSuccess: () => {
        toast('Video deleted.', 'success');
        void navigate(backTo);
      },
      onError: (err) => toast(errorMessage(err, []), 'danger'),
    });
  };
  return (
    <article className="flex flex-col gap-6">
      <div>
        <Link to={backTo} className="text-sm font-semibold text-accent hover:underline">
          ← Back to videos
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{v.title}</h1>
          <StatusBadge video={v} />
        </div>
        <p className="mt-1 text-muted">
          {admin ? (
            <Link to={`/mentorship/students/${v.student.id}/videos`} className="font-semibold text-fg hover:underline">
              <UserText>{v.student.name}</UserText>
            </Link>
          ) : null}
          {admin ? ' · ' : null}
          Sent <time dateTime={v.created_at}>{when(v.created_at)}</time>
        </p>
      </div>
      <video
        controls
        preload="metadata"
        playsInline
        src={v.file_url}
        className="aspect-video w-full rounded-2xl bg-black"
        aria-label={`Video: ${v.title}`}
      >
        {v.captions ? (
          <track kind="captions" src={v.captions.url} srcLang={v.captions.lang} label={v.captions.label} default />
        ) : null}
      </video>
      {admin ? <CaptionsForm key={v.captions?.url ?? 'none'} video={v} /> : null}
      {v.note ? (
        <section className="rounded-2xl border border-line bg-surface p-5">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-muted">Note</h2>
          <p className="mt-2 whitespace-pre-wrap wrap-anywhere">{v.note}</p>
        </section>
      ) : null}
      <section
        className="rounded-2xl border border-line bg-surface p-5"
        aria-labelledby="feedback-title"
        data-testid="video-feedback"
      >
        <h2 id="feedback-title" className="text-xl font-bold">
          Mentor feedback
        </h2>
        {v.feedback ? (
          <>
            <p className="mt-3 whitespace-pre-wrap wrap-anywhere text-lg">{v.feedback}</p>
            <p className="mt-2 text-sm text-muted">
              {v.feedback_by ? (
                <>
                  <UserText>{v.feedback_by.name}</UserText>,{' '}
                </>
              ) : null}
              {v.feedback_at ? <time dateTime={v.feedback_at}>{when(v.feedback_at)}</time> : null}
            </p>
          </>
        ) : (
          <p className="mt-3 text-muted">
            {admin ? 'No feedback yet.' : 'Your mentor has not answered yet. You will get a notification when they do.'}
          </p>
        )}
        {admin ? (
          <div className="mt-5 border-t border-line pt-5">
            <FeedbackForm id={v.id} current={v.feedback} />
          </div>
        ) : null}
      </section>
      {!admin && !v.feedback ? (
        <div>
          <Button variant="danger" onClick={() => void onDelete()} disabled={remove.isPending}>
            Delete video
          </Button>
        </div>
      ) : null}
      {dialog}
    </article>
  );
}
