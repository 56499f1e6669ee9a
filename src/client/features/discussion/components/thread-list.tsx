import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { COMMUNITY, COMMUNITY_MESSAGES, type PostDto } from '#shared/community';
import { DISCUSSION_WORDING, type PostType } from '#shared/discussion';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { focusedElement } from '#client/components/ui/return-focus.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { postCalls } from '../api/posts.ts';
import { PostItem } from './post-item.tsx';
import { ReplyForm } from './reply-form.tsx';

/**
 * After a reply: the page scrolls smoothly to the new post after 50 ms, and focus follows it, unless the
 * member has already moved focus on (a quick keyboard user may have opened another box in those 50 ms).
 */
export function scrollToPost(id: number) {
  const focusedBefore = focusedElement();
  window.setTimeout(() => {
    const el = document.getElementById(String(id));
    if (!el) return;
    el.scrollIntoView({
      behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
      block: 'center',
    });
    const focused = focusedElement();
    if (focused === null || focused === focusedBefore) el.focus({ preventScroll: true });
  }, COMMUNITY.scrollDelayMs);
}

/**
 * A discussion's first page from the page's first answers (api/posts.ts `firstPosts`): `first` seeds the
 * state, so the first render shows the posts. `firstShown()` is true once, on the mount that shows it: the
 * answer is taken then (not during a render React may drop) and that mount skips its load.
 */
export function useFirstPage<A>(peek: () => { answer: A; take: () => void } | undefined) {
  const [first] = useState(peek);
  const pending = useRef(first);
  const firstShown = useCallback(() => {
    const shown = pending.current;
    pending.current = undefined;
    shown?.take();
    return shown !== undefined;
  }, []);
  return [first?.answer, firstShown] as const;
}

/** The thread's list operations: a new parent to the top, a new child appended, an edit replaces the post. */
export function usePostList(initial: PostDto[] = []) {
  const [posts, setPosts] = useState<PostDto[]>(initial);
  const addParent = useCallback((p: PostDto) => setPosts((list) => [p, ...list.filter((x) => x.id !== p.id)]), []);
  const addChild = useCallback(
    (parentId: number, p: PostDto) =>
      setPosts((list) =>
        list.map((x) => (x.id === parentId ? { ...x, children: [...x.children.filter((c) => c.id !== p.id), p] } : x)),
      ),
    [],
  );
  const replace = useCallback(
    (p: PostDto) =>
      setPosts((list) =>
        list.map((x) =>
          x.id === p.id
            ? { ...p, children: x.children, moreChildren: x.moreChildren }
            : { ...x, children: x.children.map((c) => (c.id === p.id ? { ...p, children: [] } : c)) },
        ),
      ),
    [],
  );
  return { posts, setPosts, addParent, addChild, replace };
}

interface Props {
  type: PostType;
  resourceId: number;
  list: ReturnType<typeof usePostList>;
  highlightId?: number | null;
  canReply?: boolean;
}

