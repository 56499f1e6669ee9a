import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerEventName, ServerToClientEvents } from '#shared/realtime';
import { setSocketId } from './api.ts';
import { pageConfig } from './page-config.ts';

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
let socket: AppSocket | null = null;
const joined = new Map<string, number>();

/** One Socket.IO connection per tab, authenticated by the session cookie. */
export function getSocket(): AppSocket {
  if (socket) return socket;
  socket = io({ withCredentials: true, transports: ['websocket', 'polling'] });
  socket.on('connect', () => {
    setSocketId(socket!.id ?? null);
    for (const channel of joined.keys()) socket!.emit('subscribe', channel, () => undefined);
  });
  socket.on('disconnect', () => setSocketId(null));
  return socket;
}

function join(channel: string) {
  const s = getSocket();
  const n = joined.get(channel) ?? 0;
  joined.set(channel, n + 1);
  if (n === 0 && s.connected) s.emit('subscribe', channel, () => undefined);
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
    const s = getSocket();
    join(channel);
    const listener: ServerToClientEvents['event'] = (message) => {
      if (message.channel === channel && message.event === event) ref.current(message.payload as P);
    };
    s.on('event', listener);
    return () => {
      s.off('event', listener);
      leave(channel);
    };
  }, [channel, event]);
}
