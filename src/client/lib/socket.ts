import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerEventName, ServerToClientEvents } from '#shared/realtime';
import { setSocketId } from './api.ts';
import { pageConfig } from './page-config.ts';
import { whenIdle } from './idle.ts';

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type ChannelListener = ServerToClientEvents['event'];
let socket: AppSocket | null = null;
/** set when the connection is first asked for; `socket` is set once it is made (at idle) */
let asked = false;
const joined = new Map<string, number>();
const listeners = new Set<ChannelListener>();

/**
 * One Socket.IO connection per tab, authenticated by the session cookie. It is opened once the page is
 * idle (lib/idle.ts), not inside the effect that first needs it: creating it cost 10 ms or more of the
 * first commit's task. Channels joined before it connects are subscribed on connect.
 */
function openSocket() {
  if (asked) return;
  asked = true;
  whenIdle(() => {
    const s: AppSocket = io({ withCredentials: true, transports: ['websocket', 'polling'] });
    socket = s;
    s.on('connect', () => {
      setSocketId(s.id ?? null);
      for (const channel of joined.keys()) s.emit('subscribe', channel, () => undefined);
    });
    s.on('disconnect', () => setSocketId(null));
    // refused by the server (the session could not be read: briefly unavailable), a socket does not
    // try again by itself: it does, a few seconds later
    s.on('connect_error', () => {
      if (!s.active) setTimeout(() => s.connect(), 5000 + Math.random() * 5000);
    });
    s.on('event', (message) => {
      for (const listener of listeners) listener(message);
    });
  });
}

function join(channel: string) {
  openSocket();
  const n = joined.get(channel) ?? 0;
  joined.set(channel, n + 1);
  if (n === 0 && socket?.connected) socket.emit('subscribe', channel, () => undefined);
}

function leave(channel: string) {
  const n = (joined.get(channel) ?? 1) - 1;
  if (n > 0) return joined.set(channel, n);
  joined.delete(channel);
  socket?.emit('unsubscribe', channel);
}

/** Run `handler` for each `event` on `channel` while the component is mounted. */
export function useChannelEvent<P>(channel: string | null, event: ServerEventName, handler: (payload: P) => void) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!channel || pageConfig().authId === null) return;
    const listener: ChannelListener = (message) => {
      if (message.channel === channel && message.event === event) ref.current(message.payload as P);
    };
    listeners.add(listener);
    join(channel);
    return () => {
      listeners.delete(listener);
      leave(channel);
    };
  }, [channel, event]);
}
