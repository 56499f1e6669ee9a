import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ping } from '#server/db/client';
import { notFound } from '#server/lib/errors';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  // Health for load balancers and monitors: 503 while the database cannot be reached (the process
  // itself stays up and recovers by itself). Redis being away is reported (`redis: "down"`) but keeps
  // the answer 200: every process shares the one Redis, so a load balancer acting on it would take
  // them all out at once, and each process still serves visitors and recovers by itself when it is
  // back (members' requests answer 503 meanwhile; docs/product/availability.md).
  app.get('/healthz', { config: { access: 'public' } }, async (_request, reply) => {
    const database = await ping(app.deps.db).then(
      () => 'up' as const,
      () => 'down' as const,
    );
    const monitor = app.deps.redisMonitor;
    const redis = monitor ? (monitor.up ? ('up' as const) : ('down' as const)) : ('off' as const);
    return reply.status(database === 'up' ? 200 : 503).send({ ok: database === 'up', database, redis });
  });

  // Development-only: the mail outbox (password reset links...) when no SMTP_URL is set.
  app.get('/api/dev/outbox', { config: { access: 'public' } }, async () => {
    if (!app.deps.config.devTools) throw notFound();
    return { messages: await app.deps.mailer.outbox() };
  });
};
