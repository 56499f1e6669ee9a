/* eslint-disable max-lines -- the demo community's content (forums, topics, posts, live shows) is data, written out in full so the demo reads like a real academy */
import { eq } from 'drizzle-orm';
import type { Tx } from '#server/db/client';
import {
  chatHearts,
  chatMessages,
  forumCategories,
  forumTopics,
  lessons,
  liveShows,
  postLikes,
  posts,
  reports,
  topicLikes,
  topicWatches,
  wallComments,
} from '#server/db/schema/index';

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
  await seedLessonDiscussion(tx, people);
}

/** A short discussion under the first free lesson, so the lesson page shows one. */
async function seedLessonDiscussion(tx: Tx, { admin, member, student, free }: DemoPeople) {
  const [lesson] = await tx
    .select({ id: lessons.id })
    .from(lessons)
    .where(eq(lessons.slug, 'setting-up-your-kit'))
    .limit(1);
  if (!lesson) return;
  const base = { type: 'lesson', resourceId: lesson.id } as const;
  const [q1] = await tx
    .insert(posts)
    .values({
      ...base,
      userId: free.id,
      body: 'My throne is adjustable but I never know where to stop. Thighs level with the floor, or a bit higher?',
      likesCount: 2,
      createdAt: minutesAgo(3000),
    })
    .returning();
  const [a1] = await tx
    .insert(posts)
    .values({
      ...base,
      userId: admin.id,
      parentId: q1!.id,
      replyingToId: q1!.id,
      body: 'Slightly higher than level: thighs sloping down a little. You get power from the legs without locking the hips.',
      likesCount: 1,
      createdAt: minutesAgo(2900),
    })
    .returning();
  await tx.insert(posts).values({
    ...base,
    userId: free.id,
    parentId: q1!.id,
    replyingToId: a1!.id,
    body: 'That fixed my ankle ache after two days. Thank you!',
    createdAt: minutesAgo(2500),
  });
  await tx.insert(posts).values({
    ...base,
    userId: member.id,
    body: 'This video on pedal angles helped me too: https://www.youtube.com/watch?v=demolesson1',
    createdAt: minutesAgo(1200),
  });
  await tx.insert(posts).values({
    ...base,
    userId: student.id,
    body: 'Tip for small rooms: put the hi-hat a little closer than feels natural. Less reaching, better time.',
    createdAt: minutesAgo(600),
  });
  await tx.insert(postLikes).values([
    { postId: q1!.id, userId: admin.id },
    { postId: q1!.id, userId: member.id },
    { postId: a1!.id, userId: free.id },
  ]);
}

type DemoReply = { by: Who; body: string; age: number; replies?: { by: Who; body: string; age: number }[] };
type DemoTopic = {
  cat: number;
  by: Who;
  title: string;
  body: string;
  age: number;
  pinned?: boolean;
  locked?: boolean;
  replies: DemoReply[];
  likedBy: Who[];
  watchedBy: Who[];
};

/**
 * Forum categories and topics. A topic's body is its first post (forum_topics.first_post_id), which
 * is not part of the thread below it; replies are top-level posts, and answers to a reply carry its
 * id as parent_id. comments_count counts every post but the first; likes_count matches topic_likes.
 */
