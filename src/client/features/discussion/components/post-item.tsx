import { formatDistanceToNow } from 'date-fns';
import type { ProfileDto } from '#shared/profile';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { Heart, Link2, MessageCircle, Pencil, Trash2, X } from 'lucide-react';
import clsx from 'clsx';
import { COMMUNITY, COMMUNITY_MESSAGES, type PostDto } from '#shared/community';
import { DISCUSSION_WORDING } from '#shared/discussion';
import { get } from '#client/lib/api.ts';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ReportButton } from '#client/components/report-dialog.tsx';
import { PostEditForm } from './post-edit-form.tsx';
import { postCalls } from '../api/posts.ts';
import { PostBody, PostText } from './post-body.tsx';
import { exactTimeTitle, formatWhen } from '#client/lib/dates.ts';
import { UserText } from '#client/components/ui/user-text.tsx';
import { focusedElement } from '#client/components/ui/return-focus.ts';

const timeAgo = (iso: string) => formatDistanceToNow(new Date(iso), { addSuffix: true });

/** Copies text to the clipboard, with the old fallback where the Clipboard API is refused. */
async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

type ProfileSummary = Pick<ProfileDto, 'name' | 'slug' | 'avatar_url' | 'admin' | 'stage' | 'status' | 'member_since'>;

/** The member's real profile summary in a card (at most 500 px wide) when the avatar or name is hovered or focused. */
function AuthorCard({ post, children }: { post: PostDto; children: ReactNode }) {
  const slug = post.profileUrl?.replace(/^\/profile\//, '') ?? null;
  const [open, setOpen] = useState(false);
  const timer = useRef<number | null>(null);
  const profile = useQuery({
    queryKey: ['discussion-profile', slug],
    queryFn: async () => (await get<{ data: ProfileSummary }>(`/api/profiles/${encodeURIComponent(slug!)}`)).data,
    enabled: open && !!slug,
    staleTime: 5 * 60_000,
  });
  useEffect(
    () => () => {
      if (timer.current) window.clearTimeout(timer.current);
    },
    [],
  );
  if (!slug) return <>{children}</>;
  const show = () => {
    if (timer.current) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setOpen(true), 250);
  };
  const hide = () => {
    if (timer.current) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setOpen(false), 150);
  };
  return (
    <span
      className="relative inline-flex"
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
    >
      {children}
      {open ? (
        <span
          role="tooltip"
          data-testid="hover-card"
          className="absolute left-0 top-full z-40 mt-2 flex w-[min(90vw,22rem)] gap-3 rounded-2xl border border-line bg-surface p-4 text-left shadow-xl"
          style={{ maxWidth: COMMUNITY.hoverCardMaxWidthPx }}
        >
          {profile.data ? (
            <>
              <Avatar src={profile.data.avatar_url} name="" size={56} />
              <span className="flex min-w-0 flex-col gap-1">
                <UserText className={clsx('font-bold', profile.data.admin && 'text-success')}>
                  {profile.data.name}
                </UserText>
                {profile.data.stage ? <span className="text-sm text-muted">{profile.data.stage.title}</span> : null}
                {profile.data.status ? <span className="line-clamp-3 text-sm">“{profile.data.status}”</span> : null}
                <span className="text-sm text-muted">
                  Member since {formatWhen(profile.data.member_since, 'en', { year: 'numeric', month: 'short' })}
                </span>
              </span>
            </>
          ) : profile.isError ? (
            <UserText className="text-sm text-muted">{post.user}</UserText>
          ) : (
            <Spinner label="Loading profile" />
          )}
        </span>
      ) : null}
    </span>
  );
}

