import { useId } from 'react';
import { CheckCircle2, ExternalLink, Plus, Trash2 } from 'lucide-react';
import clsx from 'clsx';
import { PRACTICE_PLAN_COLUMNS, PRACTICE_PLAN_LIMITS, type Exercise, type PracticeDay } from '#shared/mentorship';
import { Button } from '#client/components/ui/button.tsx';
import { FieldMessage, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps } from '#client/components/ui/form-feedback.ts';
import { onlyDigits } from '../plan-edit.ts';

const [COL_EXERCISE, COL_GOAL, COL_T1, COL_T2, COL_T3, COL_T4, COL_TIME] = PRACTICE_PLAN_COLUMNS;
const TEMPO_COLUMNS = [
  ['endingTempo1', COL_T1],
  ['endingTempo2', COL_T2],
  ['endingTempo3', COL_T3],
  ['endingTempo4', COL_T4],
] as const;

const smallInput =
  'min-h-11 rounded-lg border border-line bg-surface px-2 text-base text-fg placeholder:text-muted focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30';

/** A BPM or minutes field: digit keys only, 4 at most, the number keypad on phones. */
export function DigitInput({
  value,
  onChange,
  label,
  placeholder,
  ...marks
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
  placeholder?: string;
  /** a wrong value's marks (components/ui/form-feedback.ts `invalidProps`) */
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}) {
  return (
    <input
      {...marks}
      type="text"
      inputMode="numeric"
      pattern="[0-9]*"
      autoComplete="off"
      maxLength={PRACTICE_PLAN_LIMITS.digits}
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onKeyDown={(e) => {
        if (e.key.length === 1 && !/[0-9]/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) e.preventDefault();
      }}
      onChange={(e) => onChange(onlyDigits(e.target.value))}
      className={clsx(smallInput, 'tabular w-[4.5rem] text-center text-lg font-semibold')}
    />
  );
}

/** a number field with its refused value's message under it (always there, so the field is never re-created while typed in) */
const Marked = ({ message, children }: { message: React.ReactNode; children: React.ReactNode }) => (
  <div className="flex flex-col items-end gap-1 md:items-start">
    {children}
    {message}
  </div>
);

/** one cell: a row with its column name on phones (stacked cards), a table cell from md up */
const cell =
  'flex items-center justify-between gap-3 py-1.5 before:text-sm before:font-semibold before:text-muted before:content-[attr(data-label)] md:table-cell md:py-2 md:pr-3 md:align-top md:before:content-none';

interface DayProps {
  day: PracticeDay;
  /** "Week 1": names the day's region with its title */
  weekLabel: string;
  admin: boolean;
  /** the server's message for a refused field (`day.<id>.title`, `exercise.<id>.notes`) */
  error: (field: string) => string | undefined;
  onDay: (patch: Partial<Pick<PracticeDay, 'title' | 'complete'>>) => void;
  onExercise: (id: string, patch: Partial<Omit<Exercise, 'id'>>) => void;
  onAddExercise: () => void;
  onRemoveExercise: (id: string) => void;
  onRemoveDay: () => void;
}

/**
 * One practice day: title, complete box and the exercise table. A completed day
 * shows the student a compact "Completed" row instead of its exercises; admins always see them.
 */
