import { useEffect, useId, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { CalendarCheck, ChevronRight, Search, Video } from 'lucide-react';
import clsx from 'clsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { pageConfig } from '#client/lib/page-config.ts';
import { useAssignMentor, useMentors, useStudent, useStudents } from '../api/mentorship.ts';
import { PastDueBanner } from './dashboard.tsx';
import {
  Failed,
  formatDate,
  Loading,
  paymentSummary,
  percentOf,
  ProgressBar,
  relativeTime,
  StatusBadge,
} from './widgets.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';
import { isolateText } from '#shared/display-text';

const SEARCH_DEBOUNCE_MS = 300;

/** /mentorship/students: "My students" / "All students", a search and the list (admins). */
export function StudentList() {
  const [params, setParams] = useSearchParams();
  const mine = params.get('mine') !== '0';
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  const students = useStudents(mine, q, page);

  const update = (next: { mine?: boolean; q?: string; page?: number }) => {
    const p = new URLSearchParams();
    p.set('mine', (next.mine ?? mine) ? '1' : '0');
    const nq = next.q ?? q;
    if (nq) p.set('q', nq);
    const np = next.page ?? 1;
    if (np > 1) p.set('page', String(np));
    setParams(p, { replace: true });
  };

  useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => update({ q: text.trim() }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // only the typed text restarts the timer
  }, [text]);

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div
          role="radiogroup"
          aria-label="Which students"
          className="inline-flex shrink-0 rounded-xl border border-line bg-surface p-1"
        >
          {[
            ['My students', true],
            ['All students', false],
          ].map(([label, value]) => (
            <button
              key={String(value)}
              type="button"
              role="radio"
              aria-checked={mine === value}
              onClick={() => update({ mine: value as boolean })}
              className={clsx(
                'min-h-11 rounded-lg px-4 font-semibold transition-colors duration-150',
                mine === value ? 'bg-accent text-accent-fg' : 'text-muted hover:text-fg',
              )}
            >
              {label}
            </button>
          ))}
        </div>
        <form
          role="search"
          className="relative flex-1"
          onSubmit={(e) => (e.preventDefault(), update({ q: text.trim() }))}
        >
          <label htmlFor="student-search" className="sr-only">
            Search students
          </label>
          <Search
            aria-hidden
            className="pointer-events-none absolute left-4 top-1/2 size-5 -translate-y-1/2 text-muted"
          />
          <input
            id="student-search"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Search by name or email"
            className={clsx(inputClass, 'pl-12')}
          />
        </form>
      </div>
      {students.isPending ? (
        <Loading />
      ) : students.isError ? (
        <Failed what="the students" />
      ) : students.data.students.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line bg-surface p-6 text-muted">
          {q
            ? `No students match “${q}”.`
            : mine
              ? 'You mentor no students yet. Switch to All students to assign yourself.'
              : 'No mentorship students yet.'}
        </p>
      ) : (
        <ul
          className={clsx('flex flex-col gap-3', students.isPlaceholderData && 'opacity-60')}
          data-testid="student-list"
        >
          {students.data.students.map((s) => (
            <li key={s.id}>
              <a
                href={`/mentorship/students/${s.id}`}
                className="flex items-center gap-4 rounded-2xl border border-line bg-surface p-4 transition-colors duration-150 hover:border-accent sm:p-5"
              >
                <Avatar src={s.avatarUrl} name="" size={48} />
                <span className="flex min-w-0 flex-1 flex-col gap-1 md:flex-row md:items-center md:gap-6">
                  <span className="min-w-0 md:w-56">
                    <span className="block truncate text-lg font-bold" title={s.name}>
                      {s.name}
                    </span>
                    <span className="block truncate text-sm text-muted">
                      {s.mentor ? (
                        <>
                          Mentor: <UserText>{s.mentor.name}</UserText>
                        </>
                      ) : (
                        'No mentor yet'
                      )}
                    </span>
                  </span>
                  <span className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted md:flex-1">
                    <StatusBadge status={s.status} />
                    <span className="inline-flex items-center gap-1">
                      <CalendarCheck aria-hidden className="size-4" />
                      <span className="tabular">
                        {s.planProgress.daysComplete}/{s.planProgress.daysTotal}
                      </span>{' '}
                      days
                    </span>
                    <span
                      className={clsx(
                        'inline-flex items-center gap-1',
                        s.videosAwaitingFeedback && 'font-semibold text-accent-strong',
                      )}
                    >
                      <Video aria-hidden className="size-4" />
                      {s.videosAwaitingFeedback} awaiting feedback
                    </span>
                    <span>Active {relativeTime(s.lastActivity).toLowerCase()}</span>
                  </span>
                </span>
                <ChevronRight aria-hidden className="size-5 shrink-0 text-muted" />
              </a>
            </li>
          ))}
        </ul>
      )}
      {students.data && (page > 1 || students.data.more) ? (
        <nav aria-label="Pages" className="flex items-center justify-between gap-3">
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={page <= 1}
            onClick={() => update({ page: page - 1 })}
          >
            Previous
          </button>
          <span className="text-muted tabular">Page {page}</span>
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={!students.data.more}
            onClick={() => update({ page: page + 1 })}
          >
            Next
          </button>
        </nav>
      ) : null}
    </div>
  );
}

