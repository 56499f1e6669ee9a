import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { format, parseISO } from 'date-fns';
import { Flame, Target, Trophy } from 'lucide-react';
import type { PracticeStats as Stats } from '#shared/journal';
import { post } from '#client/lib/api.ts';
import { usePracticeStats } from '../api/journal.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FormError, inputClass } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';

/** Minutes per day over the last four weeks, with the daily goal as a line. */
function MinutesChart({ days, goal }: { days: Stats['days']; goal: number }) {
  const max = Math.max(goal, ...days.map((d) => d.minutes), 10);
  const w = 28 * 12;
  const h = 120;
  const total = days.reduce((s, d) => s + d.minutes, 0);
  return (
    <figure className="flex flex-col gap-2">
      <svg
        viewBox={`0 0 ${w} ${h + 4}`}
        preserveAspectRatio="none"
        className="h-36 w-full"
        role="img"
        aria-label={`Minutes practised per day over the last 4 weeks: ${total} minutes in all`}
      >
        {days.map((d, i) => {
          const bh = (d.minutes / max) * h;
          return (
            <rect
              key={d.day}
              x={i * 12 + 2}
              y={h - bh}
              width={8}
              height={Math.max(bh, d.minutes ? 2 : 0)}
              rx={2}
              className={d.minutes >= goal ? 'fill-accent' : 'fill-accent/45'}
            >
              <title>{`${format(parseISO(d.day), 'EEE d MMM')}: ${d.minutes} min`}</title>
            </rect>
          );
        })}
        <line
          x1={0}
          x2={w}
          y1={h - (goal / max) * h}
          y2={h - (goal / max) * h}
          className="stroke-muted"
          strokeDasharray="4 4"
          strokeWidth={1}
        />
        <line x1={0} x2={w} y1={h + 0.5} y2={h + 0.5} className="stroke-line" strokeWidth={1} />
      </svg>
      <figcaption className="flex justify-between text-sm text-muted">
        <span>{format(parseISO(days[0]!.day), 'd MMM')}</span>
        <span>Dashed line: your daily goal</span>
        <span>Today</span>
      </figcaption>
    </figure>
  );
}

function TempoChart({ exercise, points }: Stats['tempos'][number]) {
  const w = 200;
  const h = 60;
  const tempos = points.map((p) => p.tempo);
  const min = Math.min(...tempos) - 5;
  const max = Math.max(...tempos) + 5;
  const x = (i: number) => (points.length === 1 ? w / 2 : (i / (points.length - 1)) * w);
  const y = (t: number) => h - ((t - min) / (max - min)) * h;
  const last = points.at(-1)!;
  return (
    <li className="flex min-w-0 flex-col gap-1 rounded-xl border border-line p-3">
      <div className="flex items-baseline justify-between gap-2">
        <span className="truncate font-semibold" title={exercise}>
          {exercise}
        </span>
        <span className="text-lg font-black tabular">
          {last.tempo}
          <span className="ml-0.5 text-xs font-semibold text-muted">bpm</span>
        </span>
      </div>
      <svg
        viewBox={`-4 -4 ${w + 8} ${h + 8}`}
        className="h-16 w-full"
        role="img"
        aria-label={`${exercise}: ending tempo from ${tempos[0]} to ${last.tempo} bpm over ${points.length} entries`}
      >
        <polyline
          fill="none"
          className="stroke-accent"
          strokeWidth={2.5}
          strokeLinejoin="round"
          points={points.map((p, i) => `${x(i)},${y(p.tempo)}`).join(' ')}
        />
        {points.map((p, i) => (
          <circle key={i} cx={x(i)} cy={y(p.tempo)} r={3} className="fill-accent" />
        ))}
      </svg>
    </li>
  );
}

