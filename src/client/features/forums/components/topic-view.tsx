import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link } from '#client/components/ui/link.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowDown, Bell, BellOff, Heart, Lock, MessageCircle, Pin } from 'lucide-react';
import clsx from 'clsx';
import { COMMUNITY_MESSAGES, type PostDto } from '#shared/community';
import { hashPostId } from '#shared/discussion';
import { FORUM_MESSAGES, type TopicDto } from '#shared/forums';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { pageConfig } from '#client/lib/page-config.ts';
import { commentsLabel, formatDate } from '../access.ts';
import { forumCalls, forumKeys, useTopic } from '../api/forums.ts';
import { ForumError } from './forum-error.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

export interface TopicSlots {
  /** how the first post's text is shown (the discussion feature's PostBody); plain text otherwise */
  renderBody?: (post: PostDto) => ReactNode;
  /** the discussion thread under the topic (reply box and posts) */
  renderDiscussion?: (topic: TopicDto, opts: { canReply: boolean }) => ReactNode;
}

interface Props extends TopicSlots {
  topicId: number;
  variant: 'modal' | 'page';
  /** the title element (the modal uses its dialog title) */
  renderTitle?: (title: string) => ReactNode;
  /** admin menu, breadcrumb... shown above the title on the page */
  header?: (topic: TopicDto) => ReactNode;
}

/** Plain text with its line breaks (user text is never HTML). */
const PlainBody = ({ post }: { post: PostDto }) => (
  <div className="whitespace-pre-wrap wrap-anywhere text-lg leading-relaxed">{post.body}</div>
);

const onHashChange = (listener: () => void) => {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
};
/** the thread shows one conversation (a post id in the address hash): there is no "latest" to jump to */
const useThreadMode = () =>
  useSyncExternalStore(
    onHashChange,
    () => hashPostId(window.location.hash) !== null,
    () => false,
  );

