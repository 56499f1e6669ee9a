import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { hashPostId, type PostType } from '#shared/discussion';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { firstPosts, postCalls } from '../api/posts.ts';
import { ReplyForm } from './reply-form.tsx';
import { scrollToPost, ThreadList, useFirstPage, usePostList } from './thread-list.tsx';

export { ReplyForm } from './reply-form.tsx';
export { PostBody, PostText } from './post-body.tsx';

const THREAD_FAILED = "We couldn't load this discussion. Please refresh the page to try again.";

interface Props {
  type: PostType;
  resourceId: number;
  /** false for a locked topic (admins may still reply) */
  canReply?: boolean;
  /** open in individual thread mode on this post (the /posts/{id} page) instead of the address hash */
  threadPostId?: number | null;
}

/**
 * The discussion thread (docs/product/discussion.md): a reply box, parents newest first with their indented replies,
 * "Load more...", and individual thread mode when the address hash holds a numeric post id.
 */
export function Discussion({ type, resourceId, canReply = true, threadPostId = null }: Props) {
  const [threadId, setThreadId] = useState<number | null>(() => threadPostId ?? hashPostId(window.location.hash));
  // the whole discussion's first page, when the page came with it: shown by the first render
  const [first, firstShown] = useFirstPage(() => (threadId === null ? firstPosts.thread(type, resourceId) : undefined));
  const list = usePostList(first?.posts);
  const { setPosts, addParent } = list;
  const [state, setState] = useState<'loading' | 'ready' | 'error'>(first ? 'ready' : 'loading');
  const [more, setMore] = useState(first?.more ?? false);
  const [from, setFrom] = useState<number | null>(first?.from ?? null);
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);

  const load = useCallback(
    async (focus: number | null) => {
      const gen = ++generation.current;
      setState('loading');
      try {
        if (focus) {
          const res = await postCalls.conversation(type, resourceId, focus);
          if (gen !== generation.current) return;
          setPosts(res.posts);
          setMore(false);
          setFrom(null);
          setState('ready');
          scrollToPost(focus);
        } else {
          const res = await postCalls.thread(type, resourceId, null);
          if (gen !== generation.current) return;
          // a transition: a long thread renders in slices that leave the page responsive
          startTransition(() => {
            setPosts(res.posts);
            setMore(res.more);
            setFrom(res.from);
            setState('ready');
          });
        }
      } catch {
        if (gen === generation.current) setState('error');
      }
    },
    [type, resourceId, setPosts],
  );

  useEffect(() => {
    if (firstShown()) return;
    void load(threadId);
  }, [load, threadId, firstShown]);

  useEffect(() => {
    if (threadPostId) return;
    const onHash = () => setThreadId(hashPostId(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [threadPostId]);

  async function loadMore() {
    if (!from || loadingMore) return;
    setLoadingMore(true);
    try {
      const res = await postCalls.thread(type, resourceId, from);
      setPosts((list) => [...list, ...res.posts.filter((p) => !list.some((x) => x.id === p.id))]);
      setMore(res.more);
      setFrom(res.from);
    } catch {
      // thread failures are ignored; the link stays
    } finally {
      setLoadingMore(false);
    }
  }

  function seeFullDiscussion() {
    // clears the hash, resets the list and loads from the start
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    setPosts([]);
    if (threadId === null) void load(null);
    setThreadId(null);
  }

  return (
    <section aria-label="Discussion" className="flex flex-col gap-4" data-testid="discussion">
      {canReply && threadId === null ? (
        <ReplyForm
          type={type}
          resourceId={resourceId}
          parentId={null}
          label="Write a new post"
          onPosted={(p) => {
            addParent(p);
            scrollToPost(p.id);
          }}
        />
      ) : null}
      {threadId !== null ? (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-accent/10 px-4 py-2"
        >
          <span className="font-semibold">{COMMUNITY_MESSAGES.individualThread}</span>
          <button
            type="button"
            onClick={seeFullDiscussion}
            className="min-h-11 rounded-lg px-2 font-semibold text-accent-strong underline underline-offset-2"
          >
            {COMMUNITY_MESSAGES.seeFullDiscussion}
          </button>
        </div>
      ) : null}
      {state === 'loading' ? (
        <Spinner className="w-full py-8" label="Loading the discussion" />
      ) : state === 'error' ? (
        <p role="alert" className="rounded-xl bg-danger-soft px-4 py-3 font-medium text-danger">
          {type === 'lesson' ? COMMUNITY_MESSAGES.lessonDiscussionFailed : THREAD_FAILED}
        </p>
      ) : (
        <>
          {list.posts.length === 0 ? (
            <p className="text-muted">{canReply ? 'No replies yet. Start the conversation.' : 'No replies yet.'}</p>
          ) : null}
          <ThreadList type={type} resourceId={resourceId} list={list} highlightId={threadId} canReply={canReply} />
          {more ? (
            <button
              type="button"
              onClick={loadMore}
              disabled={loadingMore}
              className="min-h-11 self-center rounded-lg px-4 font-semibold text-accent hover:underline"
            >
              {loadingMore ? 'Loading...' : COMMUNITY_MESSAGES.loadMore}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
