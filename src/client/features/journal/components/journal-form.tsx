import { useId, useState, type FormEvent } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import clsx from 'clsx';
import { LEARNING, type JournalExercise } from '#shared/learning';
import { Button } from '#client/components/ui/button.tsx';
import { FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { toast } from '#client/components/ui/toast.tsx';
import { useSaveJournal } from '../api/journal.ts';

const empty = (): JournalExercise => ({ practicedToday: '', startingTempo: '', endingTempo: '' });
const digitsOnly = (v: string) => v.replace(/\D/g, '').slice(0, 4);
/**
 * One field of a row: its label, input and message are the row's three grid rows from sm up, so the
 * inputs stay in line when a label wraps or a message shows under one of them.
 */
const cell = 'flex flex-col gap-1 sm:row-span-3 sm:grid sm:grid-rows-subgrid sm:gap-1';

/**
 * Journal exercise rows: add up to 10, remove while more than one remains (docs/product/journal.md).
 * The server's messages are shown under their fields (components/ui/form-feedback.ts); "name at least
 * one exercise" belongs to the first row's name.
 */
export function JournalForm() {
  const id = useId();
  const [rows, setRows] = useState<JournalExercise[]>([empty()]);
  const [notes, setNotes] = useState('');
  const feedback = useFormFeedback();
  const save = useSaveJournal();
  const set = (i: number, key: keyof JournalExercise, value: string) => {
    setRows((r) => r.map((row, j) => (j === i ? { ...row, [key]: value } : row)));
    feedback.edited(`exercises.${i}.${key}`);
    if (i === 0 && key === 'practicedToday') feedback.edited('exercises');
  };
  const rowError = (i: number, key: keyof JournalExercise) =>
    feedback.errors[`exercises.${i}.${key}`] ??
    (i === 0 && key === 'practicedToday' ? feedback.errors.exercises : undefined);
  const fieldId = (i: number, key: string) => `${id}-${i}-${key}`;
  const errId = (i: number, key: string) => `${fieldId(i, key)}-err`;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    feedback.clear();
    try {
      await save.mutateAsync(e.currentTarget);
      setRows([empty()]);
      setNotes('');
      toast('Journal entry saved.', 'success');
    } catch (err) {
      feedback.fail(err);
    }
  }

  return (
    <form
      ref={feedback.formRef}
      onSubmit={submit}
      className="flex flex-col gap-4"
      aria-label="Practice journal entry"
      noValidate
    >
      <input type="hidden" name="exercises" value={JSON.stringify(rows)} />
      <ol className="flex flex-col gap-3">
        {rows.map((row, i) => (
          <li
            key={i}
            className="grid grid-cols-2 gap-3 rounded-xl border border-line bg-surface-2 p-3 sm:grid-cols-[1fr_8rem_8rem_auto] sm:grid-rows-[auto_auto_auto] sm:gap-y-1"
          >
            <div className={clsx(cell, 'col-span-2 sm:col-span-1')}>
              <label htmlFor={fieldId(i, 'practicedToday')} className="text-sm font-semibold sm:self-end">
                What did you practise?
              </label>
              <input
                id={fieldId(i, 'practicedToday')}
                className={inputClass}
                value={row.practicedToday}
                maxLength={200}
                onChange={(e) => set(i, 'practicedToday', e.target.value)}
                placeholder="e.g. Paradiddles"
                {...invalidProps(rowError(i, 'practicedToday'), errId(i, 'practicedToday'))}
              />
              <FieldMessage id={errId(i, 'practicedToday')} message={rowError(i, 'practicedToday')} />
            </div>
            <div className={clsx(cell, '')}>
              <label htmlFor={fieldId(i, 'startingTempo')} className="text-sm font-semibold sm:self-end">
                Starting tempo
              </label>
              <input
                id={fieldId(i, 'startingTempo')}
                className={`${inputClass} tabular`}
                inputMode="numeric"
                value={row.startingTempo}
                onChange={(e) => set(i, 'startingTempo', digitsOnly(e.target.value))}
                placeholder="bpm"
                {...invalidProps(rowError(i, 'startingTempo'), errId(i, 'startingTempo'))}
              />
              <FieldMessage id={errId(i, 'startingTempo')} message={rowError(i, 'startingTempo')} />
            </div>
            <div className={clsx(cell, '')}>
              <label htmlFor={fieldId(i, 'endingTempo')} className="text-sm font-semibold sm:self-end">
                Ending tempo
              </label>
              <input
                id={fieldId(i, 'endingTempo')}
                className={`${inputClass} tabular`}
                inputMode="numeric"
                value={row.endingTempo}
                onChange={(e) => set(i, 'endingTempo', digitsOnly(e.target.value))}
                placeholder="bpm"
                {...invalidProps(rowError(i, 'endingTempo'), errId(i, 'endingTempo'))}
              />
              <FieldMessage id={errId(i, 'endingTempo')} message={rowError(i, 'endingTempo')} />
            </div>
            {rows.length > 1 ? (
              <button
                type="button"
                aria-label={`Remove exercise ${i + 1}`}
                onClick={() => setRows((r) => r.filter((_, j) => j !== i))}
                className="col-span-2 grid min-h-11 place-items-center rounded-xl text-danger hover:bg-danger-soft sm:col-span-1 sm:col-start-4 sm:row-start-2 sm:size-12"
              >
                <Trash2 aria-hidden className="size-5" />
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {rows.length < LEARNING.journalMaxExercises ? (
        <Button variant="secondary" onClick={() => setRows((r) => [...r, empty()])} className="self-start">
          <Plus aria-hidden className="size-5" /> Add exercise
        </Button>
      ) : (
        <p className="text-sm text-muted">
          That is the most exercises one entry can hold ({LEARNING.journalMaxExercises}).
        </p>
      )}
      <label className="flex flex-col gap-1 text-sm font-semibold">
        Notes (optional)
        <textarea
          name="notes"
          className={`${inputClass} min-h-24 py-3`}
          value={notes}
          maxLength={2000}
          {...invalidProps(feedback.errors.notes, `${id}-notes-err`)}
          onChange={(e) => {
            setNotes(e.target.value);
            feedback.edited('notes');
          }}
        />
      </label>
      <FieldMessage id={`${id}-notes-err`} message={feedback.errors.notes} />
      <FormError message={feedback.summary} />
      <Button type="submit" disabled={save.isPending} className="self-start">
        Save entry
      </Button>
    </form>
  );
}