/** Parents with their indented replies, reply boxes, in-page editing and deleting. */
export function ThreadList({ type, resourceId, list, highlightId = null, canReply = true }: Props) {
  const { posts, setPosts, addChild, replace } = list;
  const [replyBox, setReplyBox] = useState<{ parentId: number; to: { id: number; name: string } } | null>(null);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [loadingMore, setLoadingMore] = useState<number | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const rootRef = useRef<HTMLDivElement>(null);
  const signedIn = pageConfig().authId !== null;

  // the in-page editor intercepts /forums/post/{id}/edit links to posts of this thread
  const intercept = (e: MouseEvent<HTMLDivElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as HTMLElement).closest('a');
    const m = a ? /^\/forums\/post\/(\d+)\/edit$/.exec(a.getAttribute('href') ?? '') : null;
    if (!m) return;
    const id = Number(m[1]);
    const here = posts.some((p) => p.id === id || p.children.some((c) => c.id === id));
    if (!here) return;
    e.preventDefault();
    setEditingId(id);
  };

  async function remove(p: PostDto) {
    if (!(await confirm(COMMUNITY_MESSAGES.deletePostConfirm, { confirmLabel: 'Delete', danger: true }))) return;
    try {
      await postCalls.remove(p.id);
      window.location.reload();
    } catch {
      // a failed delete is ignored
    }
  }

  async function showAll(parent: PostDto) {
    setLoadingMore(parent.id);
    try {
      const { posts: thread } = await postCalls.conversation(type, resourceId, parent.id);
      const full = thread[0];
      if (full)
        setPosts((all) =>
          all.map((x) => (x.id === parent.id ? { ...x, children: full.children, moreChildren: 0 } : x)),
        );
    } catch {
      // stays collapsed
    } finally {
      setLoadingMore(null);
    }
  }

  // the control that opened the reply box ("Reply" on a post, or the thread's "Post a comment", which the
  // box takes the place of): Cancel and Escape give focus back to it, or to the thread's button again
  const replyOpener = useRef<{ el: Element | null; parentId: number } | null>(null);
  const [focusBack, setFocusBack] = useState<number | null>(null);
  const openReply = (parent: PostDto, to: PostDto) => {
    replyOpener.current = { el: document.activeElement, parentId: parent.id };
    setReplyBox({ parentId: parent.id, to: { id: to.id, name: to.user } });
  };
  const cancelReply = () => {
    setReplyBox(null);
    setFocusBack(replyOpener.current?.parentId ?? null);
  };
  useEffect(() => {
    if (focusBack === null) return;
    setFocusBack(null);
    const opener = replyOpener.current?.el;
    const target =
      opener instanceof HTMLElement && opener.isConnected
        ? opener
        : rootRef.current?.querySelector<HTMLElement>(`[data-post-comment="${focusBack}"]`);
    target?.focus();
  }, [focusBack]);

  useEffect(() => {
    if (editingId !== null) document.getElementById(String(editingId))?.scrollIntoView({ block: 'nearest' });
  }, [editingId]);

  return (
    <div ref={rootRef} onClick={intercept} className="flex flex-col gap-4">
      {confirmDialog}
      {posts.map((parent) => {
        const replyable = canReply && signedIn && !(parent.trashed || parent.userId === null);
        return (
          <div
            key={parent.id}
            className="rounded-2xl border border-line bg-surface p-3 sm:p-4"
            data-testid="thread-parent"
          >
            <PostItem
              post={parent}
              highlighted={highlightId === parent.id}
              editing={editingId === parent.id}
              onEdit={(on) => setEditingId(on ? parent.id : null)}
              onReply={replyable ? () => openReply(parent, parent) : undefined}
              onUpdated={replace}
              onDelete={remove}
            />
            {parent.children.length || parent.moreChildren ? (
              <div className="ml-5 mt-1 flex flex-col gap-1 border-l-2 border-line pl-2 sm:ml-14 sm:pl-3">
                {parent.children.map((c) => (
                  <PostItem
                    key={c.id}
                    post={c}
                    child
                    highlighted={highlightId === c.id}
                    editing={editingId === c.id}
                    onEdit={(on) => setEditingId(on ? c.id : null)}
                    onReply={replyable ? () => openReply(parent, c) : undefined}
                    onUpdated={replace}
                    onDelete={remove}
                  />
                ))}
                {parent.moreChildren > 0 ? (
                  <button
                    type="button"
                    onClick={() => showAll(parent)}
                    disabled={loadingMore === parent.id}
                    className="min-h-11 self-start rounded-lg px-2 text-left text-sm font-semibold text-accent hover:underline"
                  >
                    {loadingMore === parent.id ? 'Loading...' : DISCUSSION_WORDING.viewMore(parent.moreChildren)}
                  </button>
                ) : null}
              </div>
            ) : null}
            {replyable ? (
              <div className="ml-5 mt-2 sm:ml-14">
                {replyBox?.parentId === parent.id ? (
                  <ReplyForm
                    key={`${parent.id}-${replyBox.to.id}`}
                    type={type}
                    resourceId={resourceId}
                    parentId={parent.id}
                    replyingTo={replyBox.to}
                    autoFocus
                    onCancel={cancelReply}
                    onPosted={(p) => {
                      addChild(parent.id, p);
                      setReplyBox(null);
                      scrollToPost(p.id);
                    }}
                  />
                ) : (
                  <button
                    type="button"
                    data-post-comment={parent.id}
                    onClick={() => openReply(parent, parent)}
                    className="min-h-11 rounded-lg px-2 text-sm font-semibold text-muted hover:text-fg hover:underline"
                  >
                    {DISCUSSION_WORDING.postComment}
                  </button>
                )}
              </div>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
