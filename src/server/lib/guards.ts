import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '#server/types';
import { forbidden, unauthenticated } from './errors.ts';

/** Server-side permission checks; every route calls the one it needs. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}

export function requireAdmin(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (!user.isAdmin) throw forbidden();
  return user;
}

/** Admins hold every entitlement (they teach and moderate). */
export function hasEntitlement(user: AuthUser | null, kind: string): boolean {
  return !!user && (user.isAdmin || user.entitlements.includes(kind));
}

export function requireEntitlement(request: FastifyRequest, kind: string, message?: string): AuthUser {
  const user = requireUser(request);
  if (!hasEntitlement(user, kind)) throw forbidden(message);
  return user;
}