async function seedForums(tx: Tx, { admin, member, student }: DemoPeople) {
  const cats = await tx
    .insert(forumCategories)
    .values([
      { slug: 'general', title: 'General Discussion', description: 'Say hello, share wins, talk drums.', position: 0 },
      {
        slug: 'technique',
        title: 'Technique & Practice',
        description: 'Grip, speed, coordination and practice routines.',
        position: 1,
      },
      { slug: 'gear', title: 'Gear Talk', description: 'Kits, cymbals, pedals, heads and tuning.', position: 2 },
    ])
    .returning();
  const topics: DemoTopic[] = [
    {
      cat: 0,
      by: member,
      age: 600,
      title: 'Hi from Lisbon! Just started Groove Foundations',
      body: 'Been playing for six months on an electronic kit. Loving the ghost notes lesson so far. Any tips for practising quietly at night?',
      replies: [
        {
          by: admin,
          age: 560,
          body: 'Welcome, Maya! Mesh heads and low-volume cymbals help a lot. Also try practising ghost notes on a pad with the metronome at 60 bpm.',
          replies: [{ by: member, age: 540, body: 'Thanks! The pad at 60 bpm is humbling but it works.' }],
        },
        {
          by: student,
          age: 500,
          body: 'Lisbon! I was there last summer. Put a rug under the kit, the neighbours will thank you.',
        },
      ],
      likedBy: [admin, student],
      watchedBy: [member, admin],
    },
    {
      cat: 1,
      by: admin,
      age: 300,
      pinned: true,
      title: 'How long should a practice session be?',
      body: 'A question I get every week. Short answer: 20 focused minutes beat 2 distracted hours. What does your routine look like?',
      replies: [
        {
          by: member,
          age: 280,
          body: 'I do 10 minutes of rudiments, 10 minutes of the lesson groove, then 10 minutes playing along to a song. Is that enough?',
          replies: [
            {
              by: admin,
              age: 270,
              body: 'That is a great shape. Start with the metronome at a tempo where every note feels easy, then add 4 bpm a day.',
            },
            { by: member, age: 260, body: 'Thanks! Trying that tonight.' },
          ],
        },
        {
          by: student,
          age: 240,
          body: 'My mentor has me log every session in the journal. Seeing the minutes add up keeps me going.',
        },
      ],
      likedBy: [member, student],
      watchedBy: [admin, member],
    },
    {
      cat: 2,
      by: student,
      age: 120,
      title: 'First double pedal: what should I look for?',
      body: 'Budget is around 200. Direct drive or chain?',
      replies: [
        {
          by: admin,
          age: 100,
          body: 'Chain drive is more forgiving while you build control. Make sure the slave pedal has a smooth drive shaft with two universal joints.',
          replies: [{ by: student, age: 90, body: 'Good tip, I had not thought about the shaft at all.' }],
        },
      ],
      likedBy: [member],
      watchedBy: [student],
    },
    {
      cat: 0,
      by: admin,
      age: 2880,
      locked: true,
      title: 'Forum guidelines: read before posting',
      body: 'Be kind, stay on topic, no spam or self-promotion without asking first. Share videos of your playing: everyone here started somewhere. This topic is locked; questions go in their own topic.',
      replies: [{ by: member, age: 2800, body: 'Thanks for keeping this place friendly!' }],
      likedBy: [member, student],
      watchedBy: [admin],
    },
    {
      cat: 1,
      by: member,
      age: 1440,
      title: 'Paradiddles fall apart above 110 bpm',
      body: 'My singles are clean up to about 130 but paradiddles get flammy around 110. The accents seem to be the problem. Any exercises?',
      replies: [
        {
          by: admin,
          age: 1400,
          body: 'Play them unaccented first, with both sticks at the same height. Add the accents back only when the unaccented version is relaxed at 110.',
          replies: [
            { by: member, age: 1380, body: 'Unaccented at 110 feels fine. So the accent stroke is what tenses me up.' },
            { by: admin, age: 1370, body: 'Exactly. Think "down-stroke" on the accent, not "hit harder".' },
          ],
        },
        {
          by: student,
          age: 1300,
          body: 'Speed training in the metronome helped me: 90 to 120, plus 2 bpm every 4 bars.',
        },
      ],
      likedBy: [admin],
      watchedBy: [member, admin],
    },
    {
      cat: 1,
      by: student,
      age: 900,
      title: 'Counting sixteenth-note triplets out loud?',
      body: 'I can play them but I lose count. How do you say them? "1-ta-te-and-ta-te"?',
      replies: [
        {
          by: admin,
          age: 860,
          body: 'Yes, "1-la-li-&-la-li" or "1-ta-te-&-ta-te", whichever you can say quickly. Say it before you play it.',
        },
      ],
      likedBy: [],
      watchedBy: [student],
    },
    {
      cat: 2,
      by: member,
      age: 200,
      title: 'Snare tuning: how do I get rid of the ring?',
      body: 'New 14x5.5 steel snare. It rings forever. I would rather not cover it in gel pads. Ideas?',
      replies: [
        {
          by: student,
          age: 180,
          body: 'Check the heads are tensioned evenly first: tap an inch in front of each lug and match the pitch.',
        },
        {
          by: admin,
          age: 150,
          body: 'Drop the batter head a quarter turn on every lug and bring the resonant head up slightly. A bit of ring is fine: it disappears in the mix.',
          replies: [{ by: member, age: 140, body: 'Quarter turn did it. Sounds fat now.' }],
        },
      ],
      likedBy: [admin, student],
      watchedBy: [member],
    },
    {
      cat: 0,
      by: student,
      age: 60,
      title: 'Show us your practice space',
      body: 'Mine is a corner of the garage with egg-box foam on the walls. Post a description of yours!',
      replies: [
        { by: member, age: 40, body: 'Spare bedroom, e-kit, headphones. Not glamorous but I can play at midnight.' },
      ],
      likedBy: [member],
      watchedBy: [student],
    },
  ];
  for (const t of topics) {
    const [topic] = await tx
      .insert(forumTopics)
      .values({
        categoryId: cats[t.cat]!.id,
        userId: t.by.id,
        title: t.title,
        pinned: t.pinned ?? false,
        locked: t.locked ?? false,
        createdAt: minutesAgo(t.age),
        lastActivityAt: minutesAgo(t.age),
      })
      .returning();
    const base = { type: 'forumtopic', resourceId: topic!.id } as const;
    const [first] = await tx
      .insert(posts)
      .values({ ...base, userId: t.by.id, body: t.body, createdAt: minutesAgo(t.age), updatedAt: minutesAgo(t.age) })
      .returning();
    let comments = 0;
    let lastAge = t.age;
    for (const r of t.replies) {
      const [parent] = await tx
        .insert(posts)
        .values({
          ...base,
          userId: r.by.id,
          parentId: null,
          body: r.body,
          createdAt: minutesAgo(r.age),
          updatedAt: minutesAgo(r.age),
        })
        .returning();
      comments++;
      lastAge = Math.min(lastAge, r.age);
      let answering = parent!.id;
      for (const c of r.replies ?? []) {
        const [child] = await tx
          .insert(posts)
          .values({
            ...base,
            userId: c.by.id,
            parentId: parent!.id,
            replyingToId: answering,
            body: c.body,
            createdAt: minutesAgo(c.age),
            updatedAt: minutesAgo(c.age),
          })
          .returning();
        answering = child!.id;
        comments++;
        lastAge = Math.min(lastAge, c.age);
      }
    }
    await tx
      .update(forumTopics)
      .set({
        firstPostId: first!.id,
        commentsCount: comments,
        likesCount: t.likedBy.length,
        lastActivityAt: minutesAgo(lastAge),
      })
      .where(eq(forumTopics.id, topic!.id));
    if (t.likedBy.length)
      await tx.insert(topicLikes).values(t.likedBy.map((u) => ({ topicId: topic!.id, userId: u.id })));
    if (t.watchedBy.length)
      await tx.insert(topicWatches).values(t.watchedBy.map((u) => ({ topicId: topic!.id, userId: u.id })));
  }
}

