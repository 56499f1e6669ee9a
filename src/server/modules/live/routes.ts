import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { liveShows } from '#server/db/schema/index';

/**
 * Live shows. The foundation registers who may join a show's channel (`show.{id}`): a signed-in
 * member, for a show that exists. The live work adds the chat calls here.
 */
export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  app.deps.realtime.addAuthorizer(async (channel, user) => {
    const match = /^show\.(\d{1,9})$/.exec(channel);
    if (!match) return null;
    if (!user) return false;
    const [show] = await app.deps.db.select({ id: liveShows.id }).from(liveShows).where(eq(liveShows.id, Number(match[1]))).limit(1);
    return !!show;
  });
};
