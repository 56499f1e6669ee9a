import type { FastifyRequest } from 'fastify';

/**
 * The Idempotency-Key header of one paying attempt, or the `idempotency_key` a plain form sends:
 * null when missing or shorter than 8 characters, at most 200 characters kept.
 */
export function clientIdempotencyKey(request: FastifyRequest, bodyKey: string | undefined): string | null {
  const header = request.headers['idempotency-key'];
  const value = (Array.isArray(header) ? header[0] : header) ?? bodyKey;
  const trimmed = typeof value === 'string' ? value.trim().slice(0, 200) : '';
  return trimmed.length >= 8 ? trimmed : null;
}
