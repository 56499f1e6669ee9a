import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { connectRedis, type RedisClient } from '#server/lib/redis';
import { userRoom, type Io } from '#server/modules/realtime/service';
import { resolveSession, SESSION_COOKIE } from './session.ts';

/**
 * Socket.IO on the same server, authenticated by the session cookie. Clients join only channels a
 * registered authoriser allows. With REDIS_URL the Redis adapter carries broadcasts between processes.
 */
export const socketPlugin = fp(async (app: FastifyInstance) => {
  const io: Io = new Server(app.server, {
    serveClient: false,
    cors: { origin: false },
    maxHttpBufferSize: 100_000,
  });
  let pub: RedisClient | null = null;
  let sub: RedisClient | null = null;
  if (app.deps.config.redisUrl) {
    pub = await connectRedis(app.deps.config.redisUrl);
    // The adapter publishes without waiting for the answer: while Redis is down each publish would
    // reject unhandled, and an unhandled rejection ends the process. A broadcast that cannot reach the
    // other processes meanwhile is lost (sockets on this process still get it): realtime degrades.
    const publish = pub.publish.bind(pub);
    Object.defineProperty(pub, 'publish', { value: (...args: Parameters<typeof publish>) => publish(...args).catch(() => 0) });
    const duplicate = pub.duplicate();
    duplicate.on('error', () => undefined);
    await duplicate.connect();
    sub = duplicate;
    io.adapter(createAdapter(pub, sub, { key: `${app.deps.config.keyNamespace}:socket.io` }));
  }

  io.use(async (socket, next) => {
    try {
      const cookies = app.parseCookie(socket.handshake.headers.cookie ?? '');
      socket.data.user = await resolveSession(app, cookies[SESSION_COOKIE]);
      next();
    } catch (err) {
      next(err as Error);
    }
  });

  io.on('connection', (socket) => {
    // a private room per signed-in member, so the server can reach all their sockets on every process
    // (e.g. to disconnect a suspended member everywhere); clients cannot subscribe to it
    if (socket.data.user) void socket.join(userRoom(socket.data.user.id));
    socket.on('subscribe', async (channel, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      if (typeof channel !== 'string' || channel.length > 100) return reply({ ok: false, message: 'Unknown channel.' });
      try {
        const allowed = await app.deps.realtime.authorize(channel, socket.data.user);
        if (!allowed) return reply({ ok: false, message: 'You may not join this channel.' });
        await socket.join(channel);
        reply({ ok: true });
      } catch (err) {
        app.log.error({ err }, 'subscribe failed');
        reply({ ok: false, message: 'Could not join the channel.' });
      }
    });
    socket.on('unsubscribe', (channel) => {
      if (typeof channel === 'string') void socket.leave(channel);
    });
  });

  app.deps.realtime.attach(io);
  app.decorate('io', io);
  // Shutting down: close every socket's transport before the HTTP server waits for its connections
  // (an open websocket would hold it forever). Clients see "transport close" and reconnect by
  // themselves, to another process behind the load balancer; an "io server disconnect" would not.
  app.addHook('preClose', async () => {
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await io.close();
    await pub?.close().catch(() => undefined);
    await sub?.close().catch(() => undefined);
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    io: Io;
  }
}
