import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { formatDistanceToNow } from 'date-fns';
import { MessageSquareReply, Trash2 } from 'lucide-react';
import clsx from 'clsx';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { WALL_TEXT, type WallCommentDto } from '#shared/wall';
import { pageConfig } from '#client/lib/page-config.ts';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { ReportButton } from '#client/components/report-dialog.tsx';
import { flatten, useDeleteComment, usePostComment, useWall } from '../api/wall.ts';
import { exactTimeTitle } from '#client/lib/dates.ts';
import { UserText } from '#client/components/ui/user-text.tsx';

/** A textarea that grows with its content, with its message under it. */
function GrowingTextarea({
  value,
  onChange,
  placeholder,
  label,
  autoFocus,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder: string;
  label: string;
  autoFocus?: boolean;
  error: string | undefined;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const errorId = `${useId()}-err`;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [value]);
  return (
    <>
      <textarea
        ref={ref}
        aria-label={label}
        rows={2}
        autoFocus={autoFocus}
        maxLength={COMMUNITY.wallBodyMax}
        placeholder={placeholder}
        className={clsx(inputClass, 'max-h-96 min-h-12 resize-none overflow-y-auto py-3')}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...invalidProps(error, errorId)}
      />
      <FieldMessage id={errorId} message={error} />
    </>
  );
}

/**
 * The composer (top level) or a reply box: Post is disabled while the text is empty; an empty text is
 * never sent. A refused comment is shown as every form shows it (components/ui/form-feedback.ts).
 */
function Composer({
  slug,
  ownerId,
  parentId,
  onDone,
  autoFocus,
}: {
  slug: string;
  ownerId: number;
  parentId: number | null;
  onDone?: () => void;
  autoFocus?: boolean;
}) {
  const [body, setBody] = useState('');
  const postComment = usePostComment(slug);
  const feedback = useFormFeedback();
  const empty = body.trim() === '';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (empty || postComment.isPending) return;
    feedback.clear();
    try {
      await postComment.mutateAsync({ body: body.trim(), to_id: ownerId, parent_id: parentId });
      setBody('');
      onDone?.();
    } catch (err) {
      feedback.fail(err, COMMUNITY_MESSAGES.wallPostFailed);
    }
  };
  return (
    <form
      ref={feedback.formRef}
      onSubmit={submit}
      className="flex flex-col gap-2"
      data-testid={parentId ? `reply-form-${parentId}` : 'wall-composer'}
    >
      <GrowingTextarea
        value={body}
        onChange={(v) => {
          setBody(v);
          feedback.edited('body');
        }}
        error={feedback.error('body')}
        autoFocus={autoFocus}
        label={parentId ? 'Your reply' : 'Write on this wall'}
        placeholder={parentId ? WALL_TEXT.replyPlaceholder : WALL_TEXT.placeholder}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={empty || postComment.isPending} className={clsx(empty && 'opacity-50')}>
          {postComment.isPending ? <Spinner label="Posting" className="[&_svg]:text-accent-fg" /> : null}
          Post
        </Button>
      </div>
      <FormError message={feedback.summary} inline />
    </form>
  );
}

