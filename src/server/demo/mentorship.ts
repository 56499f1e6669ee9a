import { eq } from 'drizzle-orm';
import type { Tx } from '#server/db/client';
import { accountabilityLinks, courses, lessons, users } from '#server/db/schema/index';
import type { DemoPeople } from './community.ts';

const yt = (id: string) => `https://www.youtube-nocookie.com/embed/${id}`;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

export const MENTORSHIP_DEMO_COURSE = {
  slug: 'mentorship-foundations',
  title: 'Mentorship Foundations',
  description:
    'How the mentorship works: your practice plan, logging tempos, filming yourself and getting the most out of feedback.',
  lessons: [
    [
      'Welcome to Your Mentorship',
      'What the next months look like, how your mentor builds your plan, and how to reach them.',
    ],
    [
      'Reading Your Practice Plan',
      'Phases, weeks and days: what the goal tempo means and how to log your ending tempos honestly.',
    ],
    [
      'Filming Your Practice',
      'Phone placement, sound and framing so your mentor can see your hands and feet and hear the kit.',
    ],
    [
      'Getting the Most from Feedback',
      'Turning written feedback into next week’s practice, and keeping yourself accountable.',
    ],
  ],
} as const;

/**
 * The mentorship area's demo: the admin mentors the student (enrolled by their purchase), one mentorship
 * course of four lessons (listed only in the mentorship area) and three accountability links.
 */
export async function seedMentorship(tx: Tx, { admin, student }: DemoPeople) {
  await tx.update(users).set({ isMentor: true }).where(eq(users.id, admin.id));
  // the student's enrolment is their purchase (purchases.ts): the mentorship checkout assigns the admin as mentor

  const [course] = await tx
    .insert(courses)
    .values({
      slug: MENTORSHIP_DEMO_COURSE.slug,
      title: MENTORSHIP_DEMO_COURSE.title,
      description: MENTORSHIP_DEMO_COURSE.description,
      membersOnly: true,
      area: 'mentorship',
      position: 0,
    })
    .returning();
  await tx.insert(lessons).values(
    MENTORSHIP_DEMO_COURSE.lessons.map(([title, description], position) => ({
      courseId: course!.id,
      slug: title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, ''),
      title,
      description,
      videoUrl: yt(`mentor${String(position + 1).padStart(5, '0')}`),
      membersOnly: true,
      position,
    })),
  );

  await tx.insert(accountabilityLinks).values([
    {
      studentId: student.id,
      url: 'https://www.youtube.com/watch?v=demoGrooveWeek1&list=PLbackbeatMentorship',
      label: 'Week 1: money beat at 80 bpm',
      createdBy: student.id,
      createdAt: hoursAgo(24 * 14),
      updatedAt: hoursAgo(24 * 14),
    },
    {
      studentId: student.id,
      url: 'https://drive.google.com/file/d/1demoPracticeVideoWeek2/view',
      label: 'Week 2: ghost notes, take 3',
      createdBy: student.id,
      createdAt: hoursAgo(24 * 7),
      updatedAt: hoursAgo(24 * 7),
    },
    {
      studentId: student.id,
      url: 'https://www.instagram.com/p/demoFillsLanding/',
      label: '',
      createdBy: admin.id,
      createdAt: hoursAgo(20),
      updatedAt: hoursAgo(20),
    },
  ]);
}
