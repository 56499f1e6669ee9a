import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { MESSAGES } from '#shared/constants';
import { closeRedis, openRedis, whenReady, type RedisClient } from '#server/lib/redis';
import { isServiceUnavailable } from '#server/lib/unavailable';
import { userRoom, type Io } from '#server/modules/realtime/index';
import { writeBroadcastsToIdleWebSockets } from './broadcast-frames.ts';
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
  writeBroadcastsToIdleWebSockets(io);
  let pub: RedisClient | null = null;
  let sub: RedisClient | null = null;
  const { redisUrl } = app.deps.config;
  if (redisUrl) {
    pub = await openRedis(redisUrl);
    sub = await openRedis(redisUrl);
    // Redis may be away (at start, or later): the adapter must neither stop the process nor lose its
    // subscriptions. It publishes without waiting for the answer, and an unhandled rejection would end
    // the process: a broadcast that cannot reach the other processes is lost (sockets on this process
    // still get it). It subscribes without waiting too: a subscription refused while Redis is away is
    // made again once the connection is ready (the client renews the ones it made on every reconnect).
    const publish = pub.publish.bind(pub);
    Object.defineProperty(pub, 'publish', {
      value: (...args: Parameters<typeof publish>) => publish(...args).catch(() => 0),
    });
    const subscriber = sub;
    for (const name of ['subscribe', 'pSubscribe'] as const) {
      const original = subscriber[name].bind(subscriber) as (...args: unknown[]) => Promise<void>;
      const untilDone = (...args: unknown[]): Promise<void> =>
        original(...args).catch(() => {
          if (subscriber.isOpen) subscriber.once('ready', () => void untilDone(...args));
        });
      Object.defineProperty(subscriber, name, { value: untilDone });
    }
    for (const name of ['unsubscribe', 'pUnsubscribe'] as const) {
      const original = subscriber[name].bind(subscriber) as (...args: unknown[]) => Promise<void>;
      Object.defineProperty(subscriber, name, {
        value: (...args: unknown[]) => original(...args).catch(() => undefined),
      });
    }
    // the monitor drops and remakes these too when Redis falls silent
    app.deps.redisMonitor?.watch(pub);
    app.deps.redisMonitor?.watch(sub);
    // with Redis answering, the start waits (briefly) for these connections too, so broadcasts cross
    // processes from the first request
    if (app.deps.redisMonitor?.up) await Promise.all([whenReady(pub, 2000), whenReady(sub, 2000)]);
    // loaded only here, as the client library is (lib/redis.ts): an app without Redis never needs it
    const { createAdapter } = await import('@socket.io/redis-adapter');
    io.adapter(createAdapter(pub, sub, { key: `${app.deps.config.keyNamespace}:socket.io` }));
  }

  io.use(async (socket, next) => {
    try {
      const cookies = app.parseCookie(socket.handshake.headers.cookie ?? '');
      socket.data.user = await resolveSession(app, cookies[SESSION_COOKIE]);
      next();
    } catch (err) {
      // the session cannot be read now: the client tries again later (lib/socket.ts), rather than
      // connecting as a visitor that misses its member's events
      if (isServiceUnavailable(err))
        return next(Object.assign(new Error(MESSAGES.unavailable), { data: { status: 503 } }));
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
    if (pub) await closeRedis(pub);
    if (sub) await closeRedis(sub);
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    io: Io;
  }
}
