import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { enforceRouteAccess, ROUTE_ACCESS } from '#server/lib/access';
import { wantsHtml } from '#server/lib/http';

/**
 * Enforces each route's access class (lib/access.ts) before validation. A browser navigation (GET
 * asking for HTML) is left to the page access table (plugins/pages.ts), which sends visitors to sign
 * in rather than answering 401.
 */
export const accessPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const access = ROUTE_ACCESS[`${request.method} ${request.routeOptions.url}`];
    if (!access || (request.method === 'GET' && wantsHtml(request))) return;
    enforceRouteAccess(access, request);
  });
});
