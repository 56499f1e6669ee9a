import { JOIN_URL } from '#shared/commerce';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CalendarClock, Lock, Radio, Video } from 'lucide-react';
import clsx from 'clsx';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { LIVE, LIVE_MESSAGES, LIVE_STATUS_LABELS, type LiveShowDto, type LiveStatus } from '#shared/live';
import { ApiError, errorMessage } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Field, FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { useScheduleShow, useShows } from '../api/live.ts';
import { formatWhen } from '#client/lib/dates.ts';
import { isolateText } from '#shared/display-text';

export const whenOf = (iso: string) =>
  formatWhen(iso, undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

export function StatusBadge({ status }: { status: LiveStatus }) {
  return (
    <span
      data-testid="show-status"
      className={clsx(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-bold',
        status === 'live' && 'bg-danger text-white',
        status === 'scheduled' && 'bg-accent-soft text-accent-strong',
        status === 'ended' && 'bg-surface-2 text-muted',
      )}
    >
      {status === 'live' ? (
        <span aria-hidden className="size-2 rounded-full bg-white motion-safe:animate-pulse" />
      ) : null}
      {LIVE_STATUS_LABELS[status]}
    </span>
  );
}

/** A free member sees why, and where to become a member. */
/** What a signed-in free member sees instead of the shows; `heading` names the page when nothing else does. */
export function MembersOnly({ heading }: { heading?: string }) {
  return (
    <>
      {heading ? <h1 className="mb-6 text-3xl font-extrabold tracking-tight sm:mb-8 sm:text-4xl">{heading}</h1> : null}
      <div className="flex flex-col items-start gap-3 rounded-2xl border border-accent/40 bg-accent-soft p-6">
        <Lock aria-hidden className="size-6 text-accent-strong" />
        <p className="text-lg font-semibold">{COMMUNITY_MESSAGES.communityMembersOnly}</p>
        <a href={JOIN_URL} className={buttonClass('primary')}>
          Become a member
        </a>
      </div>
    </>
  );
}

export const isMembersOnly = (err: unknown) => err instanceof ApiError && err.status === 403;

function ShowCard({ show }: { show: LiveShowDto }) {
  return (
    <li className="min-w-0">
      <a
        href={`/live/${show.id}`}
        className="flex h-full flex-col gap-2 rounded-2xl border border-line bg-surface p-5 no-underline transition-colors hover:border-accent focus-visible:border-accent"
      >
        <div className="flex items-center justify-between gap-3">
          <StatusBadge status={show.status} />
          {show.status === 'live' ? (
            <Radio aria-hidden className="size-5 text-danger" />
          ) : show.videoUrl ? (
            <Video aria-hidden className="size-5 text-muted" />
          ) : null}
        </div>
        <h3 className="text-xl font-bold text-fg wrap-anywhere">{show.title}</h3>
        <p className="flex items-center gap-2 text-muted">
          <CalendarClock aria-hidden className="size-4 shrink-0" />
          <time dateTime={show.startsAt}>{whenOf(show.startsAt)}</time>
        </p>
        {show.description ? <p className="line-clamp-3 text-fg/90 wrap-anywhere">{show.description}</p> : null}
      </a>
    </li>
  );
}

function Section({ title, shows }: { title: string; shows: LiveShowDto[] }) {
  if (!shows.length) return null;
  return (
    <section aria-label={title} className="flex flex-col gap-3">
      <h2 className="text-xl font-bold">{title}</h2>
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {shows.map((s) => (
          <ShowCard key={s.id} show={s} />
        ))}
      </ul>
    </section>
  );
}

/** /live: shows live now, upcoming and past; admins schedule new ones. */
export function ShowList() {
  const shows = useShows();
  if (shows.isPending) return <Spinner />;
  if (shows.isError)
    return isMembersOnly(shows.error) ? <MembersOnly /> : <FormError message={errorMessage(shows.error, [])} />;
  const { live, upcoming, past } = shows.data;
  return (
    <div className="flex flex-col gap-8">
      {pageConfig().admin ? <ScheduleForm /> : null}
      {!live.length && !upcoming.length && !past.length ? (
        <p className="text-lg text-muted">{LIVE_MESSAGES.noShows}</p>
      ) : null}
      <Section title="Live now" shows={live} />
      <Section title="Upcoming" shows={upcoming} />
      <Section title="Past shows" shows={past} />
    </div>
  );
}

/**
 * Admins: title, description, start (the admin's local time), video embed address. The server's
 * messages are shown as every form shows them (components/ui/form-feedback.ts); once the show is
 * scheduled, or the form is closed, focus goes back to the button that opened it.
 */
function ScheduleForm() {
  const schedule = useScheduleShow();
  const [open, setOpen] = useState(false);
  const feedback = useFormFeedback();
  const id = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (!open && wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const local = String(data.get('starts_at') ?? '');
    const startsAt = local && !Number.isNaN(Date.parse(local)) ? new Date(local).toISOString() : local;
    feedback.clear();
    try {
      const show = await schedule.mutateAsync({
        title: String(data.get('title') ?? ''),
        description: String(data.get('description') ?? ''),
        starts_at: startsAt,
        video_url: String(data.get('video_url') ?? ''),
      });
      form.reset();
      setOpen(false);
      toast(`"${isolateText(show.title)}" is scheduled.`);
    } catch (err) {
      feedback.fail(err, undefined, form);
    }
  };

  if (!open)
    return (
      <div>
        <Button ref={opener} onClick={() => setOpen(true)}>
          <CalendarClock aria-hidden className="size-5" /> Schedule a show
        </Button>
      </div>
    );
  return (
    <form
      ref={feedback.formRef}
      onSubmit={submit}
      noValidate
      aria-label="Schedule a show"
      className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-5 sm:p-6"
    >
      <h2 className="text-xl font-bold">Schedule a show</h2>
      <Field
        label="Title"
        name="title"
        required
        maxLength={LIVE.titleMax}
        error={feedback.error('title')}
        onChange={() => feedback.edited('title')}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-description`} className="text-sm font-semibold">
          Description
        </label>
        <textarea
          id={`${id}-description`}
          name="description"
          maxLength={LIVE.descriptionMax}
          className={`${inputClass} min-h-24 py-3`}
          {...invalidProps(feedback.error('description'), `${id}-description-err`)}
          onChange={() => feedback.edited('description')}
        />
        <FieldMessage id={`${id}-description-err`} message={feedback.error('description')} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Starts at"
          name="starts_at"
          type="datetime-local"
          required
          error={feedback.error('starts_at')}
          onChange={() => feedback.edited('starts_at')}
        />
        <Field
          label="Video address"
          name="video_url"
          type="url"
          placeholder="https://www.youtube.com/watch?v=..."
          hint="A YouTube or Vimeo link (optional)."
          error={feedback.error('video_url')}
          onChange={() => feedback.edited('video_url')}
        />
      </div>
      <FormError message={feedback.summary} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={schedule.isPending}>
          Schedule
        </Button>
        <Button variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
