import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { ImagePlus, X } from 'lucide-react';
import clsx from 'clsx';
import { COMMUNITY, COMMUNITY_MESSAGES, type PostDto } from '#shared/community';
import { DISCUSSION_WORDING, type PostType } from '#shared/discussion';
import { ApiError, errorMessage } from '#client/lib/api.ts';
import { FieldMessage, FormError } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { postCalls } from '../api/posts.ts';
import { UserText } from '#client/components/ui/user-text.tsx';

const draftKey = (type: PostType, resourceId: number, parentId: number | null) =>
  `bb.draft.${type}.${resourceId}.${parentId ?? 'top'}`;
function readDraft(key: string) {
  try {
    return window.localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}
function writeDraft(key: string, text: string) {
  try {
    if (text) window.localStorage.setItem(key, text);
    else window.localStorage.removeItem(key);
  } catch {
    // private mode: drafts are not kept
  }
}

/**
 * A textarea that grows with its content. An empty box keeps its `rows` height without being measured:
 * reading scrollHeight lays out the whole page there and then, which on a page's first render (every
 * discussion has an empty reply box) would cost a lesson page main-thread time before it shows.
 */
function useAutoGrow(ref: React.RefObject<HTMLTextAreaElement | null>, value: string) {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (!value) {
      el.style.height = '';
      return;
    }
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight + 2, 480)}px`;
  }, [ref, value]);
}

interface Props {
  type: PostType;
  resourceId: number;
  /** null: a new top-level post */
  parentId: number | null;
  /** the post answered (shows "Replying to ...") */
  replyingTo?: { id: number; name: string } | null;
  onPosted: (post: PostDto) => void;
  onCancel?: () => void;
  autoFocus?: boolean;
  label?: string;
}

/**
 * The reply form (docs/product/discussion.md): textarea ('Type your reply...'), attach button, a Post button with a
 * spinner that blocks double submits, a removable attachment preview. The unsent text is kept in
 * local storage per reply box, so it survives a reload.
 */
export function ReplyForm({
  type,
  resourceId,
  parentId,
  replyingTo = null,
  onPosted,
  onCancel,
  autoFocus = false,
  label,
}: Props) {
  const key = draftKey(type, resourceId, parentId);
  const [body, setBody] = useState(() => readDraft(key));
  const [attachment, setAttachment] = useState<{ filename: string; url: string } | null>(null);
  const [uploading, setUploading] = useState(false);
  const [sending, setSending] = useState(false);
  const feedback = useFormFeedback();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const id = useId();
  useAutoGrow(textRef, body);
  useEffect(() => {
    if (autoFocus) textRef.current?.focus();
  }, [autoFocus]);

  if (!pageConfig().authId) {
    return (
      <p className="text-muted">
        <a
          href={`/login?to=${encodeURIComponent(window.location.pathname)}`}
          className="font-semibold text-accent underline"
        >
          Sign in
        </a>{' '}
        to join the discussion.
      </p>
    );
  }

  const change = (text: string) => {
    setBody(text);
    writeDraft(key, text);
    feedback.edited('body');
  };

  async function pick(file: File | undefined) {
    if (!file) return;
    feedback.clear();
    setUploading(true);
    try {
      if (attachment) await postCalls.deleteUpload(attachment.filename).catch(() => undefined);
      setAttachment(await postCalls.upload(file));
    } catch (err) {
      setAttachment(null);
      // the server's own words are the line said beside the attach button (which keeps focus): the
      // attachment is refused as it is chosen, before there is anything to correct in the reply
      feedback.show({}, errorMessage(err, ['file']));
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  }

  async function removeAttachment() {
    const current = attachment;
    setAttachment(null);
    if (current) await postCalls.deleteUpload(current.filename).catch(() => undefined);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const text = body.trim();
    if (!text || sending || uploading) return;
    setSending(true);
    feedback.clear();
    try {
      const { post } = await postCalls.create({
        type,
        resource_id: resourceId,
        parent_id: parentId,
        replying_to: replyingTo?.id ?? null,
        body: text,
        attachment: attachment?.filename ?? null,
      });
      setBody('');
      writeDraft(key, '');
      setAttachment(null);
      onPosted(post);
    } catch (err) {
      feedback.fail(err, err instanceof ApiError ? err.firstError(['parent_id', 'replying_to']) : undefined);
    } finally {
      setSending(false);
    }
  }

  const empty = body.trim().length === 0;
  return (
    <form ref={feedback.formRef} onSubmit={submit} className="flex flex-col gap-2" data-testid="reply-form">
      {replyingTo ? (
        <p className="text-sm text-muted">
          {DISCUSSION_WORDING.replyingTo} <UserText className="font-semibold text-fg">{replyingTo.name}</UserText>
        </p>
      ) : null}
      <label htmlFor={id} className="sr-only">
        {label ?? (replyingTo ? `Reply to ${replyingTo.name}` : 'Your reply')}
      </label>
      <textarea
        ref={textRef}
        id={id}
        value={body}
        rows={2}
        maxLength={COMMUNITY.postBodyMax}
        placeholder={COMMUNITY_MESSAGES.replyPlaceholder}
        onChange={(e) => change(e.target.value)}
        {...invalidProps(feedback.errors.body, `${id}-body-err`)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && onCancel) onCancel();
        }}
        className="min-h-12 w-full resize-none overflow-hidden rounded-xl border border-line bg-surface px-4 py-3 text-base text-fg placeholder:text-muted focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-danger"
      />
      {attachment ? (
        <div className="relative w-fit">
          <img
            src={attachment.url}
            alt="Attachment preview"
            className="max-h-32 rounded-lg border border-line object-contain"
          />
          <button
            type="button"
            onClick={removeAttachment}
            aria-label="Remove attachment"
            className="absolute -right-3 -top-3 grid size-11 place-items-center rounded-full text-fg"
          >
            <span className="grid size-7 place-items-center rounded-full border border-line bg-surface shadow">
              <X aria-hidden className="size-4" />
            </span>
          </button>
        </div>
      ) : null}
      <FieldMessage id={`${id}-body-err`} message={feedback.errors.body} />
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={fileRef}
          type="file"
          accept="image/png,image/jpeg,image/gif"
          className="sr-only"
          id={`${id}-file`}
          aria-label="Attach an image"
          tabIndex={-1}
          onChange={(e) => pick(e.target.files?.[0])}
        />
        <button
          type="button"
          onClick={() => fileRef.current?.click()}
          disabled={uploading}
          aria-label="Attach an image"
          title="Attach an image"
          className="grid size-11 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg disabled:opacity-60"
        >
          {uploading ? <Spinner label="Uploading" /> : <ImagePlus aria-hidden className="size-5" />}
        </button>
        <div className="ml-auto flex items-center gap-2">
          {onCancel ? (
            <Button variant="ghost" onClick={onCancel}>
              Cancel
            </Button>
          ) : null}
          <Button
            type="submit"
            disabled={empty || sending || uploading}
            aria-busy={sending}
            className={clsx(empty && 'opacity-60')}
          >
            {sending ? <Spinner label="Posting" className="[&_svg]:text-accent-fg" /> : null}
            Post
          </Button>
        </div>
      </div>
      <FormError message={feedback.summary} inline />
    </form>
  );
}
