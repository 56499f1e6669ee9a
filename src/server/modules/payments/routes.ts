import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Provider webhooks and the sandbox provider's own pages and calls (issue 7). */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  void app;
};