/** "edited": opens the earlier versions of the post. */
function EditedLabel({ post }: { post: PostDto }) {
  const [open, setOpen] = useState(false);
  const revisions = useQuery({
    queryKey: ['post-revisions', post.id, post.editedAt],
    queryFn: async () => (await postCalls.revisions(post.id)).data,
    enabled: open,
  });
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        className="min-h-11 rounded px-1 text-sm text-muted underline decoration-dotted underline-offset-2 hover:text-fg"
        title={`Edited ${timeAgo(post.editedAt!)}`}
      >
        {DISCUSSION_WORDING.edited}
      </Dialog.Trigger>
      {open ? (
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-[900] bg-black/55" />
          <Dialog.Content className="fixed left-1/2 top-1/2 z-[901] max-h-[85vh] w-[calc(100vw-1.5rem)] max-w-xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-line bg-surface p-6 text-fg shadow-2xl">
            <div className="mb-4 flex items-start justify-between gap-4">
              <Dialog.Title className="text-xl font-bold">{DISCUSSION_WORDING.earlierVersions}</Dialog.Title>
              <Dialog.Description className="sr-only">Earlier versions of this post</Dialog.Description>
              <Dialog.Close
                aria-label="Close"
                className="-mr-2 -mt-2 grid size-11 place-items-center rounded-full text-muted hover:bg-surface-2"
              >
                <X aria-hidden className="size-5" />
              </Dialog.Close>
            </div>
            {revisions.isPending ? (
              <Spinner className="w-full py-6" />
            ) : revisions.isError ? (
              <p className="text-danger">{revisions.error.message}</p>
            ) : (
              <ol className="flex flex-col gap-4">
                {revisions.data.map((r) => (
                  <li key={r.id} className="rounded-xl border border-line bg-surface-2 p-3">
                    <p className="mb-1 text-sm text-muted">
                      Until {formatWhen(r.replaced_at, 'en', { dateStyle: 'medium', timeStyle: 'short' })} · edited by{' '}
                      <UserText>{r.edited_by}</UserText>
                    </p>
                    <PostText text={r.body} />
                  </li>
                ))}
              </ol>
            )}
          </Dialog.Content>
        </Dialog.Portal>
      ) : null}
    </Dialog.Root>
  );
}

interface PostItemProps {
  post: PostDto;
  /** a reply (indented, smaller avatar) */
  child?: boolean;
  highlighted?: boolean;
  editing: boolean;
  onEdit: (editing: boolean) => void;
  onReply?: (post: PostDto) => void;
  onUpdated: (post: PostDto) => void;
  onDelete: (post: PostDto) => void;
}