export function DayBlock({
  day,
  weekLabel,
  admin,
  error,
  onDay,
  onExercise,
  onAddExercise,
  onRemoveExercise,
  onRemoveDay,
}: DayProps) {
  const uid = useId();
  /** a refused field's marks and message: `at` is `day.<id>.title` or `exercise.<id>.<field>` */
  const marks = (at: string) => {
    const id = `${uid}-${at}-err`;
    const message = error(at);
    return { props: invalidProps(message, id), message: <FieldMessage id={id} message={message} /> };
  };
  const title = day.title || 'Day';
  const collapsed = !admin && day.complete;
  const completeBox = (
    <label className="flex min-h-11 cursor-pointer items-center gap-2.5 text-base font-semibold">
      <input
        type="checkbox"
        className="size-5 accent-[var(--accent)]"
        checked={day.complete}
        onChange={(e) => onDay({ complete: e.target.checked })}
        aria-label={`${title} complete`}
      />
      Complete
    </label>
  );

  if (collapsed) {
    return (
      <section
        aria-label={`${weekLabel}, ${title}`}
        data-testid="practice-day"
        data-complete="true"
        className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line bg-surface-2 px-4 py-2"
      >
        <p className="flex items-center gap-2 text-base">
          <CheckCircle2 aria-hidden className="size-5 text-success" />
          <span className="font-semibold">{title}</span>
          <span className="text-success">Completed</span>
        </p>
        {completeBox}
      </section>
    );
  }

  return (
    <section
      aria-label={`${weekLabel}, ${title}`}
      data-testid="practice-day"
      data-complete={day.complete ? 'true' : 'false'}
      className={clsx('rounded-xl border border-line bg-surface-2 p-3 sm:p-4', day.complete && 'opacity-90')}
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        {admin ? (
          <div className="flex w-full max-w-xs flex-col gap-1">
            <input
              className={clsx(inputClass, 'text-lg font-bold')}
              aria-label={`${weekLabel} day title`}
              value={day.title}
              maxLength={PRACTICE_PLAN_LIMITS.title}
              onChange={(e) => onDay({ title: e.target.value })}
              {...marks(`day.${day.id}.title`).props}
            />
            {marks(`day.${day.id}.title`).message}
          </div>
        ) : (
          <h3 className="text-lg font-bold">{title}</h3>
        )}
        <div className="flex items-center gap-2">
          {day.complete && admin ? (
            <span className="flex items-center gap-1 text-sm font-semibold text-success">
              <CheckCircle2 aria-hidden className="size-4" /> Completed
            </span>
          ) : null}
          {completeBox}
          {admin ? (
            <button
              type="button"
              onClick={onRemoveDay}
              aria-label={`Remove ${title}`}
              className="grid size-11 place-items-center rounded-lg text-danger hover:bg-danger-soft"
            >
              <Trash2 aria-hidden className="size-5" />
            </button>
          ) : null}
        </div>
      </div>

      {day.exercises.length === 0 ? (
        <p className="py-2 text-muted">{admin ? 'No exercises yet: add one below.' : 'No exercises for this day.'}</p>
      ) : (
        <table className="block w-full md:table md:table-fixed">
          <thead className="hidden md:table-header-group">
            <tr className="text-left text-sm text-muted">
              <th scope="col" className="w-[34%] pb-1 pr-3 font-semibold">
                {COL_EXERCISE}
              </th>
              <th scope="col" className="pb-1 pr-3 font-semibold">
                {COL_GOAL}
              </th>
              {TEMPO_COLUMNS.map(([, name]) => (
                <th key={name} scope="col" className="pb-1 pr-3 font-semibold">
                  {name}
                </th>
              ))}
              <th scope="col" className="pb-1 pr-3 font-semibold">
                {COL_TIME}
              </th>
              {admin ? (
                <th scope="col" className="w-12 pb-1">
                  <span className="sr-only">Remove</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="block md:table-row-group">
            {day.exercises.map((ex) => {
              const name = ex.title || 'exercise';
              const mark = (field: keyof Exercise) => marks(`exercise.${ex.id}.${field}`);
              return (
                <tr
                  key={ex.id}
                  data-testid="practice-exercise"
                  className="mb-3 block rounded-xl border border-line bg-surface p-3 last:mb-0 md:table-row md:border-0 md:bg-transparent md:p-0"
                >
                  <td data-label={COL_EXERCISE} className="block py-1.5 md:table-cell md:py-2 md:pr-3 md:align-top">
                    {admin ? (
                      <div className="flex flex-col gap-1.5">
                        <input
                          className={clsx(smallInput, 'w-full font-semibold')}
                          aria-label="Exercise title"
                          placeholder="Exercise"
                          value={ex.title}
                          maxLength={PRACTICE_PLAN_LIMITS.title}
                          onChange={(e) => onExercise(ex.id, { title: e.target.value })}
                          {...mark('title').props}
                        />
                        {mark('title').message}
                        <input
                          className={clsx(smallInput, 'w-full text-sm')}
                          aria-label={`Link for ${name}`}
                          type="url"
                          placeholder="https://..."
                          value={ex.link}
                          maxLength={PRACTICE_PLAN_LIMITS.link}
                          onChange={(e) => onExercise(ex.id, { link: e.target.value.trim() })}
                          {...mark('link').props}
                        />
                        {mark('link').message}
                        {ex.link && !/^https?:\/\//i.test(ex.link) ? (
                          <p className="text-sm text-danger">Links must start with http:// or https://</p>
                        ) : null}
                        <textarea
                          className={clsx(smallInput, 'min-h-16 w-full py-2 text-sm')}
                          aria-label={`Notes for ${name}`}
                          placeholder="Notes"
                          value={ex.notes}
                          maxLength={PRACTICE_PLAN_LIMITS.notes}
                          onChange={(e) => onExercise(ex.id, { notes: e.target.value })}
                          {...mark('notes').props}
                        />
                        {mark('notes').message}
                      </div>
                    ) : (
                      <div className="min-w-0">
                        {ex.link ? (
                          <a
                            href={ex.link}
                            target="_blank"
                            rel="noopener noreferrer"
                            className="inline-flex items-center gap-1.5 text-lg font-semibold text-accent underline-offset-4 hover:underline"
                          >
                            {ex.title || 'Exercise'}
                            <ExternalLink aria-hidden className="size-4 shrink-0" />
                          </a>
                        ) : (
                          <p className="text-lg font-semibold">{ex.title || 'Exercise'}</p>
                        )}
                        {ex.notes ? (
                          <p className="mt-0.5 whitespace-pre-line wrap-anywhere text-muted">{ex.notes}</p>
                        ) : null}
                      </div>
                    )}
                  </td>
                  <td data-label={COL_GOAL} className={cell}>
                    {admin ? (
                      <Marked message={mark('goal').message}>
                        <DigitInput
                          label={`${COL_GOAL} for ${name}`}
                          value={ex.goal}
                          placeholder="bpm"
                          onChange={(v) => onExercise(ex.id, { goal: v })}
                          {...mark('goal').props}
                        />
                      </Marked>
                    ) : (
                      <span className="tabular text-lg font-bold">{ex.goal ? `${ex.goal} bpm` : '–'}</span>
                    )}
                  </td>
                  {TEMPO_COLUMNS.map(([field, col]) => (
                    <td key={field} data-label={col} className={cell}>
                      <Marked message={mark(field).message}>
                        <DigitInput
                          label={`${col} for ${name}`}
                          value={ex[field]}
                          placeholder="bpm"
                          onChange={(v) => onExercise(ex.id, { [field]: v })}
                          {...mark(field).props}
                        />
                      </Marked>
                    </td>
                  ))}
                  <td data-label={COL_TIME} className={cell}>
                    <Marked message={mark('timeWithoutMistakes').message}>
                      <DigitInput
                        label={`${COL_TIME} for ${name}`}
                        value={ex.timeWithoutMistakes}
                        placeholder="min"
                        onChange={(v) => onExercise(ex.id, { timeWithoutMistakes: v })}
                        {...mark('timeWithoutMistakes').props}
                      />
                    </Marked>
                  </td>
                  {admin ? (
                    <td className="flex justify-end md:table-cell md:py-2 md:align-top">
                      <button
                        type="button"
                        onClick={() => onRemoveExercise(ex.id)}
                        aria-label={`Remove ${name}`}
                        className="grid size-11 place-items-center rounded-lg text-danger hover:bg-danger-soft"
                      >
                        <Trash2 aria-hidden className="size-5" />
                      </button>
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {admin && day.exercises.length < PRACTICE_PLAN_LIMITS.exercisesPerDay ? (
        <Button variant="ghost" className="mt-2 px-3" onClick={onAddExercise}>
          <Plus aria-hidden className="size-5" /> Add exercise
        </Button>
      ) : null}
    </section>
  );
}