/** The topic (docs/product/forums.md): author, date, watch, title, first post, like, comment count, then the thread. */
export function TopicView({ topicId, variant, renderTitle, header, renderBody, renderDiscussion }: Props) {
  const q = useTopic(topicId);
  // a ref, not state: a callback ref that sets state re-renders the whole topic synchronously inside its first commit
  const discussionRef = useRef<HTMLDivElement>(null);
  useRefetchOnNewPost(discussionRef, q.isSuccess, topicId, q.data?.topic.numComments ?? 0);
  const threadMode = useThreadMode();
  if (q.isPending) return <Spinner className="w-full py-16" label="Loading the topic" />;
  if (q.isError) return <ForumError error={q.error} />;
  const { topic, user, posts } = q.data;
  const first = posts[0];
  const isAdmin = pageConfig().admin;
  const canReply = !topic.locked || isAdmin;
  const title = renderTitle ? (
    renderTitle(topic.title)
  ) : (
    <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">
      <UserText>{topic.title}</UserText>
    </h1>
  );

  function jumpToLatest() {
    const root = discussionRef.current;
    if (!root) return;
    // the newest post is the one with the highest id
    let latest: Element | null = null;
    let best = -1;
    for (const el of root.querySelectorAll('[data-post-id], [id]')) {
      const raw = el.getAttribute('data-post-id') ?? el.id.replace(/^post-/, '');
      const n = /^\d+$/.test(raw) ? Number(raw) : -1;
      if (n > best) {
        best = n;
        latest = el;
      }
    }
    (latest ?? root).scrollIntoView({ behavior: 'smooth', block: 'center' });
    if (latest instanceof HTMLElement) {
      latest.setAttribute('tabindex', latest.getAttribute('tabindex') ?? '-1');
      latest.focus({ preventScroll: true });
    }
  }

  return (
    <article className="flex flex-col gap-5" data-testid="topic-view">
      {header?.(topic)}
      <header className="flex flex-wrap items-center gap-3">
        <Avatar src={user?.avatarUrl} name={user?.name ?? COMMUNITY_MESSAGES.deleted} size={48} />
        <div className="min-w-0 flex-1">
          {user?.permalink ? (
            <a
              href={user.permalink}
              className={clsx('font-bold no-underline', user.admin ? 'text-success' : 'text-fg')}
            >
              <UserText>{user.name}</UserText>
            </a>
          ) : (
            <UserText className="font-bold text-muted">{user?.name ?? COMMUNITY_MESSAGES.deleted}</UserText>
          )}
          <p className="text-sm text-muted">
            <time dateTime={topic.createdAt}>{formatDate(topic.createdAt)}</time>
            {variant === 'modal' ? ` · ${topic.categoryTitle}` : null}
          </p>
        </div>
        <WatchButton topic={topic} />
      </header>
      <div className="flex flex-col gap-2">
        {topic.pinned || topic.locked ? (
          <div className="flex flex-wrap gap-2">
            {topic.pinned ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-accent px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide text-accent-fg">
                <Pin aria-hidden className="size-3.5" /> {FORUM_MESSAGES.pinned}
              </span>
            ) : null}
            {topic.locked ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-surface-2 px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide text-muted">
                <Lock aria-hidden className="size-3.5" /> {FORUM_MESSAGES.locked}
              </span>
            ) : null}
          </div>
        ) : null}
        {title}
      </div>
      {first ? <div data-testid="topic-body">{renderBody ? renderBody(first) : <PlainBody post={first} />}</div> : null}
      <div className="flex flex-wrap items-center gap-3 border-y border-line py-2">
        <LikeButton topic={topic} />
        <span className="inline-flex items-center gap-1.5 text-muted" data-testid="comment-count">
          <MessageCircle aria-hidden className="size-5" /> {commentsLabel(topic.numComments)}
        </span>
        {variant === 'modal' ? (
          <Link to={topic.url} className="ml-auto inline-flex min-h-11 items-center font-semibold text-accent-strong">
            {FORUM_MESSAGES.openFullTopic}
          </Link>
        ) : null}
      </div>
      {topic.locked && !isAdmin ? (
        <p className="flex items-center gap-2 rounded-xl bg-surface-2 px-4 py-3 font-medium text-muted" role="note">
          <Lock aria-hidden className="size-5 shrink-0" /> {COMMUNITY_MESSAGES.topicLocked}
        </p>
      ) : null}
      {/* on phones the jump button floats at the right edge: post actions keep clear of that column */}
      <div ref={discussionRef} data-testid="topic-discussion" className="max-sm:[&_[data-post-actions]]:pr-14">
        {renderDiscussion ? renderDiscussion(topic, { canReply }) : null}
      </div>
      {topic.numComments > 0 && !threadMode ? (
        <div
          className={clsx(
            'pointer-events-none sticky bottom-3 flex justify-end sm:justify-center',
            variant === 'page' && 'bottom-4',
          )}
        >
          <button
            type="button"
            onClick={jumpToLatest}
            aria-label={COMMUNITY_MESSAGES.jumpToLatest}
            className={clsx(
              buttonClass('primary'),
              'pointer-events-auto rounded-full shadow-lg max-sm:size-12 max-sm:px-0',
            )}
          >
            <ArrowDown aria-hidden className="size-5" />{' '}
            <span className="max-sm:sr-only">{COMMUNITY_MESSAGES.jumpToLatest}</span>
          </button>
        </div>
      ) : null}
    </article>
  );
}

/**
 * The comment count follows the thread: when a post newer than any shown appears in the discussion
 * (a reply was just posted), the topic is fetched again.
 */
