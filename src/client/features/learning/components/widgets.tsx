import { Star } from 'lucide-react';
import clsx from 'clsx';
import { LEARNING } from '#shared/learning';
import { toast } from '#client/components/ui/toast.tsx';
import { CompletionToggle, type CompletionLook } from '#client/components/ui/completion-toggle.tsx';
import { useBookmark, useLessonCompletion, usePathCompletion } from '../api/learning.ts';

/** "Save" / "Saved" with a star; saving adds the toast "Saved to My Practice!". */
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

export function LessonCompletionToggle({
  lessonId,
  complete,
  look = 'button',
  label = 'lesson',
}: {
  lessonId: number;
  complete: boolean;
  look?: CompletionLook;
  label?: string;
}) {
  const mutation = useLessonCompletion(lessonId);
  return <CompletionToggle complete={complete} look={look} label={label} onToggle={() => mutation.mutate(!complete)} />;
}

export function PathCompletionToggle({
  lessonId,
  pathId,
  complete,
  look = 'icon',
  label,
}: {
  lessonId: number;
  pathId: number;
  complete: boolean;
  look?: CompletionLook;
  label: string;
}) {
  const mutation = usePathCompletion(lessonId);
  return (
    <CompletionToggle
      complete={complete}
      look={look}
      label={label}
      onToggle={() => mutation.mutate({ pathId, complete: !complete })}
    />
  );
}

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div className="flex items-center gap-3">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        className="h-2.5 flex-1 overflow-hidden rounded-full bg-surface-2"
      >
        <div
          className="h-full rounded-full bg-accent transition-[width] duration-200"
          style={{ width: `${percent}%` }}
        />
      </div>
      <span className="w-12 text-right text-sm font-semibold tabular">{percent}%</span>
    </div>
  );
}
