import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** (issue 5) */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  void app;
};
