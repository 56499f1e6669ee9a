import { z } from '#shared/zod';

/*
 * Response schemas for answers that are not JSON, so that every route still says what it answers
 * (docs/api.md). Fastify writes a Buffer, a stream or a redirect as it is, without the serializer:
 * these schemas only describe the answer in the API reference.
 */

/** a redirect with no body: the Location header says where to go */
export function redirectResponse<C extends number>(...codes: C[]): Record<C, z.ZodNull> {
  const noBody = z.null().meta({ description: 'No body: the Location header says where to go.' });
  return Object.fromEntries(codes.map((code) => [code, noBody])) as Record<C, z.ZodNull>;
}

/**
 * What a handler may send for a file: Fastify writes a Buffer or a stream as it is (the serializer
 * never sees it), so the schema's string is what the API reference shows and these are what the
 * route's reply accepts.
 */
export type FileBody = string | Buffer | NodeJS.ReadableStream;

/** a file sent as it is stored (a PDF, an image, a video's bytes) */
export function fileResponse(description: string, ...codes: number[]): Record<number, z.ZodType<FileBody>> {
  const file = z.string().meta({ description, format: 'binary' }) as z.ZodType<FileBody>;
  return Object.fromEntries((codes.length ? codes : [200]).map((code) => [code, file]));
}
