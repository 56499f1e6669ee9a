import type { FastifyRequest } from 'fastify';
import { COMMUNITY_ENTITLEMENTS, COMMUNITY_MESSAGES } from '#shared/community';
import { MENTORSHIP_MESSAGES } from '#shared/mentorship';
import type { AuthUser } from '#server/types';
import { forbidden, unauthenticated } from './errors.ts';

/**
 * Server-side permission checks: a route's declared class runs one before validation (lib/access.ts);
 * handlers call them to get the signed-in user, and features for rules about one object.
 */
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

/** Forums and live shows: members and mentorship students (admins hold every entitlement). */
export const mayUseCommunity = (user: AuthUser | null) =>
  COMMUNITY_ENTITLEMENTS.some((kind) => hasEntitlement(user, kind));

/** 401 for a visitor; 403 with the members-only message for a signed-in free member. */
export function requireCommunity(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (!mayUseCommunity(user)) throw forbidden(COMMUNITY_MESSAGES.communityMembersOnly);
  return user;
}

/** The mentorship area: students holding the mentorship entitlement, and admins (mentors). */
export function requireMentorship(request: FastifyRequest): AuthUser {
  return requireEntitlement(request, 'mentorship', MENTORSHIP_MESSAGES.mentorshipOnly);
}

/**
 * One student's mentorship records (practice plan, accountability links, videos): the student
 * themself while they hold the mentorship entitlement, or any admin (mentor). Others get 403.
 */
export function requireMentorshipRecord(request: FastifyRequest, studentId: number): AuthUser {
  const user = requireMentorship(request);
  if (!user.isAdmin && user.id !== studentId) throw forbidden(MENTORSHIP_MESSAGES.notYourStudent);
  return user;
}

/** Who made a change, from the request: the admin and the address they came from (the audit log). */
export interface Actor {
  user: AuthUser;
  ip?: string | null;
}

/** The admin making a call, and the address they came from (for the audit log). */
export const adminActor = (request: FastifyRequest): Actor => ({ user: requireAdmin(request), ip: request.ip });
