import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** (issue 7) */
export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  void app;
};
