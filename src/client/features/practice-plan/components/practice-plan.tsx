import { useEffect, useMemo, useState } from 'react';
import { Check, CalendarPlus, Loader2, Plus, Trash2, TriangleAlert, X } from 'lucide-react';
import clsx from 'clsx';
import {
  EMPTY_WEEK_MESSAGE,
  PRACTICE_PLAN_LIMITS,
  PRACTICE_PLAN_PHASES,
  type PracticePlan,
  type PracticePlanAnswer,
  type PracticePlanPhase,
  type PracticeWeek,
} from '#shared/mentorship';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { useFormFeedback, type FieldMessages } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ApiError } from '#client/lib/api.ts';
import { usePlan } from '../api.ts';
import {
  edit,
  firstIncompleteWeek,
  phaseHasContent,
  tempoSeries,
  weekExerciseCount,
  type DayAt,
} from '../plan-edit.ts';
import { usePlanEditor, type SaveState } from '../use-plan-editor.ts';
import { DayBlock } from './day-block.tsx';
import { SavedDayPicker } from './saved-day-picker.tsx';
import { TempoChart } from './tempo-chart.tsx';
import { isolateText } from '#shared/display-text';

const phaseName = (phase: PracticePlanPhase) => `Phase ${PRACTICE_PLAN_PHASES.indexOf(phase) + 1}`;

/**
 * The practice plan (docs/product/mentorship.md): `studentId` null is the signed-in student's own plan; a
 * mentor (admin) passes the student's id and may edit everything.
 */
export function PracticePlanView({ studentId, admin }: { studentId: number | null; admin: boolean }) {
  const plan = usePlan(studentId);
  if (plan.isPending) return <Spinner label="Loading the practice plan" className="w-full py-16" />;
  if (plan.isError) {
    return (
      <div role="alert" className="rounded-2xl border border-line bg-surface p-6">
        <h2 className="text-xl font-bold">The practice plan did not load</h2>
        <p className="mt-2 text-muted">
          {plan.error instanceof ApiError ? plan.error.message : 'Please check your connection and reload the page.'}
        </p>
      </div>
    );
  }
  return <PlanEditor key={plan.data.id} initial={plan.data} admin={admin} studentId={studentId} />;
}

function SaveIndicator({ status }: { status: SaveState }) {
  return (
    <p
      role="status"
      aria-live="polite"
      data-testid="plan-save-status"
      className={clsx(
        'flex min-h-6 items-center gap-1.5 text-sm font-semibold',
        status === 'saved' ? 'text-success' : 'text-muted',
      )}
    >
      {status === 'saving' ? (
        <>
          <Loader2 aria-hidden className="size-4 animate-spin motion-reduce:animate-none" /> Saving...
        </>
      ) : status === 'saved' ? (
        <>
          <Check aria-hidden className="size-4" /> Saved
        </>
      ) : null}
    </p>
  );
}

function Empty() {
  return (
    <p className="rounded-xl border border-dashed border-line bg-surface-2 px-4 py-6 text-center text-lg text-muted">
      {EMPTY_WEEK_MESSAGE}
    </p>
  );
}

const same = (a: FieldMessages, b: FieldMessages) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

