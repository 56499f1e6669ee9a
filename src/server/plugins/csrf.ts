import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES } from '#shared/constants';
import { AppError } from '#server/lib/errors';
import { safeEqual } from '#server/lib/crypto';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every state-changing request carries the session's token, as header X-CSRF-TOKEN or form field
 * `_token`. Checked after the body is parsed (the field may be in it), before validation.
 */
export const csrfPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (SAFE.has(request.method) || request.routeOptions.config.csrf === false) return;
    const header = request.headers['x-csrf-token'];
    const body = request.body as Record<string, unknown> | null | undefined;
    const field = body && typeof body === 'object' && !Buffer.isBuffer(body) ? body._token : undefined;
    const sent = typeof header === 'string' ? header : typeof field === 'string' ? field : '';
    if (!sent || !safeEqual(sent, request.csrfToken)) throw new AppError('csrf', MESSAGES.csrfMismatch);
  });
});
