import { useId, useState } from 'react';
import { CalendarDays, Plus, Save, Trash2 } from 'lucide-react';
import clsx from 'clsx';
import { PRACTICE_PLAN_LIMITS, type ReusableDayExercise } from '#shared/mentorship';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Field, FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { errorMessage } from '#client/lib/api.ts';
import { useDeleteDay, useSaveDay, useSavedDay, useSavedDays, type SavedDay } from '../api.ts';
import { DigitInput } from './day-block.tsx';
import { isolateText } from '#shared/display-text';

const blankExercise = (): ReusableDayExercise => ({ title: '', link: '', notes: '', goal: '' });

/** /mentorship/practice-plan-days: the mentors' reusable days (list, create, edit, delete). */
export function SavedDaysManager() {
  const days = useSavedDays();
  const [selected, setSelected] = useState<number | 'new' | null>(null);
  const current = selected ?? days.data?.[0]?.id ?? 'new';

  return (
    <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
      <aside
        aria-labelledby="saved-days"
        className="flex flex-col gap-3 self-start rounded-2xl border border-line bg-surface p-4"
      >
        <div className="flex items-center justify-between gap-2">
          <h2 id="saved-days" className="text-lg font-bold">
            Saved days
          </h2>
          <Button variant="ghost" className="px-3" onClick={() => setSelected('new')}>
            <Plus aria-hidden className="size-5" /> New
          </Button>
        </div>
        {days.isPending ? <Spinner label="Loading saved days" className="py-6" /> : null}
        {days.isError ? <FormError message={errorMessage(days.error, [])} /> : null}
        {days.data?.length === 0 ? (
          <p className="text-muted">No saved days yet. Build one here, then insert it into any student's plan.</p>
        ) : null}
        {days.data?.length ? (
          <ul className="-mx-2 flex flex-col">
            {days.data.map((d) => (
              <li key={d.id}>
                <button
                  type="button"
                  aria-current={d.id === current ? 'true' : undefined}
                  onClick={() => setSelected(d.id)}
                  className={clsx(
                    'flex min-h-12 w-full items-center gap-3 rounded-xl px-2 text-left hover:bg-surface-2',
                    d.id === current && 'bg-accent-soft',
                  )}
                >
                  <CalendarDays aria-hidden className="size-5 shrink-0 text-accent" />
                  <span className="truncate font-semibold" title={d.title}>
                    {d.title}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </aside>
      <section aria-label="Saved day" className="rounded-2xl border border-line bg-surface p-4 sm:p-6">
        {current === 'new' ? (
          <DayForm key="new" day={null} onSaved={(d) => setSelected(d.id)} onDeleted={() => setSelected(null)} />
        ) : (
          <LoadedDay key={current} id={current} onDeleted={() => setSelected(null)} />
        )}
      </section>
    </div>
  );
}

function LoadedDay({ id, onDeleted }: { id: number; onDeleted: () => void }) {
  const day = useSavedDay(id);
  if (day.isPending) return <Spinner label="Loading the day" className="w-full py-10" />;
  if (day.isError) return <FormError message={errorMessage(day.error, [])} />;
  return <DayForm day={day.data} onSaved={() => undefined} onDeleted={onDeleted} />;
}

function DayForm({
  day,
  onSaved,
  onDeleted,
}: {
  day: SavedDay | null;
  onSaved: (d: SavedDay) => void;
  onDeleted: () => void;
}) {
  const [title, setTitle] = useState(day?.title ?? '');
  const [exercises, setExercises] = useState<ReusableDayExercise[]>(
    day?.exercises.length ? day.exercises : [blankExercise()],
  );
  const feedback = useFormFeedback();
  const errId = useId();
  const save = useSaveDay();
  const remove = useDeleteDay();
  const [confirm, confirmDialog] = useConfirm();
  const setEx = (i: number, patch: Partial<ReusableDayExercise>) => {
    setExercises((list) => list.map((e, j) => (j === i ? { ...e, ...patch } : e)));
    for (const key of Object.keys(patch)) feedback.edited(`exercises.${i}.${key}`);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (save.isPending) return;
    feedback.clear();
    try {
      const saved = await save.mutateAsync({ id: day?.id ?? null, title, exercises });
      toast(day ? 'Saved day updated.' : 'Saved day created.');
      onSaved(saved);
    } catch (err) {
      feedback.fail(err);
    }
  };
  const del = async () => {
    if (
      !day ||
      !(await confirm(`Delete the saved day “${isolateText(day.title)}”? Plans that already use it keep their copy.`, {
        confirmLabel: 'Delete',
        danger: true,
      }))
    )
      return;
    try {
      await remove.mutateAsync(day.id);
      toast('Saved day deleted.');
      onDeleted();
    } catch (err) {
      toast(errorMessage(err, []), 'danger');
    }
  };
  const fieldError = (key: string) => feedback.errors[key];
  const exProps = (i: number, key: string) => invalidProps(fieldError(`exercises.${i}.${key}`), `${errId}-${i}-${key}`);
  const exMessage = (i: number, key: string) => (
    <FieldMessage id={`${errId}-${i}-${key}`} message={fieldError(`exercises.${i}.${key}`)} />
  );

  return (
    <form ref={feedback.formRef} onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {confirmDialog}
      <h2 className="text-xl font-bold">{day ? 'Edit saved day' : 'New saved day'}</h2>
      <Field
        label="Day title"
        value={title}
        maxLength={PRACTICE_PLAN_LIMITS.title}
        onChange={(e) => {
          setTitle(e.target.value);
          feedback.edited('title');
        }}
        error={fieldError('title')}
        placeholder="e.g. Rudiments day"
      />
      <ol className="flex flex-col gap-3" aria-label="Exercises">
        {exercises.map((ex, i) => (
          <li key={i} className="rounded-xl border border-line bg-surface-2 p-3">
            <div className="mb-2 flex items-center justify-between">
              <span className="text-sm font-bold uppercase tracking-wider text-muted">Exercise {i + 1}</span>
              <button
                type="button"
                aria-label={`Remove exercise ${i + 1}`}
                onClick={() => setExercises((list) => list.filter((_, j) => j !== i))}
                className="grid size-11 place-items-center rounded-lg text-danger hover:bg-danger-soft"
              >
                <Trash2 aria-hidden className="size-5" />
              </button>
            </div>
            <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
              <div className="flex flex-col gap-1.5">
                <label className="flex flex-col gap-1.5 text-sm font-semibold">
                  Exercise title
                  <input
                    className={inputClass}
                    value={ex.title}
                    maxLength={PRACTICE_PLAN_LIMITS.title}
                    onChange={(e) => setEx(i, { title: e.target.value })}
                    {...exProps(i, 'title')}
                  />
                </label>
                {exMessage(i, 'title')}
              </div>
              <div className="flex flex-col gap-1.5 text-sm font-semibold">
                <span aria-hidden>Goal (bpm)</span>
                <DigitInput
                  label={`Goal for exercise ${i + 1}`}
                  value={ex.goal}
                  placeholder="bpm"
                  onChange={(v) => setEx(i, { goal: v })}
                  {...exProps(i, 'goal')}
                />
                {exMessage(i, 'goal')}
              </div>
              <div className="flex flex-col gap-1.5 sm:col-span-2">
                <label className="flex flex-col gap-1.5 text-sm font-semibold">
                  Link
                  <input
                    className={inputClass}
                    type="url"
                    placeholder="https://..."
                    value={ex.link}
                    maxLength={PRACTICE_PLAN_LIMITS.link}
                    onChange={(e) => setEx(i, { link: e.target.value.trim() })}
                    {...exProps(i, 'link')}
                  />
                </label>
                {exMessage(i, 'link')}
              </div>
              <div className="flex flex-col gap-1.5 sm:col-span-2">
                <label className="flex flex-col gap-1.5 text-sm font-semibold">
                  Notes
                  <textarea
                    className={clsx(inputClass, 'min-h-20 py-2')}
                    value={ex.notes}
                    maxLength={PRACTICE_PLAN_LIMITS.notes}
                    onChange={(e) => setEx(i, { notes: e.target.value })}
                    {...exProps(i, 'notes')}
                  />
                </label>
                {exMessage(i, 'notes')}
              </div>
            </div>
          </li>
        ))}
      </ol>
      {exercises.length < PRACTICE_PLAN_LIMITS.exercisesPerDay ? (
        <Button
          variant="secondary"
          className="self-start"
          onClick={() => setExercises((list) => [...list, blankExercise()])}
        >
          <Plus aria-hidden className="size-5" /> Add exercise
        </Button>
      ) : null}
      <FormError message={feedback.summary} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={save.isPending}>
          <Save aria-hidden className="size-5" /> {day ? 'Save changes' : 'Create saved day'}
        </Button>
        {day ? (
          <Button variant="ghost" className="text-danger" onClick={() => void del()} disabled={remove.isPending}>
            <Trash2 aria-hidden className="size-5" /> Delete
          </Button>
        ) : null}
      </div>
    </form>
  );
}
