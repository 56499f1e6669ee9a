import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';

/**
 * Answers are written through the route's response schema (docs/api.md): only the fields the schema
 * lists leave the server, so a column added to a row never reaches a client by accident.
 *
 * Outside production a field the handler returns but the schema leaves out fails the request instead
 * of vanishing: the client was probably written against that field, and every API and browser test
 * then shows the gap where a silent strip would show only a page missing a value. In production the
 * field is dropped and the answer goes out.
 */
export function createResponseSerializer(options: {
  refuseUnlistedFields: boolean;
}): FastifySerializerCompiler<z.ZodType | { properties: z.ZodType }> {
  return ({ schema: maybeSchema, method, url }) => {
    const schema = 'properties' in maybeSchema ? maybeSchema.properties : maybeSchema;
    return (data) => {
      const result = z.safeEncode(schema, data);
      if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
      if (options.refuseUnlistedFields) {
        const dropped = droppedFields(data, result.data);
        if (dropped.length > 0) {
          const cause = new z.ZodError(
            dropped.map((path) => ({
              code: 'custom' as const,
              path: [path],
              message: 'The response schema does not list this field.',
              input: undefined,
            })),
          );
          throw new ResponseSerializationError(method, url, { cause });
        }
      }
      return JSON.stringify(result.data);
    };
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/**
 * Paths of the fields present in `sent` (with a value other than undefined) that `written` lacks,
 * walking objects and arrays side by side. A value the schema turned into something else (a Date
 * into a string, a transform) is not looked into.
 */
export function droppedFields(sent: unknown, written: unknown, at = ''): string[] {
  if (Array.isArray(sent) && Array.isArray(written)) {
    return sent.flatMap((item, i) => droppedFields(item, written[i], `${at}[${i}]`));
  }
  if (!isPlainObject(sent) || !isPlainObject(written)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined) continue;
    const path = at ? `${at}.${key}` : key;
    if (!(key in written)) out.push(path);
    else out.push(...droppedFields(value, written[key], path));
  }
  return out;
}
