import type { MouseEvent, ReactNode } from 'react';
import { Link } from '#client/components/ui/link.tsx';
import { ChevronLeft, ChevronRight, Heart, Lock, MessageCircle, Pin } from 'lucide-react';
import clsx from 'clsx';
import { FORUM_MESSAGES, type TopicListItem } from '#shared/forums';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { relativeTime } from '../access.ts';
import { useCategoryPage } from '../api/forums.ts';
import { ForumError } from './forum-error.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

/** A plain click opens the topic modal; a modified click (new tab) follows the link. */
const opensModal = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

interface Props {
  slug: string;
  page: number;
  onPage: (page: number) => void;
  onOpenTopic: (id: number) => void;
  /** the New topic button (composed by the page) */
  actions?: ReactNode;
}

/** A category's topics: pinned first, then newest activity, paged. */
export function CategoryTopics({ slug, page, onPage, onOpenTopic, actions }: Props) {
  const q = useCategoryPage(slug, page);
  if (q.isPending) return <Spinner className="py-16" label="Loading topics" />;
  if (q.isError) return <ForumError error={q.error} />;
  const { category, topics, pages } = q.data;
  return (
    <div className="flex flex-col gap-5">
      <nav aria-label="Breadcrumb" className="text-sm text-muted">
        <Link to="/forums" className="font-semibold text-accent-strong">
          Forums
        </Link>{' '}
        <span aria-hidden>›</span> <UserText>{category.title}</UserText>
      </nav>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{category.title}</h1>
          <p className="mt-2 max-w-2xl text-lg text-muted">{category.description}</p>
        </div>
        {actions}
      </div>
      {topics.length === 0 ? (
        <p className="rounded-2xl border border-line bg-surface p-6 text-muted">{FORUM_MESSAGES.noTopics}</p>
      ) : (
        <ul
          className={clsx(
            'divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface',
            q.isPlaceholderData && 'opacity-60',
          )}
          aria-label="Topics"
          data-testid="topic-list"
        >
          {topics.map((t) => (
            <TopicRow key={t.id} topic={t} onOpen={onOpenTopic} />
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages" className="flex items-center justify-between gap-3">
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={page <= 1}
            onClick={() => onPage(page - 1)}
          >
            <ChevronLeft aria-hidden className="size-5" /> Newer
          </button>
          <span className="text-muted">
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={page >= pages}
            onClick={() => onPage(page + 1)}
          >
            Older <ChevronRight aria-hidden className="size-5" />
          </button>
        </nav>
      ) : null}
    </div>
  );
}

function TopicRow({ topic: t, onOpen }: { topic: TopicListItem; onOpen: (id: number) => void }) {
  return (
    <li className={clsx('flex gap-3 p-4 sm:gap-4 sm:p-5', t.pinned && 'bg-accent-soft/40')} data-topic-id={t.id}>
      <Avatar src={t.user.avatarUrl} name={t.user.name} size={44} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          {t.pinned ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-accent px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide text-accent-fg">
              <Pin aria-hidden className="size-3.5" /> {FORUM_MESSAGES.pinned}
            </span>
          ) : null}
          {t.locked ? (
            <span
              className="inline-flex items-center gap-1 text-sm font-semibold text-muted"
              title={FORUM_MESSAGES.locked}
            >
              <Lock aria-hidden className="size-4" />
              <span className="sr-only sm:not-sr-only">{FORUM_MESSAGES.locked}</span>
            </span>
          ) : null}
          {t.hidden ? (
            <span className="rounded-full bg-warning-soft px-2.5 py-0.5 text-xs font-bold text-warning">Hidden</span>
          ) : null}
        </div>
        <a
          href={t.url}
          onClick={(e) => {
            if (!opensModal(e)) return;
            e.preventDefault();
            onOpen(t.id);
          }}
          className="mt-0.5 block text-lg font-bold leading-snug text-fg no-underline hover:text-accent-strong"
        >
          <UserText>{t.title}</UserText>
        </a>
        <p className="mt-1 text-sm text-muted">
          <UserText>{t.user.name}</UserText> · active {relativeTime(t.lastActivityAt)}
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-end justify-center gap-1 text-sm text-muted sm:flex-row sm:items-center sm:gap-4">
        <span
          className="inline-flex items-center gap-1"
          aria-label={`${t.numComments} ${t.numComments === 1 ? 'comment' : 'comments'}`}
        >
          <MessageCircle aria-hidden className="size-4" /> {t.numComments}
        </span>
        <span
          className="inline-flex items-center gap-1"
          aria-label={`${t.numLikes} ${t.numLikes === 1 ? 'like' : 'likes'}`}
        >
          <Heart aria-hidden className="size-4" /> {t.numLikes}
        </span>
      </div>
    </li>
  );
}
