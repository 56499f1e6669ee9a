import { eq } from 'drizzle-orm';
import type { AppDeps } from '#server/deps';
import {
  appMeta,
  journalEntries,
  practiceSessions,
  lessonQuizzes,
  courses,
  lessons,
  notifications,
  soundslicePaths,
  stageSteps,
  stages,
} from '#server/db/schema/index';
import { hashPassword } from '#server/modules/auth/index';
import { seedCommunity } from './community.ts';
import { seedPracticePlan } from './practice-plan.ts';
import { seedMentorship } from './mentorship.ts';
import { seedPurchases } from './purchases.ts';

export const DEMO_PASSWORD = 'drumsdemo1';
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@demo.test', name: 'Alex Rivera' },
  member: { email: 'member@demo.test', name: 'Maya Chen' },
  student: { email: 'student@demo.test', name: 'Sam Okafor' },
  free: { email: 'free@demo.test', name: 'Jordan Lee' },
} as const;

const yt = (id: string) => `https://www.youtube-nocookie.com/embed/${id}`;
const slice = (id: string) => `https://www.soundslice.com/slices/${id}/embed/`;

const COURSES = [
  {
    slug: 'welcome-to-backbeat',
    title: 'Welcome to Backbeat',
    description: 'Start here: set up your kit, hold the sticks, and play your first groove in a week.',
    membersOnly: false,
    isWelcome: true,
    lessons: [
      ['Setting Up Your Kit', 'Throne height, pedal angles and cymbal placement so you play relaxed from day one.'],
      ['Grip and Stroke', 'Matched grip, the full stroke and the rebound: the motion every groove is built on.'],
      [
        'Your First Rock Beat',
        'Eighth notes on the hi-hat, snare on 2 and 4, kick on 1 and 3. Then we make it groove.',
      ],
    ],
  },
  {
    slug: 'groove-foundations',
    title: 'Groove Foundations',
    description: 'Time feel, ghost notes and the pocket: twelve grooves every working drummer knows.',
    membersOnly: true,
    isWelcome: false,
    lessons: [
      ['Playing to a Click', 'Lock in with the metronome at 70 bpm, then let it disappear.'],
      ['Ghost Notes', 'The quiet notes that make a backbeat breathe. Two heights, one hand.'],
      ['The Half-Time Shuffle', 'Triplet feel, ghosted partials and a heavy backbeat.'],
      ['Funk Sixteenths', 'One-handed and two-handed sixteenth hi-hat patterns with syncopated kicks.'],
    ],
  },
  {
    slug: 'fills-that-flow',
    title: 'Fills That Flow',
    description: 'Fills that leave the groove and land back on one, every time.',
    membersOnly: true,
    isWelcome: false,
    lessons: [
      ['Counting Your Way Around', 'Sixteenth-note fills around the toms, counted out loud.'],
      ['Triplet Fills', 'Rolling triplets between hands and feet.'],
      ['Landing on the Crash', 'Ending a fill with authority: crash and kick together.'],
    ],
  },
  {
    slug: 'double-kick-basics',
    title: 'Double Kick Basics',
    description: 'Balanced feet, even strokes and endurance for double pedal playing.',
    membersOnly: true,
    isWelcome: false,
    lessons: [
      ['Heel Up or Heel Down?', 'Choosing a technique for the tempo you need.'],
      ['Even Singles', 'Right-left sixteenths with a metronome, from 60 to 120 bpm.'],
    ],
  },
] as const;

const STAGES = [
  {
    id: 1,
    title: 'Basics Builder',
    description: 'Grip, posture, reading simple rhythms and your first grooves.',
    steps: [
      'Set up your kit comfortably',
      'Play a rock beat at 80 bpm for two minutes',
      'Read quarter and eighth notes',
      'Finish the Welcome course',
    ],
  },
  {
    id: 2,
    title: 'Coordination Conquest',
    description: 'Independence between hands and feet, simple fills and dynamics.',
    steps: [
      'Play eighth-note grooves with four kick variations',
      'Play a one-bar fill and return to the groove',
      'Play ghost notes at two heights',
    ],
  },
  {
    id: 3,
    title: 'Intermediate Icon',
    description: 'Sixteenth-note grooves, shuffles and fills around the kit.',
    steps: [
      'Play a half-time shuffle at 90 bpm',
      'Play sixteenth fills around the toms',
      'Keep time with a click on 2 and 4',
    ],
  },
  {
    id: 4,
    title: 'On The Rise',
    description: 'Odd groupings, linear patterns, double kick and musical reading.',
    steps: ['Play a linear funk groove', 'Play even double-kick singles at 140 bpm', 'Read and play a one-page chart'],
  },
  {
    id: 5,
    title: 'Master Drummer',
    description: 'Style, soloing and playing for the song at any tempo.',
    steps: [
      'Play a two-minute solo with a clear form',
      'Transcribe and play a song',
      'Play a full song chart with dynamics',
    ],
  },
];