function CommentBody({
  c,
  onDelete,
  children,
}: {
  c: WallCommentDto;
  onDelete: (c: WallCommentDto) => void;
  children?: React.ReactNode;
}) {
  const me = pageConfig().authId;
  const when = new Date(c.created_at);
  return (
    <div className="flex gap-3">
      {c.permalink ? (
        <a href={c.permalink} tabIndex={-1} aria-hidden className="shrink-0">
          <Avatar src={c.avatar_url} name="" size={40} />
        </a>
      ) : (
        <Avatar src={c.avatar_url} name="" size={40} />
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2">
          {c.permalink ? (
            <a href={c.permalink} className={clsx('font-semibold hover:underline', c.admin && 'text-success')}>
              <UserText>{c.author}</UserText>
            </a>
          ) : (
            <UserText className="font-semibold text-muted">{c.author}</UserText>
          )}
          <time dateTime={c.created_at} {...exactTimeTitle(when)} className="text-sm text-muted">
            {formatDistanceToNow(when, { addSuffix: true })}
          </time>
        </div>
        <p className="mt-1 whitespace-pre-wrap wrap-anywhere">{c.body}</p>
        <div className="-ml-2 mt-1 flex flex-wrap items-center gap-1">
          {children}
          {c.can_delete ? (
            <button
              type="button"
              onClick={() => onDelete(c)}
              aria-label={`Delete comment by ${c.author}`}
              className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-lg px-2 text-sm text-muted hover:bg-surface-2 hover:text-danger"
            >
              <Trash2 aria-hidden className="size-4" /> Delete
            </button>
          ) : null}
          {c.user_id !== null && c.user_id !== me ? <ReportButton kind="wall" id={c.id} /> : null}
        </div>
      </div>
    </div>
  );
}

function Thread({
  c,
  slug,
  ownerId,
  onDelete,
}: {
  c: WallCommentDto;
  slug: string;
  ownerId: number;
  onDelete: (c: WallCommentDto) => void;
}) {
  const [shown, setShown] = useState<number>(COMMUNITY.wallRepliesStep);
  const [replying, setReplying] = useState(false);
  const visible = c.children.slice(0, shown);
  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:px-5" data-testid={`wall-comment-${c.id}`}>
      <CommentBody c={c} onDelete={onDelete}>
        <button
          type="button"
          aria-expanded={replying}
          onClick={() => setReplying((r) => !r)}
          className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-lg px-2 text-sm text-muted hover:bg-surface-2 hover:text-fg"
        >
          <MessageSquareReply aria-hidden className="size-4" /> Reply
        </button>
      </CommentBody>
      {visible.length ? (
        <ul
          className="ml-6 flex flex-col gap-3 border-l-2 border-line pl-4 sm:ml-12"
          aria-label={`Replies to ${c.author}`}
        >
          {visible.map((r) => (
            <li key={r.id} data-testid={`wall-comment-${r.id}`}>
              <CommentBody c={r} onDelete={onDelete} />
            </li>
          ))}
        </ul>
      ) : null}
      {c.children.length > shown ? (
        <button
          type="button"
          onClick={() => setShown((n) => n + COMMUNITY.wallRepliesStep)}
          className="ml-6 min-h-11 self-start rounded-lg px-2 text-sm font-semibold text-accent-strong hover:underline sm:ml-12"
        >
          {WALL_TEXT.loadMoreReplies}
        </button>
      ) : null}
      {replying ? (
        <div className="ml-6 sm:ml-12">
          <Composer
            slug={slug}
            ownerId={ownerId}
            parentId={c.id}
            autoFocus
            onDone={() => {
              setReplying(false);
              // the new reply is the last one: show it
              setShown(Number.MAX_SAFE_INTEGER);
            }}
          />
        </div>
      ) : null}
    </li>
  );
}

/** Wall comments (docs/product/profile-and-wall.md): composer, newest first, replies, delete, report, paging. */
export function ProfileWall({ slug, ownerId }: { slug: string; ownerId: number }) {
  const wall = useWall(slug);
  const remove = useDeleteComment(slug);
  const [confirm, dialog] = useConfirm();
  const headingId = useId();
  const comments = flatten(wall.data);

  const onDelete = async (c: WallCommentDto) => {
    if (!(await confirm(COMMUNITY_MESSAGES.wallDeleteConfirm, { confirmLabel: 'Delete', danger: true }))) return;
    try {
      await remove.mutateAsync(c.id);
    } catch {
      toast(COMMUNITY_MESSAGES.wallDeleteFailed, 'danger');
    }
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4" data-testid="profile-wall">
      <h2 id={headingId} className="text-xl font-bold">
        Wall
      </h2>
      <div className="rounded-2xl border border-line bg-surface p-4 sm:p-5">
        <Composer slug={slug} ownerId={ownerId} parentId={null} />
      </div>
      {wall.isPending ? (
        <Spinner />
      ) : wall.isError ? (
        <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">
          {COMMUNITY_MESSAGES.wallLoadFailed}
        </p>
      ) : comments.length === 0 ? (
        <p className="text-muted">{COMMUNITY_MESSAGES.wallEmpty}</p>
      ) : (
        <ul className="divide-y divide-line rounded-2xl border border-line bg-surface">
          {comments.map((c) => (
            <Thread key={c.id} c={c} slug={slug} ownerId={ownerId} onDelete={onDelete} />
          ))}
        </ul>
      )}
      {wall.hasNextPage ? (
        <Button
          variant="secondary"
          className="self-center"
          disabled={wall.isFetchingNextPage}
          onClick={() => void wall.fetchNextPage()}
        >
          {wall.isFetchingNextPage ? <Spinner label="Loading older comments" /> : null}
          {WALL_TEXT.olderComments}
        </Button>
      ) : null}
      {dialog}
    </section>
  );
}
