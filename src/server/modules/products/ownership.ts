import type { AuthUser } from '#server/types';
import type { UserService } from '#server/modules/users/index';

/** Whether the member owns the course already: admins open every course; others by a `course:{id}` entitlement. */
export function createOwnership(deps: { users: UserService }) {
  return async function owns(user: AuthUser | null, courseId: number | null) {
    if (!user || courseId === null) return false;
    if (user.isAdmin) return true;
    return (await deps.users.activeEntitlements(user.id)).includes(`course:${courseId}`);
  };
}
export type Owns = ReturnType<typeof createOwnership>;