/** One post (docs/product/discussion.md): avatar, name, time, body, like, Reply, Share, Edit/Delete where permitted. */
export function PostItem({
  post,
  child = false,
  highlighted = false,
  editing,
  onEdit,
  onReply,
  onUpdated,
  onDelete,
}: PostItemProps) {
  const [liked, setLiked] = useState(post.authLiked);
  const [likes, setLikes] = useState(post.numLikes);
  const [copied, setCopied] = useState(false);
  const copiedTimer = useRef<number | null>(null);
  const articleRef = useRef<HTMLElement>(null);
  const wasEditing = useRef(editing);
  useEffect(() => {
    // the editor leaves with the focus it had (after Save or Cancel): focus goes back to the Edit link
    // that opened it, unless the member has already moved on to another control
    if (wasEditing.current && !editing && !focusedElement())
      articleRef.current?.querySelector<HTMLElement>('[data-edit-post]')?.focus();
    wasEditing.current = editing;
  }, [editing]);
  useEffect(() => {
    setLiked(post.authLiked);
    setLikes(post.numLikes);
  }, [post.authLiked, post.numLikes]);
  useEffect(
    () => () => {
      if (copiedTimer.current) window.clearTimeout(copiedTimer.current);
    },
    [],
  );

  const gone = post.trashed || post.userId === null;

  async function toggleLike() {
    const was = liked;
    setLiked(!was);
    setLikes((n) => Math.max(0, n + (was ? -1 : 1)));
    try {
      const res = await postCalls.like(post.id);
      setLiked(res.liked);
      setLikes(res.likes);
    } catch {
      setLiked(was);
      setLikes((n) => Math.max(0, n + (was ? 1 : -1)));
    }
  }

  async function share() {
    await copyText(`${window.location.origin}${post.permalink}#${post.id}`);
    setCopied(true);
    if (copiedTimer.current) window.clearTimeout(copiedTimer.current);
    copiedTimer.current = window.setTimeout(() => setCopied(false), COMMUNITY.copiedMs);
  }

  const action =
    'inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2 text-sm font-semibold text-muted hover:bg-surface-2 hover:text-fg';
  const name = gone ? (
    <span className="font-bold text-muted">{COMMUNITY_MESSAGES.deleted}</span>
  ) : post.profileUrl ? (
    <a
      href={post.profileUrl}
      className={clsx('font-bold hover:underline', post.admin ? 'text-success' : 'text-fg')}
      data-testid="post-author"
    >
      <UserText>{post.user}</UserText>
    </a>
  ) : (
    <span className={clsx('font-bold', post.admin ? 'text-success' : 'text-fg')} data-testid="post-author">
      <UserText>{post.user}</UserText>
    </span>
  );

  return (
    <article
      ref={articleRef}
      id={String(post.id)}
      data-post-id={post.id}
      aria-label={`Post by ${gone ? COMMUNITY_MESSAGES.deleted : post.user}`}
      tabIndex={-1}
      className={clsx(
        'flex scroll-mt-24 gap-3 rounded-xl p-2 outline-none transition-colors motion-reduce:transition-none',
        highlighted && 'bg-accent/10 ring-2 ring-accent/40',
      )}
    >
      {gone ? (
        <Avatar src={post.avatarUrl} name="" size={child ? 36 : 44} />
      ) : (
        <AuthorCard post={post}>
          <a href={post.profileUrl ?? '#'} aria-hidden tabIndex={-1} className="shrink-0">
            <Avatar src={post.avatarUrl} name="" size={child ? 36 : 44} />
          </a>
        </AuthorCard>
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2">
          {gone ? name : <AuthorCard post={post}>{name}</AuthorCard>}
          <time dateTime={post.createdAt} {...exactTimeTitle(post.createdAt)} className="text-sm text-muted">
            {timeAgo(post.createdAt)}
          </time>
          {post.editedAt && !gone ? <EditedLabel post={post} /> : null}
        </div>
        {post.replyingTo && post.replyingToPermalink ? (
          <p className="text-sm text-muted">
            {DISCUSSION_WORDING.replyingTo}{' '}
            <a href={post.replyingToPermalink} className="font-semibold text-fg hover:underline">
              <UserText>{post.replyingTo}</UserText>
            </a>
          </p>
        ) : null}
        {gone ? (
          <p className="mt-1 italic text-muted">This post was deleted.</p>
        ) : editing ? (
          <div className="mt-2">
            <PostEditForm
              post={post}
              label="Edit post"
              hideLabel
              autoFocus
              onSaved={(updated) => {
                onUpdated(updated);
                onEdit(false);
              }}
              onCancel={() => onEdit(false)}
              cancel={
                <Button variant="ghost" onClick={() => onEdit(false)}>
                  Cancel
                </Button>
              }
            />
          </div>
        ) : (
          <PostBody post={post} className="mt-1" />
        )}
        {!gone && !editing ? (
          <div className="-ml-2 mt-1 flex flex-wrap items-center gap-x-1" data-post-actions>
            <button
              type="button"
              onClick={toggleLike}
              aria-pressed={liked}
              aria-label={`${liked ? 'Unlike' : 'Like'}: ${likes} ${likes === 1 ? 'like' : 'likes'}`}
              className={clsx(action, liked && 'text-accent')}
            >
              <Heart aria-hidden className={clsx('size-4', liked && 'fill-current')} />
              <span data-testid="like-count">{likes}</span>
            </button>
            {onReply ? (
              <button type="button" onClick={() => onReply(post)} className={action}>
                <MessageCircle aria-hidden className="size-4" /> Reply
              </button>
            ) : null}
            <button type="button" onClick={share} className={action} aria-live="polite">
              <Link2 aria-hidden className="size-4" /> {copied ? COMMUNITY_MESSAGES.copied : 'Share'}
            </button>
            {post.canEdit ? (
              <>
                <a href={`/forums/post/${post.id}/edit`} data-edit-post={post.id} className={action}>
                  <Pencil aria-hidden className="size-4" /> Edit
                </a>
                <button type="button" onClick={() => onDelete(post)} className={action}>
                  <Trash2 aria-hidden className="size-4" /> Delete
                </button>
              </>
            ) : (
              <ReportButton kind="post" id={post.id} className={action} />
            )}
          </div>
        ) : null}
      </div>
    </article>
  );
}
