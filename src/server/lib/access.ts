import type { FastifyRequest } from 'fastify';
import type { RouteAccess } from '#server/types';
import { forbidden } from './errors.ts';
import { requireAdmin, requireCommunity, requireMentorship, requireUser } from './guards.ts';

/**
 * Who may call a route, by class. Each route declares its class in its own options
 * (`config: { access: 'member' }`); plugins/access.ts enforces it and refuses to start an app with a
 * route that declares none, and the authorisation matrix (tests/node/authz-matrix.test.ts) calls
 * every registered route as each actor against its class.
 * - public: anyone; the handler may still decide per object (a members-only lesson, a hidden post)
 * - provider: payment providers' webhooks (signed) and the sandbox provider's stand-in pages and API
 * - member: signed in
 * - community: forums and live shows (membership or mentorship)
 * - moderation: the community's moderation calls (pinning, locking, moving a topic): admins only, and
 *   a non-member hears the members-only message first, as for every forum call (docs/product/forums.md)
 * - mentorship: the mentorship area
 * - admin: staff
 * The class is enforced before the body is validated, so a visitor hears 401 and a member without the
 * right 403, never a validation message about a call they may not make. Rules about one object (the
 * owner of a post, the student of a plan) stay in the features and are proved by the matrix's
 * object-level cases.
 */
export type { RouteAccess };

export const ROUTE_ACCESS_CLASSES: readonly RouteAccess[] = [
  'public',
  'provider',
  'member',
  'community',
  'moderation',
  'mentorship',
  'admin',
];

/** Throws the 401/403 of the route's class (the same guards and wording the features use). */
export function enforceRouteAccess(access: RouteAccess, request: FastifyRequest): void {
  if (access === 'member') requireUser(request);
  else if (access === 'community') requireCommunity(request);
  else if (access === 'moderation') {
    if (!requireCommunity(request).isAdmin) throw forbidden();
  } else if (access === 'mentorship') requireMentorship(request);
  else if (access === 'admin') requireAdmin(request);
}
