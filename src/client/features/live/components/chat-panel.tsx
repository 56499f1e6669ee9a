import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { ArrowDown, Heart, Pin, Send, ShieldCheck, Star, X } from 'lucide-react';
import clsx from 'clsx';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { LIVE, LIVE_MESSAGES } from '#shared/live';
import { pageConfig } from '#client/lib/page-config.ts';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { FieldMessage, FormError } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { ReportButton } from '#client/components/report-dialog.tsx';
import { useChat, type ChatMessage } from '../use-chat.ts';
import { formatWhen } from '#client/lib/dates.ts';
import { UserText } from '#client/components/ui/user-text.tsx';

/**
 * The pinned topic, three lines at most until asked for in full: on a phone the chat is one screen with
 * the video, and a long topic (a pasted link) would otherwise leave no room for the messages.
 */
function PinnedTopic({ text }: { text: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [whole, setWhole] = useState(false);
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || whole) return;
    const measure = () => setCut(el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text, whole]);
  return (
    <div className="min-w-0 flex-1">
      <p ref={ref} id="chat-topic-text" className={clsx('wrap-anywhere font-semibold', !whole && 'line-clamp-3')}>
        <span className="sr-only">Pinned topic: </span>
        {text}
      </p>
      {cut ? (
        <button
          type="button"
          aria-expanded={whole}
          aria-controls="chat-topic-text"
          onClick={() => setWhole(!whole)}
          className="-mx-1 min-h-11 px-1 text-sm font-semibold text-accent-strong underline"
        >
          {whole ? LIVE_MESSAGES.topicLess : LIVE_MESSAGES.topicWhole}
        </button>
      ) : null}
    </div>
  );
}

const timeOf = (seconds: number) => formatWhen(seconds * 1000, undefined, { hour: 'numeric', minute: '2-digit' });

/**
 * The live chat panel (docs/product/live.md): "Live" badge, pinned topic bar, message list with
 * "Load older...", and the input (enter sends; an empty message is not sent). Admins set the topic
 * with the star on a message and clear it from the bar. A refused message is shown as every form
 * shows it (components/ui/form-feedback.ts): the server's word on it under the input.
 */
export function ChatPanel({
  showId,
  live,
  chatOpen,
  className,
}: {
  showId: number;
  live: boolean;
  chatOpen: boolean;
  className?: string;
}) {
  const { state, loadOlder, send, toggleHeart, setTopic } = useChat(showId);
  const admin = pageConfig().admin;
  const listRef = useRef<HTMLOListElement>(null);
  const stick = useRef(true);
  const shape = useRef<{ first: number | undefined; last: number | undefined; height: number }>({
    first: undefined,
    last: undefined,
    height: 0,
  });
  const [unseen, setUnseen] = useState(false);
  const [text, setText] = useState('');
  const feedback = useFormFeedback();
  const error = feedback.error('body');

  // keep the newest message in view unless the viewer scrolled up; keep the place when older ones arrive
  const first = state.messages[0]?.id;
  const last = state.messages.at(-1)?.id;
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const before = shape.current;
    if (before.first !== undefined && first !== before.first && last === before.last) {
      el.scrollTop += el.scrollHeight - before.height;
    } else if (last !== before.last) {
      if (stick.current) el.scrollTop = el.scrollHeight;
      else setUnseen(true);
    }
    shape.current = { first, last, height: el.scrollHeight };
  }, [first, last, state.status]);

  const onScroll = () => {
    const el = listRef.current!;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < LIVE.stickToBottomPx;
    if (stick.current) setUnseen(false);
    shape.current.height = el.scrollHeight;
  };
  const toBottom = () => {
    const el = listRef.current!;
    stick.current = true;
    setUnseen(false);
    el.scrollTop = el.scrollHeight;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return;
    feedback.clear();
    setText('');
    stick.current = true;
    const answer = await send(body);
    if (answer) {
      feedback.fail(answer.failed);
      setText((now) => now || body);
    }
  };

  return (
    <section
      aria-label="Live chat"
      className={clsx('flex min-h-0 flex-col overflow-hidden rounded-2xl border border-line bg-surface', className)}
    >
      <header className="flex items-center gap-3 border-b border-line px-4 py-3">
        <h2 className="text-lg font-bold">Live chat</h2>
        {live ? (
          <span className="inline-flex items-center gap-1.5 rounded-full bg-danger px-2.5 py-0.5 text-sm font-bold uppercase tracking-wide text-white">
            <span aria-hidden className="size-2 rounded-full bg-white motion-safe:animate-pulse" />
            Live
          </span>
        ) : null}
      </header>

      {state.topic ? (
        <div
          data-testid="chat-topic"
          className="flex items-start gap-2 border-b border-line bg-accent-soft px-4 py-2.5"
        >
          <Pin aria-hidden className="mt-0.5 size-4 shrink-0 text-accent" />
          <PinnedTopic text={state.topic} />
          {admin ? (
            <button
              type="button"
              onClick={() => void setTopic('')}
              aria-label="Clear topic"
              className="-my-2 -mr-2 grid size-11 shrink-0 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
            >
              <X aria-hidden className="size-4" />
            </button>
          ) : null}
        </div>
      ) : null}

      <div className="relative min-h-0 flex-1">
        {state.status === 'loading' ? (
          <div className="grid h-full place-items-center p-6">
            <Spinner label="Loading chat" />
          </div>
        ) : state.status === 'error' ? (
          <p role="alert" className="p-6 text-center font-medium text-danger">
            {COMMUNITY_MESSAGES.chatLoadFailed}
          </p>
        ) : (
          <ol
            ref={listRef}
            onScroll={onScroll}
            aria-label="Chat messages"
            aria-live="polite"
            className="h-full overflow-y-auto overscroll-contain px-2 py-2"
            data-testid="chat-messages"
          >
            {state.more ? (
              <li className="flex justify-center py-1">
                <button
                  type="button"
                  onClick={() => void loadOlder()}
                  disabled={state.loadingOlder}
                  className="min-h-11 rounded-lg px-4 font-semibold text-accent hover:bg-surface-2 disabled:opacity-60"
                >
                  {COMMUNITY_MESSAGES.loadOlder}
                </button>
              </li>
            ) : null}
            {state.messages.length === 0 ? (
              <li className="p-6 text-center text-muted">{LIVE_MESSAGES.emptyChat}</li>
            ) : null}
            {state.messages.map((m) => (
              <MessageRow
                key={m.id}
                message={m}
                admin={admin}
                onHeart={() => void toggleHeart(m.id)}
                onStar={() => void setTopic(m.body)}
              />
            ))}
          </ol>
        )}
        {unseen ? (
          <button
            type="button"
            onClick={toBottom}
            className="absolute bottom-3 left-1/2 inline-flex min-h-11 -translate-x-1/2 items-center gap-2 rounded-full bg-accent px-4 font-semibold text-accent-fg shadow-lg"
          >
            <ArrowDown aria-hidden className="size-4" /> New messages
          </button>
        ) : null}
      </div>

      <form ref={feedback.formRef} onSubmit={submit} className="border-t border-line p-3">
        {chatOpen ? (
          <div className="flex items-center gap-2">
            <label className="sr-only" htmlFor={`chat-input-${showId}`}>
              Message
            </label>
            <input
              id={`chat-input-${showId}`}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                feedback.edited('body');
              }}
              maxLength={COMMUNITY.chatBodyMax}
              placeholder={COMMUNITY_MESSAGES.chatPlaceholder}
              autoComplete="off"
              enterKeyHint="send"
              {...invalidProps(error, `chat-error-${showId}`)}
              className="min-h-12 w-full min-w-0 rounded-xl border border-line bg-bg px-4 text-base text-fg placeholder:text-muted focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30"
            />
            <button
              type="submit"
              aria-label="Send"
              className="grid size-12 shrink-0 place-items-center rounded-xl bg-accent text-accent-fg hover:bg-accent-strong"
            >
              <Send aria-hidden className="size-5" />
            </button>
          </div>
        ) : (
          <p className="px-1 py-2 text-center text-muted">{COMMUNITY_MESSAGES.chatClosed}</p>
        )}
        <div className="mt-2 flex flex-col gap-1 empty:hidden">
          <FieldMessage id={`chat-error-${showId}`} message={error} />
          <FormError message={feedback.summary} inline />
        </div>
      </form>
    </section>
  );
}

