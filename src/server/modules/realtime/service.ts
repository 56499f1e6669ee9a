import type { Server } from 'socket.io';
import type { ClientToServerEvents, ServerEventName, ServerToClientEvents } from '#shared/realtime';
import type { AuthUser } from '#server/types';

export type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, { user: AuthUser | null }>;

/** Decides whether a user may join a channel: true/false, or null when the rule does not know it. */
export type ChannelAuthorizer = (channel: string, user: AuthUser | null) => Promise<boolean | null> | boolean | null;

/** the server-only room of one member's sockets (a name no channel authoriser accepts) */
export const userRoom = (userId: number) => `#user:${userId}`;

export interface Realtime {
  /** disconnects every socket of a member, on every process (suspension, sign-out everywhere) */
  disconnectUser(userId: number): void;
  /** send an event to everyone in a channel (on every app process when Redis is configured) */
  publish(
    channel: string,
    event: ServerEventName,
    payload: unknown,
    opts?: { exceptSocketId?: string | undefined },
  ): void;
  /** features register who may join their channels */
  addAuthorizer(authorizer: ChannelAuthorizer): void;
  authorize(channel: string, user: AuthUser | null): Promise<boolean>;
  attach(io: Io): void;
}

export function createRealtime(): Realtime {
  let io: Io | null = null;
  const authorizers: ChannelAuthorizer[] = [];
  return {
    publish(channel, event, payload, opts) {
      if (!io) return;
      const target = opts?.exceptSocketId ? io.to(channel).except(opts.exceptSocketId) : io.to(channel);
      target.emit('event', { channel, event, payload });
    },
    disconnectUser(userId) {
      io?.in(userRoom(userId)).disconnectSockets(true);
    },
    addAuthorizer(authorizer) {
      authorizers.push(authorizer);
    },
    async authorize(channel, user) {
      for (const authorizer of authorizers) {
        const verdict = await authorizer(channel, user);
        if (verdict !== null) return verdict;
      }
      return false;
    },
    attach(server) {
      io = server;
    },
  };
}
