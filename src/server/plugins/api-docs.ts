import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { RouteAccess } from '#server/lib/access';
import { registerWithAccess } from './access.ts';

/** where the generated API reference is served (development and tests only) */
export const API_DOCS_PREFIX = '/api/docs';

/** a route's group in the reference: its first address segment after /api (admin calls together) */
export function apiTag(url: string): string {
  const segments = url.split('/').filter(Boolean);
  const first = segments[0] === 'api' ? segments[1] : segments[0];
  return (first ?? 'root').replace(/[.:*].*$/, '') || 'root';
}

/**
 * The API reference, generated from the routes as registered: their zod schemas (request and, where
 * declared, response) and their access class, as `x-access` on each operation. Registered before
 * the routes (it collects them as they are added); app.ts registers it outside production only, and
 * the OpenAPI libraries are loaded here, so a production process never holds them.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const zodTransform = createJsonSchemaTransform({});
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Backbeat HTTP API',
        version: '1',
        description:
          'Generated from the registered routes. Conventions (bodies, failures, sessions and CSRF): ' +
          'docs/api.md. Each operation names who may call it in `x-access` (src/server/lib/access.ts).',
      },
    },
    transform: (input) => {
      const access = (input.route.config as { access?: RouteAccess } | undefined)?.access;
      const result = zodTransform(input);
      const schema = (result.schema ?? {}) as Record<string, unknown>;
      return {
        ...result,
        schema: {
          ...schema,
          tags: [apiTag(input.url)],
          description: [`Access: ${access}`, schema.description].filter(Boolean).join('\n\n'),
          'x-access': access,
        },
      };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await registerWithAccess(app, 'public', swaggerUi, { routePrefix: API_DOCS_PREFIX });
}