function MessageRow({
  message: m,
  admin,
  onHeart,
  onStar,
}: {
  message: ChatMessage;
  admin: boolean;
  onHeart: () => void;
  onStar: () => void;
}) {
  const mine = m.profile_url !== null && m.profile_url === pageConfig().authProfileUrl;
  const name = (
    <span className={clsx('font-bold', m.admin && 'text-success')}>
      <UserText>{m.name}</UserText>
      {m.admin ? (
        <ShieldCheck aria-label="Admin" role="img" className="ml-1 inline size-4 align-[-2px] text-success" />
      ) : null}
    </span>
  );
  return (
    <li
      data-testid="chat-message"
      data-id={m.id}
      className={clsx('group flex gap-2.5 rounded-xl px-2 py-1.5 hover:bg-surface-2/60', m.pending && 'opacity-60')}
    >
      {m.profile_url ? (
        <a href={m.profile_url} tabIndex={-1} aria-hidden className="mt-0.5 shrink-0">
          <Avatar src={m.avatar_url} name="" size={36} />
        </a>
      ) : (
        <Avatar src={m.avatar_url} name="" size={36} className="mt-0.5" />
      )}
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2">
          {m.profile_url ? (
            <a href={m.profile_url} className="hover:underline">
              {name}
            </a>
          ) : (
            name
          )}
          <time dateTime={new Date(m.timestamp * 1000).toISOString()} className="text-xs text-muted">
            {timeOf(m.timestamp)}
          </time>
        </p>
        <p className="whitespace-pre-wrap wrap-anywhere" data-testid="chat-body">
          {m.body}
        </p>
      </div>
      <div className="flex shrink-0 items-start">
        <button
          type="button"
          onClick={onHeart}
          disabled={m.pending}
          aria-pressed={m.hearted}
          aria-label={`${m.hearted ? 'Remove heart' : 'Heart'}: ${m.hearts} ${m.hearts === 1 ? 'heart' : 'hearts'}`}
          data-testid="chat-heart"
          className={clsx(
            'inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-lg px-1.5 text-sm tabular-nums hover:bg-surface-2',
            m.hearted ? 'text-danger' : 'text-muted',
          )}
        >
          <Heart aria-hidden className={clsx('size-4', m.hearted && 'fill-current')} />
          <span data-testid="chat-hearts">{m.hearts}</span>
        </button>
        {admin && !m.pending ? (
          <button
            type="button"
            onClick={onStar}
            aria-label="Set as topic"
            title="Set as topic"
            className="grid size-11 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-accent"
          >
            <Star aria-hidden className="size-4" />
          </button>
        ) : null}
        {!mine && !m.pending ? <ReportButton kind="chat" id={m.id} className="min-w-11 px-0 [&>span]:sr-only" /> : null}
      </div>
    </li>
  );
}