/** Demo content for the embedded default (or DEMO=1): loaded once, in one transaction. */
export async function seedDemo(deps: AppDeps): Promise<boolean> {
  const { db, services } = deps;
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, 'demo_seeded')).limit(1);
  if (done) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const people = await db.transaction(async (tx) => {
    // claim the marker first: a second process starting at the same time fails on the primary key
    await tx.insert(appMeta).values({ key: 'demo_seeded', value: new Date().toISOString() });
    const admin = await services.users.create(
      { ...DEMO_ACCOUNTS.admin, passwordHash, role: 'admin', isMentor: true },
      tx,
    );
    const member = await services.users.create({ ...DEMO_ACCOUNTS.member, passwordHash }, tx);
    const student = await services.users.create(
      { ...DEMO_ACCOUNTS.student, passwordHash, signupSource: 'mentorship' },
      tx,
    );
    const free = await services.users.create({ ...DEMO_ACCOUNTS.free, passwordHash }, tx);
    await services.users.grantEntitlement(admin.id, 'membership', 'demo', null, tx);

    let lessonCounter = 0;
    for (const [position, c] of COURSES.entries()) {
      const [course] = await tx
        .insert(courses)
        .values({
          slug: c.slug,
          title: c.title,
          description: c.description,
          membersOnly: c.membersOnly,
          isWelcome: c.isWelcome,
          position,
          imageUrl: `/images/courses/${c.slug}.svg`,
        })
        .returning();
      for (const [i, [title, description]] of c.lessons.entries()) {
        lessonCounter++;
        const [lesson] = await tx
          .insert(lessons)
          .values({
            courseId: course!.id,
            slug: title
              .toLowerCase()
              .replace(/[^a-z0-9]+/g, '-')
              .replace(/^-|-$/g, ''),
            title,
            description,
            videoUrl: yt(`demo${String(lessonCounter).padStart(7, '0')}`),
            membersOnly: c.membersOnly,
            position: i,
          })
          .returning();
        if (i === 0) {
          await tx.insert(lessonQuizzes).values({
            lessonId: lesson!.id,
            questions: [
              {
                title: 'Where does the snare usually land in a rock beat?',
                options: ['Beats 1 and 3', 'Beats 2 and 4', 'Every eighth note'],
                correct: 1,
              },
              {
                title: 'Which of these is a quarter note?',
                options: ['/images/quiz/quarter.png', '/images/quiz/eighth.png', '/images/quiz/sixteenth.png'],
                correct: 0,
              },
              {
                title: 'A metronome at 120 bpm clicks how many times a minute?',
                options: ['60', '120', '240'],
                correct: 1,
              },
            ],
          });
        }
        await tx.insert(soundslicePaths).values([
          { lessonId: lesson!.id, title: `${title}: exercise sheet`, url: slice(`bb${lessonCounter}a`), position: 0 },
          { lessonId: lesson!.id, title: `${title}: play-along`, url: slice(`bb${lessonCounter}b`), position: 1 },
        ]);
      }
    }

    for (const s of STAGES) {
      await tx
        .insert(stages)
        .values({ id: s.id, title: s.title, description: s.description, imageUrl: `/images/stages/stage-${s.id}.svg` });
      await tx.insert(stageSteps).values(s.steps.map((text, position) => ({ stageId: s.id, text, position })));
    }

    await seedCommunity(tx, { admin, member, student, free });
    await seedPracticePlan(tx, { admin, member, student, free });
    await seedMentorship(tx, { admin, member, student, free });
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

    // a few weeks of practice for the paying member, so the dashboard has something to show
    const dayAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
    const isoDay = (d: Date) => d.toISOString().slice(0, 10);
    const practiced = [20, 18, 17, 15, 14, 13, 11, 10, 8, 7, 6, 4, 3, 2, 1];
    await tx.insert(practiceSessions).values(
      practiced.map((n, i) => ({
        userId: member.id,
        minutes: 15 + ((i * 7) % 30),
        day: isoDay(dayAgo(n)),
        createdAt: dayAgo(n),
      })),
    );
    await tx.insert(journalEntries).values(
      [14, 10, 7, 4, 2].map((n, i) => ({
        userId: member.id,
        createdAt: dayAgo(n),
        exercises: [
          { practicedToday: 'Paradiddles', startingTempo: String(70 + i * 4), endingTempo: String(80 + i * 5) },
          { practicedToday: 'Ghost note groove', startingTempo: String(60 + i * 3), endingTempo: String(66 + i * 4) },
        ],
      })),
    );

    await tx.insert(notifications).values([
      {
        userId: member.id,
        body: '<strong>Welcome to Backbeat!</strong> Start with the Welcome course.',
        url: '/dashboard',
        createdAt: minutesAgo(2000),
      },
      {
        userId: member.id,
        body: '<strong>Alex Rivera</strong> replied to your topic.',
        url: '/forums',
        createdAt: minutesAgo(500),
      },
      {
        userId: member.id,
        body: 'A new live show is scheduled: <strong>Sunday Groove Clinic</strong>.',
        url: '/live',
        createdAt: minutesAgo(60),
      },
      {
        userId: student.id,
        area: 'mentorship',
        body: 'Your mentor added <strong>Week 1</strong> to your practice plan.',
        url: '/mentorship',
        createdAt: minutesAgo(90),
      },
    ]);
    return { admin, member, student };
  });
  // the member's membership and the student's mentorship are bought, as anyone's are
  await seedPurchases(deps, people);
  return true;
}