/** /mentorship/students/{id}: the student's overview and the mentor assignment (the page adds their links). */
export function StudentOverviewPanel({ id }: { id: number }) {
  const student = useStudent(id);
  if (student.isPending) return <Loading />;
  if (student.isError) return <Failed what="this student" />;
  const d = student.data;
  const pay = paymentSummary(d.payment);
  const week = d.plan.currentWeek;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <Avatar src={d.student.avatarUrl} name="" size={72} />
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold uppercase tracking-widest text-accent">Student</p>
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{d.student.name}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-muted">
            <StatusBadge status={d.status} />
            <span className="break-all">{d.student.email}</span>
            <span>Joined {formatDate(d.student.joinedAt)}</span>
          </p>
        </div>
        <a href={d.student.profileUrl} className={buttonClass('secondary')}>
          Profile
        </a>
      </div>
      {d.pastDue ? <PastDueBanner /> : null}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Fact
          title="Practice plan"
          value={d.plan.daysTotal ? `${d.plan.daysComplete}/${d.plan.daysTotal} days` : 'Not started'}
          detail={week ? `Now: phase ${week.phase}, week ${week.week}` : null}
        >
          <ProgressBar percent={percentOf(d.plan.daysComplete, d.plan.daysTotal)} label="Practice plan progress" />
        </Fact>
        <Fact title="Lessons" value={`${d.lessons.complete}/${d.lessons.total}`} detail="lessons complete">
          <ProgressBar percent={percentOf(d.lessons.complete, d.lessons.total)} label="Lessons progress" />
        </Fact>
        <Fact title="Videos" value={`${d.videos.total}`} detail={`${d.videos.awaitingFeedback} awaiting feedback`} />
        <Fact title="Payment" value={pay.headline} detail={pay.detail} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <section className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-5">
          <h2 className="text-xl font-bold">Mentor</h2>
          <MentorSelect studentId={d.student.id} current={d.mentor?.id ?? null} currentName={d.mentor?.name ?? null} />
          <p className="text-sm text-muted">Last activity: {relativeTime(d.lastActivity).toLowerCase()}</p>
        </section>
        <section className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-5">
          <h2 className="text-xl font-bold">Plan and videos</h2>
          <div className="flex flex-wrap gap-3">
            <a href={`/mentorship/students/${d.student.id}/practice-plan`} className={buttonClass('primary')}>
              <CalendarCheck aria-hidden className="size-5" /> Open practice plan
            </a>
            <a href={`/mentorship/students/${d.student.id}/videos`} className={buttonClass('secondary')}>
              <Video aria-hidden className="size-5" /> Videos
            </a>
          </div>
          {d.recentVideos.length ? (
            <ul className="divide-y divide-line">
              {d.recentVideos.map((v) => (
                <li key={v.id}>
                  <a
                    href={`/mentorship/videos/${v.id}`}
                    className="flex min-h-12 items-center gap-3 py-2 hover:text-accent-strong"
                  >
                    <span className="min-w-0 flex-1 truncate font-semibold" title={v.title}>
                      {v.title}
                    </span>
                    <span className="text-sm text-muted">{formatDate(v.created_at)}</span>
                    <span
                      className={clsx(
                        'rounded-full px-2 py-0.5 text-xs font-semibold',
                        v.hasFeedback ? 'bg-success-soft text-success' : 'bg-accent-soft text-accent-strong',
                      )}
                    >
                      {v.hasFeedback ? 'Answered' : 'Needs feedback'}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted">No videos yet.</p>
          )}
        </section>
      </div>
    </div>
  );
}

function Fact({
  title,
  value,
  detail,
  children,
}: {
  title: string;
  value: string;
  detail?: string | null;
  children?: ReactNode;
}) {
  return (
    <section className="flex flex-col gap-2 rounded-2xl border border-line bg-surface p-5">
      <h2 className="text-sm font-semibold uppercase tracking-widest text-muted">{title}</h2>
      <p className="text-2xl font-extrabold tracking-tight tabular">{value}</p>
      {detail ? <p className="text-sm text-muted">{detail}</p> : null}
      {children}
    </section>
  );
}

/**
 * Assigning the student's mentor: a select of admins (marked mentors first), saved as it changes. A
 * refusal is shown as every form shows it (components/ui/form-feedback.ts): under the select, said,
 * with focus on the select; the select stays focusable while it saves, so focus is not lost.
 */
function MentorSelect({
  studentId,
  current,
  currentName,
}: {
  studentId: number;
  current: number | null;
  currentName: string | null;
}) {
  const id = useId();
  const mentors = useMentors();
  const assign = useAssignMentor(studentId);
  const feedback = useFormFeedback();
  const me = pageConfig().authId;
  const options = mentors.data ?? [];
  const listed = current === null || options.some((m) => m.id === current);
  return (
    <form ref={feedback.formRef} noValidate onSubmit={(e) => e.preventDefault()} className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold">
        Assigned mentor
      </label>
      <div className="flex items-center gap-3">
        <select
          id={id}
          name="mentor_id"
          value={current ?? ''}
          disabled={mentors.isPending}
          aria-busy={assign.isPending || undefined}
          {...invalidProps(feedback.errors.mentor_id, `${id}-err`)}
          onChange={(e) => {
            // one change at a time: the list shows the saved mentor until the answer comes
            if (assign.isPending) return;
            const value = e.target.value ? Number(e.target.value) : null;
            feedback.edited('mentor_id');
            assign.mutate(value, {
              onSuccess: (res) => {
                feedback.clear();
                toast(
                  res.mentor
                    ? `${isolateText(res.mentor.name)} now mentors this student.`
                    : 'The student has no mentor now.',
                  'success',
                );
              },
              onError: (err) => feedback.fail(err),
            });
          }}
          className={clsx(inputClass, 'flex-1')}
        >
          <option value="">No mentor</option>
          {!listed && currentName ? <option value={current!}>{currentName}</option> : null}
          {options.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
              {m.id === me ? ' (you)' : ''}
              {m.isMentor ? '' : ' (admin)'}
            </option>
          ))}
        </select>
        {assign.isPending ? <Spinner label="Saving" /> : null}
      </div>
      <FieldMessage id={`${id}-err`} message={feedback.errors.mentor_id} />
      <FormError message={feedback.summary} inline />
    </form>
  );
}