async function seedLive(tx: Tx, { admin, member, student }: DemoPeople) {
  const [clinic] = await tx
    .insert(liveShows)
    .values({
      title: 'Sunday Groove Clinic',
      description: 'Live Q&A and a walkthrough of three funk grooves. Bring your questions.',
      startsAt: minutesAgo(25),
      videoUrl: yt('demolive001'),
      status: 'live',
      chatOpen: true,
      topic: 'Groove 2: the ghost notes sit between the backbeats. Keep them quiet!',
    })
    .returning();
  await tx.insert(liveShows).values([
    {
      title: 'Double Pedal Bootcamp',
      description: 'Heel-toe, slide and swivel: building even doubles from 80 to 160 bpm.',
      startsAt: new Date(Date.now() + 3 * 24 * 60 * 60_000),
      videoUrl: yt('demolive002'),
    },
    {
      title: 'Fills That Flow',
      description: 'Ending fills on the one, and moving around the toms without rushing.',
      startsAt: minutesAgo(7 * 24 * 60),
      videoUrl: yt('demolive000'),
      status: 'ended',
    },
  ]);
  const lines: [Who, string, number][] = [
    [admin, 'Welcome everyone! We start with groove 1 in a minute. Sticks ready?', 2],
    [member, 'Hi from Lisbon!', 0],
    [student, 'Ready! Practice pad on my lap.', 1],
    [member, 'What tempo are we starting at?', 0],
    [admin, '90 bpm for groove 1, then we push to 100.', 3],
    [student, 'Is the hi-hat open on the "and" of 4?', 0],
    [admin, 'Yes, open on the "and" of 4 and close it with your foot on 1.', 2],
    [member, 'That pedal close on 1 is harder than it looks', 1],
    [student, 'Same here. My foot wants to follow my right hand.', 0],
    [admin, 'Slow it down to 70 and count out loud. It clicks after a few minutes.', 4],
    [member, 'Counting out loud works. Thanks!', 0],
    [student, 'Groove 2 ghost notes: how quiet is quiet?', 0],
    [admin, 'About 2 inches stick height. The backbeat is 12 inches or more.', 3],
    [member, 'Loving this clinic', 2],
    [student, 'Can we get groove 3 at 80 first?', 0],
  ];
  const start = 20;
  const rows = await tx
    .insert(chatMessages)
    .values(
      lines.map(([who, body], i) => ({
        showId: clinic!.id,
        userId: who.id,
        body,
        heartsCount: 0,
        createdAt: minutesAgo(start - i),
      })),
    )
    .returning({ id: chatMessages.id });
  // the counts match real heart rows (one per member per message)
  const fans = [admin, member, student];
  const hearts = lines.flatMap(([, , n], i) =>
    fans.slice(0, Math.min(n, fans.length)).map((fan) => ({ messageId: rows[i]!.id, userId: fan.id })),
  );
  if (hearts.length) await tx.insert(chatHearts).values(hearts);
  for (let i = 0; i < lines.length; i++) {
    const n = Math.min(lines[i]![2], fans.length);
    if (n) await tx.update(chatMessages).set({ heartsCount: n }).where(eq(chatMessages.id, rows[i]!.id));
  }
}

