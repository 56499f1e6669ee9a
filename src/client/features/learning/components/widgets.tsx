import { Check, CheckCircle2, Circle, Star } from 'lucide-react';
import clsx from 'clsx';
import { LEARNING } from '#shared/learning';
import { toast } from '#client/components/ui/toast.tsx';
import { useBookmark, useLessonCompletion, usePathCompletion } from '../api/learning.ts';

/** "Save" / "Saved" with a star (spec 000 §2); saving adds the toast "Saved to My Practice!". */
export function BookmarkButton({ lessonId, bookmarked }: { lessonId: number; bookmarked: boolean }) {
  const bookmark = useBookmark(lessonId);
  return (
    <button
      type="button"
      aria-pressed={bookmarked}
      onClick={() => {
        bookmark.mutate(!bookmarked);
        if (!bookmarked) toast(LEARNING.bookmarkSaved, 'success');
      }}
      className={clsx(
        'inline-flex min-h-11 items-center gap-2 rounded-xl border px-4 font-semibold transition-colors duration-150',
        bookmarked ? 'border-accent bg-accent-soft text-accent-strong' : 'border-line bg-surface hover:bg-surface-2',
      )}
    >
      <Star aria-hidden className={clsx('size-5', bookmarked && 'fill-current')} />
      {bookmarked ? 'Saved' : 'Save'}
    </button>
  );
}

type Look = 'button' | 'icon';

function Toggle({ complete, look, label, onToggle }: { complete: boolean; look: Look; label: string; onToggle: () => void }) {
  if (look === 'icon') {
    return (
      <button
        type="button"
        aria-pressed={complete}
        aria-label={complete ? `${label}: completed` : `Mark ${label} complete`}
        onClick={onToggle}
        className={clsx('grid size-11 shrink-0 place-items-center rounded-full transition-colors duration-150', complete ? 'text-success' : 'text-muted hover:text-fg')}
      >
        {complete ? <CheckCircle2 aria-hidden className="size-8 fill-success-soft" /> : <Circle aria-hidden className="size-8" />}
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
        complete ? 'bg-success-soft text-success ring-1 ring-success/40' : 'bg-accent text-accent-fg hover:bg-accent-strong',
      )}
    >
      {complete ? <Check aria-hidden className="size-5" /> : null}
      {complete ? 'Completed' : 'Mark as complete'}
    </button>
  );
}

/** Lesson completion, optimistic, in either look (spec 000 §2). */
export function LessonCompletionToggle({ lessonId, complete, look = 'button', label = 'lesson' }: { lessonId: number; complete: boolean; look?: Look; label?: string }) {
  const mutation = useLessonCompletion(lessonId);
  return <Toggle complete={complete} look={look} label={label} onToggle={() => mutation.mutate(!complete)} />;
}

export function PathCompletionToggle({ lessonId, pathId, complete, look = 'icon', label }: { lessonId: number; pathId: number; complete: boolean; look?: Look; label: string }) {
  const mutation = usePathCompletion(lessonId);
  return <Toggle complete={complete} look={look} label={label} onToggle={() => mutation.mutate({ pathId, complete: !complete })} />;
}

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div className="flex items-center gap-3">
      <div role="progressbar" aria-label={label} aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100} className="h-2.5 flex-1 overflow-hidden rounded-full bg-surface-2">
        <div className="h-full rounded-full bg-accent transition-[width] duration-200" style={{ width: `${percent}%` }} />
      </div>
      <span className="w-12 text-right text-sm font-semibold tabular">{percent}%</span>
    </div>
  );
}
