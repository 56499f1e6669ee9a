import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** (issue 5) */
export const postRoutes: FastifyPluginAsyncZod = async (app) => {
  void app;
};
