import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ADDRESS_LIMITS } from '#server/lib/rate-limits';

/**
 * Per-address abuse limits for the calls listed in lib/rate-limits.ts ADDRESS_LIMITS (posting, chat,
 * wall comments, likes, uploads, contact, reports). Counted before validation, so malformed floods
 * count too; in Redis when it is configured, so every app process shares the count.
 */
export const addressLimitsPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const name = ADDRESS_LIMITS[`${request.method} ${request.routeOptions.url}`];
    if (name) await app.deps.limiters.consume(name, request.ip);
  });
});
