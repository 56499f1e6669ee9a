import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from '#shared/zod';
import { enforceRouteAccess, ROUTE_ACCESS_CLASSES, type RouteAccess } from '#server/lib/access';
import { wantsHtml } from '#server/lib/http';

/**
 * The route's declared access class; throws for a route that declares none, so the app does not
 * start with one (app.ts calls it for every route as it is registered, with the instance that
 * registers it).
 */
export function declaredAccess(
  route: Pick<RouteOptions, 'method' | 'url' | 'config'>,
  registeredBy?: FastifyInstance,
): RouteAccess {
  const access =
    (route.config as { access?: RouteAccess } | undefined)?.access ??
    (registeredBy as { pluginRouteAccess?: RouteAccess } | undefined)?.pluginRouteAccess;
  if (access && ROUTE_ACCESS_CLASSES.includes(access)) return access;
  throw new Error(
    `${[route.method].flat().join(',')} ${route.url} declares no access class: add ` +
      `config: { access: ${ROUTE_ACCESS_CLASSES.map((c) => `'${c}'`).join(' | ')} } to its options (src/server/lib/access.ts)`,
  );
}

/**
 * Enforces each route's declared access class (`config: { access }`, lib/access.ts) before
 * validation. A browser navigation (GET asking for HTML) is left to the page access table
 * (plugins/pages.ts), which sends visitors to sign in rather than answering 401.
 */
export const accessPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || (request.method === 'GET' && wantsHtml(request))) return;
    enforceRouteAccess(access, request);
  });
});

/**
 * Registers a library's plugin whose routes take no options of ours (the uploaded files'
 * @fastify/static, the API reference's pages): every route it adds has the one class `access`,
 * and, given `response`, declares those answers (docs/api.md) where the plugin declares none.
 */
export async function registerWithAccess<O extends object>(
  app: FastifyInstance,
  access: RouteAccess,
  plugin: FastifyPluginAsync<O> | FastifyPluginCallback<O>,
  opts: O,
  response?: Record<number, z.ZodType>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.decorate('pluginRouteAccess', access);
    // in place: the route list (app.ts) may already hold this schema object
    if (response)
      scope.addHook('onRoute', (route) => {
        if (!route.schema) route.schema = { response };
        else route.schema.response ??= response;
      });
    await scope.register(plugin, opts);
  });
}
