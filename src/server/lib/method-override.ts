import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from '#shared/zod';
import type { RouteAccess } from './access.ts';
import { ValidationError } from './errors.ts';
import { effectiveMethod } from './http.ts';

type Method = 'POST' | 'DELETE' | 'PATCH' | 'PUT';
interface Entry {
  body?: z.ZodType;
  /** what the method answers, by status (docs/api.md): the schemas of its route's response */
  response?: Record<number, z.ZodType>;
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
    const response = entries[method]?.response;
    if (method !== 'POST') app.route({ method, url, config, schema: { response }, handler: dispatch(method) });
  }
  app.route({
    method: 'POST',
    url,
    config,
    schema: { response: postResponse(entries) },
    handler: (request, reply) => dispatch(effectiveMethod(request) as Method)(request, reply),
  });
}

/**
 * The POST route answers for every method it may stand for: one schema per status, a union where
 * two methods answer the same status differently (a zod union writes an answer through the first
 * schema it fits, so each method's schema should not fit the others' answers with fields left over).
 */
function postResponse(entries: Partial<Record<Method, Entry>>): Record<number, z.ZodType> | undefined {
  const byStatus = new Map<number, z.ZodType[]>();
  for (const entry of Object.values(entries)) {
    for (const [status, schema] of Object.entries(entry?.response ?? {})) {
      const list = byStatus.get(Number(status)) ?? [];
      if (!list.includes(schema)) list.push(schema);
      byStatus.set(Number(status), list);
    }
  }
  if (byStatus.size === 0) return undefined;
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      list.length === 1 ? list[0]! : z.union(list as [z.ZodType, ...z.ZodType[]]),
    ]),
  );
}
