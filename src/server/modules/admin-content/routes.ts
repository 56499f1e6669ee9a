import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin console: content (issue 10). */
export const adminContentRoutes: FastifyPluginAsyncZod = async () => {};