function useRefetchOnNewPost(
  rootRef: React.RefObject<HTMLDivElement | null>,
  shown: boolean,
  topicId: number,
  numComments: number,
) {
  const qc = useQueryClient();
  const comments = useRef(numComments);
  useEffect(() => {
    comments.current = numComments;
  }, [numComments]);
  useEffect(() => {
    const root = rootRef.current;
    if (!shown || !root) return;
    const maxId = () =>
      Math.max(
        -1,
        ...[...root.querySelectorAll('[data-post-id]')].map((el) => Number(el.getAttribute('data-post-id')) || -1),
      );
    let seen = maxId();
    const observer = new MutationObserver(() => {
      const now = maxId();
      if (now <= seen) return;
      const firstLoad = seen === -1 && comments.current > 0;
      seen = now;
      if (!firstLoad) void qc.invalidateQueries({ queryKey: forumKeys.topic(topicId) });
    });
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [rootRef, shown, qc, topicId]);
}

/**
 * The topic like: the state flips and the count moves by one at once; then the count
 * is replaced by the server's answer and the topic is fetched again.
 */
function LikeButton({ topic }: { topic: TopicDto }) {
  const qc = useQueryClient();
  const [liked, setLiked] = useState(topic.authLiked);
  const [likes, setLikes] = useState(topic.numLikes);
  const busy = useRef(false);
  // a fetched topic replaces the local state, except while a toggle is on its way
  useEffect(() => {
    if (busy.current) return;
    setLiked(topic.authLiked);
    setLikes(topic.numLikes);
  }, [topic.authLiked, topic.numLikes]);

  async function click() {
    setLiked(!liked);
    setLikes((n) => Math.max(0, n + (liked ? -1 : 1)));
    busy.current = true;
    try {
      const res = await forumCalls.toggleLike(topic.id);
      setLikes(res.likes);
      setLiked(res.liked);
    } catch {
      // like failures are not reported; the refetch below restores the truth
    } finally {
      busy.current = false;
      void qc.invalidateQueries({ queryKey: forumKeys.topic(topic.id) });
      void qc.invalidateQueries({ queryKey: ['forums', 'category'] });
    }
  }

  return (
    <button
      type="button"
      aria-pressed={liked}
      aria-label={`${liked ? 'Unlike topic' : 'Like topic'}: ${likes} ${likes === 1 ? 'like' : 'likes'}`}
      onClick={() => void click()}
      className={clsx(
        'inline-flex min-h-11 items-center gap-2 rounded-full px-4 font-semibold transition-colors',
        liked ? 'bg-accent-soft text-accent-strong' : 'text-fg hover:bg-surface-2',
      )}
    >
      <Heart aria-hidden className={clsx('size-5', liked && 'fill-current')} />
      <span data-testid="topic-likes">{likes}</span>
    </button>
  );
}

/** Watch / Watching: stored, so new posts in the topic notify the member. */
function WatchButton({ topic }: { topic: TopicDto }) {
  const qc = useQueryClient();
  const [watching, setWatching] = useState(topic.authWatching);
  useEffect(() => setWatching(topic.authWatching), [topic.authWatching]);

  async function click() {
    const next = !watching;
    setWatching(next);
    try {
      const res = await forumCalls.watch(topic.id, next);
      setWatching(res.watching);
      qc.setQueryData(forumKeys.topic(topic.id), (old: { topic: TopicDto } | undefined) =>
        old ? { ...old, topic: { ...old.topic, authWatching: res.watching } } : old,
      );
    } catch {
      setWatching(!next);
      toast(FORUM_MESSAGES.actionFailed, 'danger');
    }
  }

  return (
    <button
      type="button"
      aria-pressed={watching}
      onClick={() => void click()}
      className={clsx(buttonClass(watching ? 'primary' : 'secondary'), 'rounded-full px-4')}
      title={
        watching ? 'You get a notification for new posts. Click to stop watching.' : 'Get a notification for new posts'
      }
    >
      {watching ? <Bell aria-hidden className="size-5" /> : <BellOff aria-hidden className="size-5" />}
      {watching ? FORUM_MESSAGES.watching : FORUM_MESSAGES.watch}
    </button>
  );
}
