import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ping } from '#server/db/client';
import { notFound } from '#server/lib/errors';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', async () => {
    await ping(app.deps.db);
    return { ok: true };
  });

  // Development-only: the mail outbox (password reset links...) when no SMTP_URL is set.
  app.get('/api/dev/outbox', async () => {
    if (!app.deps.config.devTools) throw notFound();
    return { messages: await app.deps.mailer.outbox() };
  });
};
