import { Transform, finished, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES } from '#shared/constants';
import { AppError } from '#server/lib/errors';

/** the body types whose bytes become text: Fastify's JSON and text parsers, @fastify/formbody */
function isTextBody(contentType: string | undefined): boolean {
  const media = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return (
    media === 'application/json' ||
    media.endsWith('+json') ||
    media === 'application/x-www-form-urlencoded' ||
    media.startsWith('text/')
  );
}

const notUtf8 = () => new AppError('bad-request', MESSAGES.bodyNotUtf8);

/**
 * The body's bytes, passed on unchanged, checked as UTF-8 on the way (a sequence split between two
 * chunks is completed by the next one). The parsers after it decode leniently and would turn each
 * bad byte into U+FFFD, which would then be stored as if the member had typed it.
 */
function checkedUtf8(payload: Readable): Readable {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        return done(notUtf8());
      }
      done(null, chunk);
    },
    flush(done) {
      try {
        decoder.decode();
      } catch {
        return done(notUtf8());
      }
      done();
    },
  });
  // a request the client aborted, or a stream that fails, fails the parse as it would have without us
  finished(payload, (err) => {
    if (err) checked.destroy(err);
  });
  return payload.pipe(checked);
}

/** U+FFFD: what @fastify/busboy puts in place of each byte of a field that is not UTF-8 */
const REPLACEMENT = '\uFFFD';

/** a string in a multipart body (field values, JSON parts' strings, file names) holding U+FFFD */
function hasReplacement(body: unknown): boolean {
  const stack: unknown[] = [body];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes(REPLACEMENT)) return true;
    } else if (Buffer.isBuffer(value)) {
      continue;
    } else if (Array.isArray(value)) {
      stack.push(...value);
    } else if (value && typeof value === 'object') {
      // a file is {filename, mimetype, data}: its name is text, its data is not
      stack.push(...Object.values(value as Record<string, unknown>));
    }
  }
  return false;
}

/**
 * Request bodies are UTF-8 text or a 400 that says so (MESSAGES.bodyNotUtf8), before any route sees
 * them, so nothing is written.
 * - JSON, form-urlencoded and text bodies: their bytes are checked while they are read (a
 *   `charset` parameter naming anything else is refused too: nothing here decodes other charsets).
 * - multipart: @fastify/busboy has decoded each text field by the time the route could look, and its
 *   decoder leaves no trace of a bad byte but U+FFFD; a field or file name holding U+FFFD is refused.
 *   (A member who really typed U+FFFD into a multipart form is refused too; JSON and forms keep it.)
 * Routes with `config.rawBody` (provider webhooks) read their bytes themselves and are left alone.
 */
export const utf8BodiesPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.routeOptions.config.rawBody || !isTextBody(request.headers['content-type'])) return payload;
    return checkedUtf8(payload);
  });
  // after @fastify/multipart's own preValidation hook, which reads the multipart body (app.ts registers this plugin after it)
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.rawBody || !request.isMultipart()) return;
    if (hasReplacement(request.body)) throw notUtf8();
  });
});
