import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { errorResponseSchema } from '#shared/http';
import { devOutboxResponseSchema } from '#shared/mail';
import { ping } from '#server/db/client';
import { notFound } from '#server/lib/errors';

/**
 * what monitors read: 200 while the database answers, 503 (the same body) while it does not; a 503
 * thrown before the handler (no session store) is the usual failure
 */
const healthSchema = z.object({
  ok: z.boolean(),
  database: z.enum(['up', 'down']),
  redis: z.enum(['up', 'down', 'off']),
});

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  // Health for load balancers and monitors: 503 while the database cannot be reached (the process
  // itself stays up and recovers by itself). Redis being away is reported (`redis: "down"`) but keeps
  // the answer 200: every process shares the one Redis, so a load balancer acting on it would take
  // them all out at once, and each process still serves visitors and recovers by itself when it is
  // back (members' requests answer 503 meanwhile; docs/product/availability.md).
  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: { response: { 200: healthSchema, 503: z.union([healthSchema, errorResponseSchema]) } },
    },
    async (_request, reply) => {
      const database = await ping(app.deps.db).then(
        () => 'up' as const,
        () => 'down' as const,
      );
      const monitor = app.deps.redisMonitor;
      const redis = monitor ? (monitor.up ? ('up' as const) : ('down' as const)) : ('off' as const);
      return reply.status(database === 'up' ? 200 : 503).send({ ok: database === 'up', database, redis });
    },
  );

  // Development-only: the mail outbox (password reset links...) when no SMTP_URL is set.
  // The page shows each mail's text; its HTML copy and headers stay on the server.
  app.get(
    '/api/dev/outbox',
    { config: { access: 'public' }, schema: { response: { 200: devOutboxResponseSchema } } },
    async () => {
      if (!app.deps.config.devTools) throw notFound();
      const messages = await app.deps.mailer.outbox();
      return {
        messages: messages.map(({ id, to, subject, text, created_at }) => ({ id, to, subject, text, created_at })),
      };
    },
  );
};
