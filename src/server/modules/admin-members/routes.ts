import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin console: members (issue 10). */
export const adminMembersRoutes: FastifyPluginAsyncZod = async () => {};