function PlanEditor({
  initial,
  admin,
  studentId,
}: {
  initial: PracticePlanAnswer;
  admin: boolean;
  studentId: number | null;
}) {
  const { plan, status, notice, refusal, change, update, dismissNotice } = usePlanEditor(
    initial,
    admin ? 'admin' : 'student',
    studentId,
  );
  // A field the server refused is marked and described as every form's are (components/ui/form-feedback.ts) and
  // the summary is said politely; the plan saves as it is typed and has no Save button, so focus never moves.
  const feedback = useFormFeedback();
  const { show, clear, errors: marked, summary } = feedback;
  useEffect(() => {
    if (!refusal) {
      clear();
      return;
    }
    // the same refusal again (an edit elsewhere) is not said again
    if (summary && same(refusal.fields, marked)) return;
    show(refusal.fields, refusal.message, undefined, { focus: false });
    // only a new answer of the autosave is read here, not each edit's clearing of a mark
  }, [refusal]);
  const [confirm, confirmDialog] = useConfirm();
  const [pickFor, setPickFor] = useState<{ phase: PracticePlanPhase; week: number } | null>(null);

  const visiblePhases = admin
    ? [...PRACTICE_PLAN_PHASES]
    : PRACTICE_PLAN_PHASES.filter((p) => phaseHasContent(plan, p));
  const latestOnly = !admin && !!plan.onlyShowLatest;
  const current = firstIncompleteWeek(plan);
  const [chosen, setChosen] = useState<PracticePlanPhase | null>(null);
  const activePhase: PracticePlanPhase | undefined =
    chosen && visiblePhases.includes(chosen)
      ? chosen
      : current && visiblePhases.includes(current.phase)
        ? current.phase
        : visiblePhases[0];
  const series = useMemo(() => tempoSeries(plan), [plan]);

  const removeWeek = async (phase: PracticePlanPhase, week: number) => {
    if (
      await confirm(`Remove Week ${week + 1} of ${phaseName(phase)} and everything in it?`, {
        confirmLabel: 'Remove week',
        danger: true,
      })
    )
      update((p) => edit.removeWeek(p, phase, week));
  };
  const removeDay = async (at: DayAt, title: string) => {
    if (
      await confirm(`Remove ${title ? isolateText(title) : 'this day'} (Week ${at.week + 1}) and its exercises?`, {
        confirmLabel: 'Remove day',
        danger: true,
      })
    )
      update((p) => edit.removeDay(p, at));
  };

  const renderWeek = (phase: PracticePlanPhase, week: PracticeWeek, wi: number) => {
    const label = `Week ${wi + 1}`;
    const empty = weekExerciseCount(week) === 0;
    return (
      <section
        key={`${phase}-${wi}`}
        aria-labelledby={`${phase}-w${wi}`}
        data-testid="practice-week"
        className="rounded-2xl border border-line bg-surface p-3 sm:p-5"
      >
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id={`${phase}-w${wi}`} className="text-xl font-extrabold tracking-tight">
            {label}
          </h2>
          {admin ? (
            <div className="flex flex-wrap items-center gap-1">
              <Button
                variant="ghost"
                className="px-3"
                disabled={week.length >= PRACTICE_PLAN_LIMITS.daysPerWeek}
                onClick={() => update((p) => edit.addDay(p, phase, wi))}
              >
                <Plus aria-hidden className="size-5" /> Add day
              </Button>
              <Button
                variant="ghost"
                className="px-3"
                disabled={week.length >= PRACTICE_PLAN_LIMITS.daysPerWeek}
                onClick={() => setPickFor({ phase, week: wi })}
              >
                <CalendarPlus aria-hidden className="size-5" /> Insert saved day
              </Button>
              <Button
                variant="ghost"
                className="px-3 text-danger"
                aria-label={`Remove ${label}`}
                onClick={() => void removeWeek(phase, wi)}
              >
                <Trash2 aria-hidden className="size-5" />
              </Button>
            </div>
          ) : null}
        </div>
        {!admin && empty ? (
          <Empty />
        ) : week.length === 0 ? (
          <p className="text-muted">No days yet: add one or insert a saved day.</p>
        ) : (
          <div className="flex flex-col gap-3">
            {week.map((day, di) => {
              const at: DayAt = { phase, week: wi, day: di };
              return (
                <DayBlock
                  key={day.id}
                  day={day}
                  weekLabel={label}
                  admin={admin}
                  error={feedback.error}
                  onDay={(patch) => {
                    for (const k of Object.keys(patch)) feedback.edited(`day.${day.id}.${k}`);
                    update((p) => edit.setDay(p, at, patch));
                  }}
                  onExercise={(id, patch) => {
                    for (const k of Object.keys(patch)) feedback.edited(`exercise.${id}.${k}`);
                    update((p) => edit.setExercise(p, at, id, patch));
                  }}
                  onAddExercise={() => update((p) => edit.addExercise(p, at))}
                  onRemoveExercise={(id) => {
                    feedback.edited(`exercise.${id}`);
                    update((p) => edit.removeExercise(p, at, id));
                  }}
                  onRemoveDay={() => void removeDay(at, day.title)}
                />
              );
            })}
          </div>
        )}
      </section>
    );
  };

  let body: React.ReactNode;
  if (latestOnly) {
    const weekRef = current ?? null;
    body = weekRef ? (
      renderWeek(weekRef.phase, plan[weekRef.phase][weekRef.week]!, weekRef.week)
    ) : PRACTICE_PLAN_PHASES.some((p) => plan[p].length) ? (
      <p className="rounded-xl border border-line bg-surface-2 px-4 py-6 text-center text-lg">
        You have completed every week of your plan. Your mentor will add the next one soon.
      </p>
    ) : (
      <Empty />
    );
  } else if (!activePhase) {
    body = <Empty />;
  } else {
    const weeks = plan[activePhase];
    body = (
      <>
        <div role="tablist" aria-label="Phases" className="flex gap-1 overflow-x-auto border-b border-line">
          {visiblePhases.map((phase) => (
            <button
              key={phase}
              type="button"
              role="tab"
              id={`tab-${phase}`}
              aria-selected={phase === activePhase}
              aria-controls={`panel-${phase}`}
              onClick={() => setChosen(phase)}
              className={clsx(
                '-mb-px min-h-11 shrink-0 border-b-2 px-4 text-base font-semibold',
                phase === activePhase ? 'border-accent text-fg' : 'border-transparent text-muted hover:text-fg',
              )}
            >
              {phaseName(phase)}
            </button>
          ))}
        </div>
        <div
          role="tabpanel"
          id={`panel-${activePhase}`}
          aria-labelledby={`tab-${activePhase}`}
          className="mt-4 flex flex-col gap-4"
        >
          {weeks.length === 0 ? (
            admin ? (
              <p className="text-muted">No weeks in {phaseName(activePhase)} yet.</p>
            ) : (
              <Empty />
            )
          ) : (
            weeks.map((w, wi) => renderWeek(activePhase, w, wi))
          )}
          {admin ? (
            <Button
              variant="secondary"
              className="self-start"
              disabled={weeks.length >= PRACTICE_PLAN_LIMITS.weeksPerPhase}
              onClick={() => update((p) => edit.addWeek(p, activePhase))}
            >
              <Plus aria-hidden className="size-5" /> Add week
            </Button>
          ) : null}
        </div>
      </>
    );
  }

  return (
    <div className="flex flex-col gap-5">
      {confirmDialog}
      <div className="flex flex-wrap items-center justify-between gap-3">
        {admin ? (
          <label className="flex min-h-11 cursor-pointer items-center gap-2.5 text-base font-semibold">
            <input
              type="checkbox"
              className="size-5 accent-[var(--accent)]"
              checked={!!plan.onlyShowLatest}
              onChange={(e) => change({ ...plan, onlyShowLatest: e.target.checked } satisfies PracticePlan)}
            />
            Show the student only their current week
          </label>
        ) : (
          <p className="text-muted">
            Log your ending tempos and the time you played without mistakes; tick a day when it is done.
          </p>
        )}
        <SaveIndicator status={status} />
      </div>
      {notice ? (
        <div role="alert" className="flex items-start gap-3 rounded-xl bg-warning-soft px-4 py-3 text-fg">
          <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-warning" />
          <p className="flex-1">{notice}</p>
          <button
            type="button"
            aria-label="Dismiss"
            onClick={dismissNotice}
            className="-m-2 grid size-11 place-items-center rounded-full hover:bg-surface-2"
          >
            <X aria-hidden className="size-5" />
          </button>
        </div>
      ) : null}
      {/* not sent: the plan's fields in one form, so that the refused ones are found and summarised */}
      <form ref={feedback.formRef} noValidate onSubmit={(e) => e.preventDefault()} className="flex flex-col gap-5">
        <p role="status" className="font-medium text-danger empty:hidden">
          {feedback.summary ?? ''}
        </p>
        {body}
      </form>
      {series.length ? (
        <section aria-labelledby="tempo-progress" className="mt-2">
          <h2 id="tempo-progress" className="mb-3 text-xl font-extrabold tracking-tight">
            Tempo progress
          </h2>
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {series.map((s) => (
              <TempoChart key={s.title} series={s} />
            ))}
          </div>
        </section>
      ) : null}
      {admin ? (
        <SavedDayPicker
          open={pickFor !== null}
          onClose={() => setPickFor(null)}
          onPick={(day) => {
            if (pickFor) update((p) => edit.addDay(p, pickFor.phase, pickFor.week, day));
            setPickFor(null);
          }}
        />
      ) : null}
    </div>
  );
}
