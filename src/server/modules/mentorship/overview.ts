import { count, eq } from 'drizzle-orm';
import type { MentorOverview, StudentOverview } from '#shared/mentorship';
import { accountabilityLinks, mentorships } from '#server/db/schema/index';
import type { AuthUser } from '#server/types';
import type { MentorshipDeps, StudentFacts } from './student-facts.ts';

/** The mentorship dashboard's overview. */
export function createOverview(deps: MentorshipDeps, facts: StudentFacts) {
  const { db } = deps;
  const { studentIds, videoCounts, payment, mentorOf, planOf, lessonCounts, isPastDue } = facts;

  return {
    /** the dashboard: a student's progress, or an admin's students summary */
    async overview(user: AuthUser): Promise<StudentOverview | MentorOverview> {
      if (user.isAdmin) {
        const [mine, all] = await Promise.all([studentIds(user.id), studentIds()]);
        const [allVideos, myVideos] = await Promise.all([videoCounts(all), videoCounts(mine)]);
        return {
          role: 'admin',
          myStudents: mine.length,
          allStudents: all.length,
          videosAwaitingFeedback: allVideos.awaitingFeedback,
          myVideosAwaitingFeedback: myVideos.awaitingFeedback,
        };
      }
      const [m] = await db.select().from(mentorships).where(eq(mentorships.studentId, user.id)).limit(1);
      const mentorship = m ?? null;
      const pay = await payment(user.id, mentorship);
      const [linkCount] = await db
        .select({ n: count() })
        .from(accountabilityLinks)
        .where(eq(accountabilityLinks.studentId, user.id));
      return {
        role: 'student',
        mentor: await mentorOf(mentorship),
        status: mentorship?.status ?? null,
        plan: await planOf(user.id),
        links: Number(linkCount?.n ?? 0),
        videos: await videoCounts([user.id]),
        lessons: await lessonCounts(user.id),
        payment: pay,
        pastDue: isPastDue(mentorship, pay),
      };
    },
  };
}
