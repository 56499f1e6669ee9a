import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Issue 8: filled in by the mentorship work. */
export const uploadRoutes: FastifyPluginAsyncZod = async () => {};
