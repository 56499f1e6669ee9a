import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin console: commerce (issue 10). */
export const adminCommerceRoutes: FastifyPluginAsyncZod = async () => {};
