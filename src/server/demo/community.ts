import type { Tx } from '#server/db/client';
import { forumCategories, forumTopics, liveShows, posts } from '#server/db/schema/index';

type Who = { id: number };
export interface DemoPeople {
  admin: Who;
  member: Who;
  student: Who;
  free: Who;
}
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
const yt = (id: string) => `https://www.youtube-nocookie.com/embed/${id}`;

/** Demo community content, inside the demo seed's transaction. One function per area. */
export async function seedCommunity(tx: Tx, people: DemoPeople) {
  await seedForums(tx, people);
  await seedLive(tx, people);
  await seedWalls(tx, people);
}

async function seedForums(tx: Tx, { admin, member, student }: DemoPeople) {
  const cats = await tx
    .insert(forumCategories)
    .values([
      { slug: 'general', title: 'General Discussion', description: 'Say hello, share wins, talk drums.', position: 0 },
      { slug: 'technique', title: 'Technique & Practice', description: 'Grip, speed, coordination and practice routines.', position: 1 },
      { slug: 'gear', title: 'Gear Talk', description: 'Kits, cymbals, pedals, heads and tuning.', position: 2 },
    ])
    .returning();
  const topicDefs = [
    { cat: 0, user: member.id, title: 'Hi from Lisbon! Just started Groove Foundations', body: 'Been playing for six months on an electronic kit. Loving the ghost notes lesson so far. Any tips for practising quietly at night?', age: 600 },
    { cat: 1, user: admin.id, title: 'How long should a practice session be?', body: 'A question I get every week. Short answer: 20 focused minutes beat 2 distracted hours. What does your routine look like?', age: 300, pinned: true },
    { cat: 2, user: student.id, title: 'First double pedal: what should I look for?', body: 'Budget is around 200. Direct drive or chain?', age: 120 },
  ];
  for (const t of topicDefs) {
    const [topic] = await tx
      .insert(forumTopics)
      .values({ categoryId: cats[t.cat]!.id, userId: t.user, title: t.title, pinned: t.pinned ?? false, createdAt: minutesAgo(t.age), lastActivityAt: minutesAgo(t.age - 60) })
      .returning();
    const [first] = await tx.insert(posts).values({ type: 'forumtopic', resourceId: topic!.id, userId: t.user, body: t.body, createdAt: minutesAgo(t.age) }).returning();
    const [reply] = await tx
      .insert(posts)
      .values({ type: 'forumtopic', resourceId: topic!.id, userId: admin.id === t.user ? member.id : admin.id, parentId: first!.id, replyingToId: first!.id, body: 'Great question. Start with the metronome at a tempo where every note feels easy, then add 4 bpm a day.', createdAt: minutesAgo(t.age - 30) })
      .returning();
    await tx.insert(posts).values({ type: 'forumtopic', resourceId: topic!.id, userId: t.user, parentId: first!.id, replyingToId: reply!.id, body: 'Thanks! Trying that tonight.', createdAt: minutesAgo(t.age - 60) });
  }

}

async function seedLive(tx: Tx, people: DemoPeople) {
  void people;
  await tx.insert(liveShows).values({
    title: 'Sunday Groove Clinic',
    description: 'Live Q&A and a walkthrough of three funk grooves. Bring your questions.',
    startsAt: new Date(Date.now() + 3 * 24 * 60 * 60_000),
    videoUrl: yt('demolive001'),
    chatOpen: false,
  });
}

async function seedWalls(tx: Tx, people: DemoPeople) {
  void tx;
  void people;
}
