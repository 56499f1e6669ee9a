import { startTransition, useCallback, useEffect, useId, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, ExternalLink } from 'lucide-react';
import { COMMUNITY_MESSAGES, DISCUSSION_SORTS, type DiscussionSort } from '#shared/community';
import { DISCUSSION_WORDING, hashPostId } from '#shared/discussion';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { firstPosts, postCalls } from '../api/posts.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { openPostsModal, PostsModal } from './posts-modal.tsx';
import { ReplyForm } from './reply-form.tsx';
import { scrollToPost, ThreadList, useFirstPage, usePostList } from './thread-list.tsx';

const SORT_LABELS: Record<DiscussionSort, string> = { upvoted: 'Most liked', newest: 'Newest', oldest: 'Oldest' };

/** The `to` focus mode comes from ?to= or a numeric address hash (a lesson post's permalink). */
function initialTo(): number | null {
  const q = Number(new URLSearchParams(window.location.search).get('to'));
  return Number.isInteger(q) && q > 0 ? q : hashPostId(window.location.hash);
}

/** Lesson discussion (docs/product/discussion.md): sorted (upvoted by default, newest, oldest), paged, 'to' focus. */
export function LessonDiscussion({ lessonId }: { lessonId: number }) {
  const [sort, setSort] = useState<DiscussionSort>('upvoted');
  const [page, setPage] = useState(1);
  const [to, setTo] = useState<number | null>(initialTo);
  // the first page in the default order, when the page came with it: shown by the first render
  const [first, firstShown] = useFirstPage(() =>
    to === null ? firstPosts.inline('lesson', lessonId, sort) : undefined,
  );
  const list = usePostList(first?.posts.data);
  const { setPosts, addParent } = list;
  const [pages, setPages] = useState(first?.pages ?? 1);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>(first ? 'ready' : 'loading');
  const generation = useRef(0);
  const sortId = useId();
  const topRef = useRef<HTMLElement>(null);

  const load = useCallback(async () => {
    const gen = ++generation.current;
    setState('loading');
    try {
      const res = await postCalls.inline('lesson', lessonId, sort, page, to);
      if (gen !== generation.current) return;
      // a transition: a long discussion renders in slices that leave the page responsive
      startTransition(() => {
        setPosts(res.posts.data);
        setPages(res.pages);
        setState('ready');
      });
      if (to) scrollToPost(to);
    } catch {
      if (gen === generation.current) setState('error');
    }
  }, [lessonId, sort, page, to, setPosts]);

  useEffect(() => {
    if (firstShown()) return;
    void load();
  }, [load, firstShown]);

  useEffect(() => {
    const onHash = () => {
      const id = hashPostId(window.location.hash);
      if (id) setTo(id);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  function seeEntireConversation() {
    const url = new URL(window.location.href);
    url.searchParams.delete('to');
    url.hash = '';
    window.history.replaceState(window.history.state, '', url.pathname + url.search);
    setPage(1);
    setTo(null);
  }

  function goTo(p: number) {
    setPage(p);
    topRef.current?.scrollIntoView({ block: 'start' });
  }

  return (
    <section
      ref={topRef}
      aria-labelledby={`${sortId}-title`}
      className="flex scroll-mt-24 flex-col gap-4"
      data-testid="lesson-discussion"
    >
      {/* a member's page frame holds the posts modal on every page; a visitor's has none */}
      {pageConfig().authId === null ? <PostsModal /> : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${sortId}-title`} className="text-xl font-bold">
          Discussion
        </h2>
        {to === null ? (
          <div className="flex items-center gap-2">
            <label htmlFor={sortId} className="text-sm font-semibold text-muted">
              Sort by
            </label>
            <select
              id={sortId}
              value={sort}
              onChange={(e) => {
                setSort(e.target.value as DiscussionSort);
                setPage(1);
              }}
              className="min-h-11 rounded-xl border border-line bg-surface px-3 text-base"
            >
              {DISCUSSION_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      {to === null ? (
        <ReplyForm
          type="lesson"
          resourceId={lessonId}
          parentId={null}
          label="Ask a question or share your progress"
          onPosted={(p) => {
            addParent(p);
            scrollToPost(p.id);
          }}
        />
      ) : (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-accent/10 px-4 py-2"
        >
          <span className="font-semibold">{COMMUNITY_MESSAGES.individualThread}</span>
          <span className="flex flex-wrap gap-1">
            <button
              type="button"
              onClick={() => openPostsModal(`/posts/${to}?embed=1`)}
              className="inline-flex min-h-11 items-center gap-1 rounded-lg px-2 text-sm font-semibold text-muted hover:text-fg"
            >
              <ExternalLink aria-hidden className="size-4" /> {DISCUSSION_WORDING.openInModal}
            </button>
            <button
              type="button"
              onClick={seeEntireConversation}
              // the strong accent: the plain one falls under 4.5:1 on the thread's tinted line
              className="min-h-11 rounded-lg px-2 font-semibold text-accent-strong underline underline-offset-2"
            >
              {COMMUNITY_MESSAGES.seeEntireConversation}
            </button>
          </span>
        </div>
      )}
      {state === 'loading' ? (
        <Spinner className="w-full py-8" label="Loading the discussion" />
      ) : state === 'error' ? (
        <div
          role="alert"
          className="flex flex-col items-start gap-2 rounded-xl bg-danger-soft px-4 py-3 font-medium text-danger"
        >
          {COMMUNITY_MESSAGES.lessonDiscussionFailed}
          {to !== null ? (
            <button
              type="button"
              onClick={seeEntireConversation}
              className="min-h-11 font-semibold text-accent underline"
            >
              {COMMUNITY_MESSAGES.seeEntireConversation}
            </button>
          ) : null}
        </div>
      ) : (
        <>
          {list.posts.length === 0 ? (
            <p className="text-muted">No questions yet. Be the first to start the discussion.</p>
          ) : null}
          <ThreadList type="lesson" resourceId={lessonId} list={list} highlightId={to} />
          {pages > 1 && to === null ? (
            <nav aria-label="Discussion pages" className="flex items-center justify-center gap-2">
              <button
                type="button"
                disabled={page <= 1}
                onClick={() => goTo(page - 1)}
                aria-label="Previous page"
                className="grid size-11 place-items-center rounded-full border border-line disabled:opacity-40"
              >
                <ChevronLeft aria-hidden className="size-5" />
              </button>
              <span className="text-sm font-semibold" aria-live="polite">
                Page {page} of {pages}
              </span>
              <button
                type="button"
                disabled={page >= pages}
                onClick={() => goTo(page + 1)}
                aria-label="Next page"
                className="grid size-11 place-items-center rounded-full border border-line disabled:opacity-40"
              >
                <ChevronRight aria-hidden className="size-5" />
              </button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
