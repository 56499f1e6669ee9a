import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Link } from '#client/components/ui/link.tsx';
import { format } from 'date-fns';
import { VIDEO_LIMITS } from '#shared/upload';
import { errorMessage } from '#client/lib/api.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FormError, inputClass } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { useDeleteVideo, useGiveFeedback, useVideo } from '../api/videos.ts';
import { StatusBadge } from './video-list.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

const when = (iso: string) => format(new Date(iso), "d MMM yyyy 'at' HH:mm");

function FeedbackForm({ id, current }: { id: number; current: string | null }) {
  const [text, setText] = useState(current ?? '');
  const give = useGiveFeedback(id);
  useEffect(() => setText(current ?? ''), [current]);
  const send = (e: FormEvent) => {
    e.preventDefault();
    give.mutate(text, { onSuccess: () => toast('Feedback sent to the student.', 'success') });
  };
  return (
    <form onSubmit={send} className="flex flex-col gap-3" aria-label="Feedback">
      <label htmlFor="video-feedback" className="text-sm font-semibold">
        {current ? 'Update your feedback' : 'Your feedback'}
      </label>
      <textarea
        id="video-feedback"
        className={`${inputClass} min-h-32 py-3`}
        value={text}
        maxLength={VIDEO_LIMITS.feedback}
        onChange={(e) => setText(e.target.value)}
        placeholder="What went well, what to work on next…"
      />
      <FormError message={give.isError ? errorMessage(give.error, ['feedback']) : null} />
      <div>
        <Button type="submit" disabled={!text.trim() || give.isPending}>
          {give.isPending ? 'Sending…' : current ? 'Update feedback' : 'Send feedback'}
        </Button>
      </div>
    </form>
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
        <track kind="captions" />
      </video>
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
