import { Link } from '#client/components/ui/link.tsx';
import { MessagesSquare } from 'lucide-react';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { relativeTime } from '../access.ts';
import { useCategories } from '../api/forums.ts';
import { ForumError } from './forum-error.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

/** Forum home: one card per category with its topic count and latest activity. */
export function CategoryCards() {
  const categories = useCategories();
  if (categories.isPending) return <Spinner className="py-16" label="Loading the forums" />;
  if (categories.isError) return <ForumError error={categories.error} />;
  return (
    <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
      {categories.data.map((c) => (
        <li key={c.id} className="min-w-0">
          <Link
            to={`/forums/${c.slug}`}
            className="group flex h-full flex-col gap-3 rounded-2xl border border-line bg-surface p-5 no-underline transition-colors hover:border-accent focus-visible:border-accent sm:p-6"
          >
            <div className="flex items-start gap-3">
              <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent-strong">
                <MessagesSquare aria-hidden className="size-5" />
              </span>
              <div className="min-w-0">
                <h2 className="text-xl font-bold text-fg wrap-anywhere group-hover:text-accent-strong">{c.title}</h2>
                <p className="mt-1 text-muted wrap-anywhere">{c.description}</p>
              </div>
            </div>
            <div className="mt-auto flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-t border-line pt-3 text-sm text-muted">
              <span className="font-semibold text-fg">
                {c.topicsCount} {c.topicsCount === 1 ? 'topic' : 'topics'}
              </span>
              <span>{c.lastActivityAt ? `Active ${relativeTime(c.lastActivityAt)}` : 'No activity yet'}</span>
              {/* one line; the whole title on hover */}
              {c.latestTopic ? (
                <span className="w-full truncate" title={c.latestTopic.title}>
                  Latest: <UserText>{c.latestTopic.title}</UserText>
                </span>
              ) : null}
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
