import type { ReactNode } from 'react';
import clsx from 'clsx';

/** "Question n of N" (or any label) over an accessible progress bar. */
export function StepProgress({ label, name, percent }: { label?: ReactNode; name: string; percent: number }) {
  return (
    <div className="flex flex-col gap-2">
      {label ? <p className="text-sm font-semibold text-muted">{label}</p> : null}
      <div
        role="progressbar"
        aria-label={name}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        className="h-2.5 overflow-hidden rounded-full bg-surface-2"
      >
        <div
          className="h-full rounded-full bg-accent transition-[width] duration-200"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

/** Big tappable answers, one per option (questionnaires, quizzes). */
export function ChoiceButtons<T>({
  options,
  render,
  onChoose,
  columns = 1,
}: {
  options: readonly T[];
  render: (o: T, i: number) => ReactNode;
  onChoose: (i: number) => void;
  columns?: 1 | 3;
}) {
  return (
    <ul className={clsx('grid gap-3', columns === 3 ? 'grid-cols-3' : 'grid-cols-1')}>
      {options.map((o, i) => (
        <li key={i}>
          <button
            type="button"
            onClick={() => onChoose(i)}
            className="flex min-h-14 w-full items-center rounded-xl border border-line bg-surface px-5 text-left text-lg hover:border-accent hover:bg-accent-soft"
          >
            {render(o, i)}
          </button>
        </li>
      ))}
    </ul>
  );
}
