import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { safeRedirect } from '#shared/redirect';

/** A browser navigation (as opposed to a fetch from our client, which asks for JSON). */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !request.headers['x-requested-with'];
}

/** The effective method: a POST may carry `_method` (delete, patch, put) as the product's calls do. */
export function effectiveMethod(request: FastifyRequest): string {
  const body = request.body as Record<string, unknown> | null | undefined;
  const override = body && typeof body === 'object' ? body._method : undefined;
  if (request.method === 'POST' && typeof override === 'string') {
    const m = override.toUpperCase();
    if (m === 'DELETE' || m === 'PATCH' || m === 'PUT') return m;
  }
  return request.method;
}

/**
 * Answer `{redirect}` to our client, or a 303 to a plain HTML form post (no JavaScript), so both work.
 * The address is always on the site (`safeRedirect`; the dashboard otherwise).
 */
export function redirectOrJson(
  request: FastifyRequest,
  reply: FastifyReply,
  redirect: string,
  body: Record<string, unknown> = {},
) {
  const to = safeRedirect(redirect);
  if (wantsHtml(request)) return reply.redirect(to, 303);
  return reply.send({ ...body, redirect: to });
}

export type Handler = RouteHandlerMethod;