/**
 * Profile wall comments with replies on the member's and the admin's walls (the member's first
 * comment has more than five replies, so "Load more" shows), and one open report of a wall comment.
 */
async function seedWalls(tx: Tx, { admin, member, student, free }: DemoPeople) {
  const add = async (toId: number, by: Who, body: string, age: number, parentId: number | null = null) =>
    (
      await tx
        .insert(wallComments)
        .values({ toId, userId: by.id, body, parentId, createdAt: minutesAgo(age) })
        .returning()
    )[0]!;

  const welcome = await add(
    member.id,
    admin,
    'Great progress on the paradiddles this week! Keep the sticks low and the tempo honest.',
    60 * 30,
  );
  const replies: [Who, string][] = [
    [member, 'Thanks! The metronome at 80 bpm really helped.'],
    [student, 'Same here, low sticks changed everything for me.'],
    [admin, 'Next step: accent the first note of each group.'],
    [member, 'Will do. Recording a video this weekend.'],
    [student, 'Post it in the forums, I want to hear it!'],
    [free, 'Inspiring stuff, thanks for sharing.'],
    [member, 'Video is up in Technique & Practice.'],
  ];
  for (const [i, [by, body]] of replies.entries()) await add(member.id, by, body, 60 * 29 - i * 90, welcome.id);
  const jam = await add(
    member.id,
    student,
    'Fancy a groove swap? I will send you my 7/8 idea if you send me your shuffle.',
    60 * 6,
  );
  await add(member.id, member, 'Deal! Sending it tonight.', 60 * 5, jam.id);
  await add(member.id, free, 'Hi! Just joined, your practice journal is a great idea.', 45);

  const thanks = await add(admin.id, member, 'Thank you for the live show on Thursday, the Q&A was gold.', 60 * 20);
  await add(admin.id, admin, 'Glad it helped! Bring your questions next time too.', 60 * 19, thanks.id);
  const spam = await add(admin.id, free, 'Cheap cymbals here!!! visit my shop for 90% off', 60 * 2);

  await tx.insert(reports).values({
    kind: 'wall',
    targetId: spam.id,
    reporterId: member.id,
    reason: 'Looks like spam: advertising a shop.',
    createdAt: minutesAgo(60),
  });
}
