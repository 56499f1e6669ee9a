import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ping } from '#server/db/client';
import { notFound } from '#server/lib/errors';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  // Health for load balancers and monitors: 503 while the database cannot be reached (the process
  // itself stays up and recovers by itself). Redis being down only degrades realtime and shared
  // limits, so it is reported but keeps the answer 200.
  app.get('/healthz', async (_request, reply) => {
    const database = await ping(app.deps.db).then(
      () => 'up' as const,
      () => 'down' as const,
    );
    const redis = app.deps.redis ? (app.deps.redis.isReady ? ('up' as const) : ('down' as const)) : ('off' as const);
    return reply.status(database === 'up' ? 200 : 503).send({ ok: database === 'up', database, redis });
  });

  // Development-only: the mail outbox (password reset links...) when no SMTP_URL is set.
  app.get('/api/dev/outbox', async () => {
    if (!app.deps.config.devTools) throw notFound();
    return { messages: await app.deps.mailer.outbox() };
  });
};
