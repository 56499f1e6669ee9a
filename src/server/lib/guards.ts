import type { FastifyRequest } from 'fastify';
import { COMMUNITY_ENTITLEMENTS, COMMUNITY_MESSAGES } from '#shared/community';
import { MENTORSHIP_MESSAGES } from '#shared/mentorship';
import type { AuthUser } from '#server/types';
import { forbidden, unauthenticated } from './errors.ts';

/** Server-side permission checks; every route calls the one it needs. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}

/** Route options for paying calls: a visitor hears "sign in" before anything about the body. */
export const signedInFirst = { preValidation: async (request: FastifyRequest) => void requireUser(request) };

export function requireAdmin(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (!user.isAdmin) throw forbidden();
  return user;
}

/** Route options for admin calls: a visitor hears 401 and a member 403 before anything about the body. */
export const adminOnly = { preValidation: async (request: FastifyRequest) => void requireAdmin(request) };

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
