import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MESSAGES } from '#shared/constants';
import { HTTP } from '#shared/http';
import { AppError } from '#server/lib/errors';
import { wantsHtml } from '#server/lib/http';
import { isServiceUnavailable, ServiceUnavailableError } from '#server/lib/unavailable';
import { renderPage } from './pages.ts';
import { sqlState } from '#server/lib/db-errors';

interface Issue {
  path?: PropertyKey[];
  message: string;
  instancePath?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

/** zod issues -> `{field: [messages]}` in the order they were found. */
function fieldErrors(issues: Issue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const inner = issue.params?.issue;
    const path = inner?.path ?? issue.path ?? [];
    const key = path.length
      ? path.map(String).join('.')
      : (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') || 'body';
    const message = inner?.message ?? issue.message;
    (errors[key] ??= []).push(message);
  }
  return errors;
}

/** seconds a client is asked to wait before trying again while a backing service is away */
const RETRY_AFTER_SECONDS = '5';

const PLAIN_MESSAGES: Record<number, string> = {
  400: 'The request could not be understood.',
  404: MESSAGES.notFound,
  405: 'That method is not allowed here.',
  406: 'That format is not available.',
  413: 'The request is too large.',
  415: 'That content type is not accepted here.',
};

/**
 * One place decides what a failure looks like: 422 with field messages, 401/403/404/419/429 with
 * `{message}` for API calls and a proper page for a browser navigation. 5xx are logged with the
 * request id and never show a stack trace.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    body: { message: string; errors?: Record<string, string[]> },
  ) {
    if (wantsHtml(request) && request.method === 'GET')
      return renderPage(app, request, reply, { status, message: body.message });
    return reply.status(status).type('application/json').send(body);
  }

  const handlerStarted = new WeakSet<FastifyRequest>();
  app.addHook('preHandler', async (request) => void handlerStarted.add(request));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      // a refusal that knows more than it tells the client (libvips' words about an unreadable image)
      if (error.cause !== undefined)
        request.log.info({ reqId: request.id, status: error.statusCode, cause: error.cause }, 'request refused');
      return send(
        request,
        reply,
        error.statusCode,
        error.errors ? { message: error.message, errors: error.errors } : { message: error.message },
      );
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrors(error.validation as unknown as Issue[]);
      const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
      return send(request, reply, HTTP.validation, { message: first, errors });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, reqId: request.id }, 'response did not match its schema');
      return send(request, reply, 500, { message: MESSAGES.serverError });
    }
    // a multipart body that cannot be read (truncated, no boundary...) fails while it is parsed, before
    // the route's handler starts, with the parser's plain Error: that is the sender's mistake
    if (!error.statusCode && !handlerStarted.has(request) && request.isMultipart()) {
      return send(request, reply, 400, { message: 'The request body could not be read.' });
    }
    // PostgreSQL "data exception" (class 22: a NUL byte in text, a number out of range, a malformed
    // value) means a value in the request could not be stored as sent; the transaction rolled back
    if (/^22/.test(sqlState(error))) {
      request.log.info({ reqId: request.id, sqlState: sqlState(error) }, 'request value refused by the database');
      return send(request, reply, 400, { message: 'The request contains a value that cannot be stored.' });
    }
    // PostgreSQL or Redis cannot be reached (restarting, connection cut): a clean 503 the client may
    // retry, no stack trace; the pools reconnect by themselves once the service is back. A service the
    // app already knows to be away (ServiceUnavailableError) is logged by its monitor, not per request.
    if (isServiceUnavailable(error)) {
      const level = error instanceof ServiceUnavailableError ? 'debug' : 'warn';
      request.log[level](
        { reqId: request.id, err: { message: (error as Error).message } },
        'a backing service is unavailable',
      );
      reply.header('Retry-After', RETRY_AFTER_SECONDS);
      return send(request, reply, 503, { message: MESSAGES.unavailable });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (status === 429) return send(request, reply, 429, { message: MESSAGES.tooManyAttempts });
      const badJson = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.name === 'SyntaxError';
      const message = badJson ? 'The request body is not valid JSON.' : (PLAIN_MESSAGES[status] ?? error.message);
      return send(request, reply, status, { message });
    }
    request.log.error({ err: error, reqId: request.id }, 'request failed');
    return send(request, reply, 500, { message: `${MESSAGES.serverError} (reference ${request.id})` });
  });

  app.setNotFoundHandler((request, reply) => {
    if (wantsHtml(request) && (request.method === 'GET' || request.method === 'HEAD'))
      return renderPage(app, request, reply);
    return reply.status(404).send({ message: MESSAGES.notFound });
  });
});
