import { Check, CheckCircle2, Circle } from 'lucide-react';
import clsx from 'clsx';

export type CompletionLook = 'button' | 'icon';

/** A completion toggle (two looks: a button or a round icon); the caller saves it. */
export function CompletionToggle({
  complete,
  look,
  label,
  onToggle,
}: {
  complete: boolean;
  look: CompletionLook;
  label: string;
  onToggle: () => void;
}) {
  if (look === 'icon') {
    return (
      <button
        type="button"
        aria-pressed={complete}
        aria-label={complete ? `${label}: completed` : `Mark ${label} complete`}
        onClick={onToggle}
        className={clsx(
          'grid size-11 shrink-0 place-items-center rounded-full transition-colors duration-150',
          complete ? 'text-success' : 'text-muted hover:text-fg',
        )}
      >
        {complete ? (
          <CheckCircle2 aria-hidden className="size-8 fill-success-soft" />
        ) : (
          <Circle aria-hidden className="size-8" />
        )}
      </button>
    );
  }
  return (
    <button
      type="button"
      aria-pressed={complete}
      onClick={onToggle}
      className={clsx(
        'inline-flex min-h-11 items-center gap-2 rounded-xl px-5 font-semibold transition-colors duration-150',
        complete
          ? 'bg-success-soft text-success ring-1 ring-success/40'
          : 'bg-accent text-accent-fg hover:bg-accent-strong',
      )}
    >
      {complete ? <Check aria-hidden className="size-5" /> : null}
      {complete ? 'Completed' : 'Mark as complete'}
    </button>
  );
}

/** Lesson completion, optimistic, in either look (docs/product/learning.md). */
