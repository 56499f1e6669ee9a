import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin console: community (issue 10). */
export const adminCommunityRoutes: FastifyPluginAsyncZod = async () => {};
