import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from '#shared/zod';
import type { RouteAccess } from './access.ts';
import { ValidationError } from './errors.ts';
import { effectiveMethod } from './http.ts';

type Method = 'POST' | 'DELETE' | 'PATCH' | 'PUT';
interface Entry {
  body?: z.ZodType;
  handler: (request: FastifyRequest, reply: FastifyReply, body: unknown) => unknown;
}

function parseBody(schema: z.ZodType | undefined, raw: unknown): unknown {
  if (!schema) return raw;
  const result = schema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues)
    (errors[issue.path.map(String).join('.') || 'body'] ??= []).push(issue.message);
  throw new ValidationError(errors);
}

/**
 * Routes whose method a POST may override with `_method` (delete, patch, put), as the product's calls
 * do (`POST /friends` with `_method: delete` unfriends). Registers the real methods too, so
 * `DELETE /x` and `POST /x {_method: 'delete'}` reach the same handler. Every method of the address
 * has the one access class (lib/access.ts).
 */
export function overridableRoute(
  app: FastifyInstance,
  url: string,
  access: RouteAccess,
  entries: Partial<Record<Method, Entry>>,
) {
  const config = { access };
  const dispatch = (method: Method) => async (request: FastifyRequest, reply: FastifyReply) => {
    const entry = entries[method];
    if (!entry) return reply.status(405).send({ message: 'That method is not allowed here.' });
    return entry.handler(request, reply, parseBody(entry.body, request.body));
  };
  for (const method of Object.keys(entries) as Method[]) {
    if (method !== 'POST') app.route({ method, url, config, handler: dispatch(method) });
  }
  app.route({
    method: 'POST',
    url,
    config,
    handler: (request, reply) => dispatch(effectiveMethod(request) as Method)(request, reply),
  });
}
