import type { CSSProperties } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Bell, BellRing, CalendarClock, MessageSquare, MessageSquareOff, Radio, Square } from 'lucide-react';
import { LIVE_MESSAGES, type LiveShowDto } from '#shared/live';
import { showChannel } from '#shared/realtime';
import { errorMessage } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { playerUrl } from '#client/lib/player-url.ts';
import { useChannelEvent } from '#client/lib/socket.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { showKey, showsKey, useFollowShow, useShow, useShowControls } from '../api/live.ts';
import { ChatPanel } from './chat-panel.tsx';
import { isMembersOnly, MembersOnly, StatusBadge, whenOf } from './shows.tsx';

/**
 * On a phone the video sits on top and the chat fills the rest of the screen (header 4 rem, the
 * page's top padding, the 16:9 video over the width less the side padding).
 */
const phoneChat = {
  '--chat-h': 'calc(100dvh - 4rem - 2.25rem - (100vw - 1.5rem) * 0.5625 - 0.75rem)',
} as CSSProperties;

/** /live/:id: the video, the chat panel and (admins) the show's controls. */
export function ShowView({ id }: { id: number }) {
  const show = useShow(id);
  const qc = useQueryClient();
  useChannelEvent<{ show: LiveShowDto }>(showChannel(id), 'ShowUpdated', ({ show: next }) => {
    qc.setQueryData(showKey(id), next);
    void qc.invalidateQueries({ queryKey: showsKey });
  });
  if (show.isPending) return <Spinner />;
  if (show.isError)
    return isMembersOnly(show.error) ? (
      <MembersOnly heading="Live show" />
    ) : (
      <FormError message={errorMessage(show.error, [])} />
    );
  const s = show.data;
  return (
    <div
      className="-mt-3 flex flex-col gap-3 sm:mt-0 lg:grid lg:grid-cols-[minmax(0,1fr)_26rem] lg:items-start lg:gap-6"
      style={phoneChat}
    >
      {/* one copy of the details (and so one <h1>): below the video on a wide screen; on a phone this
          column dissolves into the page's column and, while the show is live, the details move under
          the chat (video and chat together on one screen); before and after, the title and time come first */}
      <div className="contents lg:flex lg:min-w-0 lg:flex-col lg:gap-4">
        <div className="aspect-video w-full overflow-hidden rounded-2xl bg-black">
          {s.videoUrl ? (
            <iframe
              src={playerUrl(s.videoUrl)}
              title={`Video: ${s.title}`}
              className="size-full"
              allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
            />
          ) : (
            <p className="grid size-full place-items-center p-6 text-center text-white/80">{LIVE_MESSAGES.noVideo}</p>
          )}
        </div>
        <ShowDetails show={s} className={s.status === 'live' ? 'order-last flex lg:order-none' : 'flex'} />
      </div>
      <ChatPanel
        showId={s.id}
        live={s.status === 'live'}
        chatOpen={s.chatOpen}
        className="h-(--chat-h) min-h-80 lg:sticky lg:top-20 lg:h-[calc(100dvh-7rem)]"
      />
    </div>
  );
}

function ShowDetails({ show, className }: { show: LiveShowDto; className: string }) {
  return (
    <div className={`min-w-0 flex-col gap-3 ${className}`}>
      <div className="flex flex-wrap items-center gap-3">
        <StatusBadge status={show.status} />
        <p className="flex items-center gap-2 text-muted">
          <CalendarClock aria-hidden className="size-4" />
          <time dateTime={show.startsAt}>{whenOf(show.startsAt)}</time>
        </p>
      </div>
      <h1 className="text-2xl font-extrabold tracking-tight wrap-anywhere sm:text-3xl">{show.title}</h1>
      {show.description ? (
        <p className="max-w-3xl whitespace-pre-line text-lg text-muted wrap-anywhere">{show.description}</p>
      ) : null}
      {show.status === 'scheduled' ? <FollowButton show={show} /> : null}
      {pageConfig().admin ? <AdminControls show={show} /> : null}
    </div>
  );
}

/** a show that has not started: a reminder in the bell and by e-mail about 30 minutes before */
function FollowButton({ show }: { show: LiveShowDto }) {
  const { state, change } = useFollowShow(show.id, true);
  if (state.isPending || state.isError) return null;
  const following = state.data.following;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        variant={following ? 'secondary' : 'primary'}
        aria-pressed={following}
        disabled={change.isPending}
        onClick={() => change.mutate(!following, { onError: (err) => toast(errorMessage(err, ['follow']), 'danger') })}
      >
        {following ? <BellRing aria-hidden className="size-4" /> : <Bell aria-hidden className="size-4" />}
        {following ? 'Reminder on' : 'Remind me'}
      </Button>
      <p className="text-sm text-muted">
        {following
          ? 'We will remind you about 30 minutes before it starts. Press again to turn the reminder off.'
          : 'Get a reminder about 30 minutes before the show starts.'}
      </p>
    </div>
  );
}

function AdminControls({ show }: { show: LiveShowDto }) {
  const { status, chat } = useShowControls(show.id);
  const fail = (err: unknown) => toast(errorMessage(err, ['status', 'open']), 'danger');
  const busy = status.isPending || chat.isPending;
  return (
    <div
      role="group"
      aria-label="Show controls"
      className="flex flex-wrap gap-3 rounded-2xl border border-line bg-surface p-4"
    >
      {show.status === 'live' ? (
        <Button variant="danger" disabled={busy} onClick={() => status.mutate('ended', { onError: fail })}>
          <Square aria-hidden className="size-4" /> End show
        </Button>
      ) : (
        <Button disabled={busy} onClick={() => status.mutate('live', { onError: fail })}>
          <Radio aria-hidden className="size-5" /> Go live
        </Button>
      )}
      {show.chatOpen ? (
        <Button variant="secondary" disabled={busy} onClick={() => chat.mutate(false, { onError: fail })}>
          <MessageSquareOff aria-hidden className="size-5" /> Close chat
        </Button>
      ) : (
        <Button variant="secondary" disabled={busy} onClick={() => chat.mutate(true, { onError: fail })}>
          <MessageSquare aria-hidden className="size-5" /> Open chat
        </Button>
      )}
    </div>
  );
}
