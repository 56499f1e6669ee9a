import { eq } from 'drizzle-orm';
import { courses, type lessons } from '#server/db/schema/index';
import { hasEntitlement } from '#server/lib/guards';
import type { AuthUser } from '#server/types';

export type LessonRow = typeof lessons.$inferSelect;
/** the membership opens every course; a course bought on its own (`course:{id}`) opens that course */
export const opensCourse = (user: AuthUser | null, courseId: number) =>
  hasEntitlement(user, 'membership') || hasEntitlement(user, `course:${courseId}`);
export const ownedCourseIds = (user: AuthUser | null) =>
  (user?.entitlements ?? []).flatMap((k) => (/^course:\d+$/.test(k) ? [Number(k.slice('course:'.length))] : []));
export const canWatch = (user: AuthUser | null, lesson: Pick<LessonRow, 'membersOnly' | 'courseId'>) =>
  !lesson.membersOnly || opensCourse(user, lesson.courseId);
/** the main area's courses; 'mentorship' courses are listed only in the mentorship area */
export const MAIN_AREA = eq(courses.area, 'main');