function GoalForm({ goal, onDone }: { goal: Stats['goal']; onDone: () => void }) {
  const qc = useQueryClient();
  const [days, setDays] = useState(String(goal.days_per_week));
  const [minutes, setMinutes] = useState(String(goal.minutes_per_day));
  // a refused goal is marked on its field, announced, and the field focused (components/ui/form-feedback.ts)
  const feedback = useFormFeedback();
  const save = useMutation({
    mutationFn: () => post('/api/practice/goal', { days_per_week: days, minutes_per_day: minutes }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['practice-stats'] }),
  });
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (save.isPending) return;
    feedback.clear();
    try {
      await save.mutateAsync();
      onDone();
    } catch (err) {
      feedback.fail(err);
    }
  }
  return (
    <form ref={feedback.formRef} onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-3">
      <FormError message={feedback.summary} inline />
      <div className="grid grid-cols-2 gap-3">
        <label className="flex flex-col gap-1 text-sm font-semibold">
          Days a week
          <select className={inputClass} value={days} onChange={(e) => setDays(e.target.value)}>
            {[1, 2, 3, 4, 5, 6, 7].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <Field
          label="Minutes a day"
          inputMode="numeric"
          value={minutes}
          error={feedback.error('minutes_per_day')}
          onChange={(e) => {
            setMinutes(e.target.value.replace(/\D/g, '').slice(0, 3));
            feedback.edited('minutes_per_day');
          }}
        />
      </div>
      <Button type="submit" disabled={save.isPending} className="self-start">
        Save goal
      </Button>
    </form>
  );
}

/** The member's practice at a glance (docs/product/journal.md, "Stats and weekly goal"). */
export function PracticeStats() {
  const stats = usePracticeStats();
  const [editing, setEditing] = useState(false);
  if (stats.isPending) return <Spinner />;
  if (stats.isError) return null;
  const s = stats.data;
  const goalPercent = Math.min(100, Math.round((s.goal.days_met_this_week / s.goal.days_per_week) * 100));
  return (
    <section
      aria-labelledby="practice-stats"
      className="flex flex-col gap-5 rounded-2xl border border-line bg-surface p-5 sm:p-6"
    >
      <h2 id="practice-stats" className="text-xl font-bold">
        Your practice
      </h2>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <div className="rounded-xl bg-accent-soft p-4">
          <p className="flex items-center gap-1 text-sm font-semibold text-accent-strong">
            <Flame aria-hidden className="size-4" /> Current streak
          </p>
          <p className="text-3xl font-black tabular" data-testid="current-streak">
            {s.streak.current}{' '}
            <span className="text-base font-semibold text-muted">{s.streak.current === 1 ? 'day' : 'days'}</span>
          </p>
        </div>
        <div className="rounded-xl bg-surface-2 p-4">
          <p className="flex items-center gap-1 text-sm font-semibold text-muted">
            <Trophy aria-hidden className="size-4" /> Longest streak
          </p>
          <p className="text-3xl font-black tabular">
            {s.streak.longest}{' '}
            <span className="text-base font-semibold text-muted">{s.streak.longest === 1 ? 'day' : 'days'}</span>
          </p>
        </div>
        <div className="col-span-2 rounded-xl bg-surface-2 p-4 sm:col-span-1">
          <p className="flex items-center gap-1 text-sm font-semibold text-muted">
            <Target aria-hidden className="size-4" /> This week
          </p>
          <p className="text-3xl font-black tabular" data-testid="goal-progress">
            {s.goal.days_met_this_week}/{s.goal.days_per_week}{' '}
            <span className="text-base font-semibold text-muted">days</span>
          </p>
          <div
            role="progressbar"
            aria-label="Weekly goal"
            aria-valuenow={goalPercent}
            aria-valuemin={0}
            aria-valuemax={100}
            className="mt-2 h-2 overflow-hidden rounded-full bg-line"
          >
            <div className="h-full rounded-full bg-accent" style={{ width: `${goalPercent}%` }} />
          </div>
        </div>
      </div>
      <p className="text-muted">
        Goal: {s.goal.days_per_week} {s.goal.days_per_week === 1 ? 'day' : 'days'} a week, {s.goal.minutes_per_day}{' '}
        minutes a day. {s.practiced_today ? 'You practised today.' : 'Not practised yet today.'}{' '}
        {!editing ? (
          <button
            type="button"
            className="min-h-11 font-semibold text-accent-strong underline-offset-2 hover:underline"
            onClick={() => setEditing(true)}
          >
            Change goal
          </button>
        ) : null}
      </p>
      {editing ? <GoalForm goal={s.goal} onDone={() => setEditing(false)} /> : null}
      <MinutesChart days={s.days} goal={s.goal.minutes_per_day} />
      {s.tempos.length ? (
        <div className="flex flex-col gap-2">
          <h3 className="font-bold">Tempo over time</h3>
          <ul className="grid gap-3 sm:grid-cols-2">
            {s.tempos.map((t) => (
              <TempoChart key={t.exercise} {...t} />
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
