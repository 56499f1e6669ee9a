/* eslint-disable max-lines -- every 'at most one' rule raced across two processes on PostgreSQL, sharing the two-process setup at its top */
import { afterAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { CATEGORY_MESSAGES } from '#shared/admin-community';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { FIELD_MESSAGES } from '#shared/constants';
import { POINTS } from '#shared/learning';
import { PRACTICE_PLAN_MESSAGES, type PracticePlanAnswer } from '#shared/mentorship';
import { userChannel } from '#shared/realtime';
import {
  achievements,
  chatHearts,
  chatMessages,
  forumCategories,
  forumTopics,
  friendships,
  lessonCompletions,
  lessonQuizzes,
  notifications,
  orders,
  pointsLedger,
  postLikes,
  posts,
  practiceSessions,
  products,
  reports,
  songTemplates,
  topicLikes,
  userAchievements,
  users,
} from '#server/db/schema/index';
import { createTestApp, subscribe, type TestApp, type TestClient } from '#test/api-harness';
import { until } from '#test/until';
import {
  builtPlan,
  chatMessage,
  checkoutCardToken,
  clone,
  collectEvents,
  exercise,
  newCourse,
  newShow,
  newTopic,
  openPlan,
  productCardToken,
  replyIn,
  sandboxChargesOf,
  savePlan,
  uniq,
} from '#test/fixtures';

// Load and concurrency: many members acting at once leave exact counts and no lost update.
// One table: each row names what happens at once and what must hold afterwards, and drives the real
// app (PGlite by default; a fresh PostgreSQL database when TEST_DATABASE_URL is set, where requests
// really run in parallel on a pool of connections). Each row runs ROUNDS times, since a race that is
// lost once may be won the next time.

const ROUNDS = Number(process.env.CONCURRENCY_ROUNDS ?? 2);
const t: TestApp = await createTestApp();
afterAll(async () => t.close());
const db = t.app.deps.db;

const member = () => t.signedIn({ entitlements: ['membership'] });
const members = (n: number) => Promise.all(Array.from({ length: n }, () => member()));
const codes = (rs: Array<{ statusCode: number }>) => rs.map((r) => r.statusCode);
const count = (n: unknown) => Number(n);
const achievementIds = async (...slugs: string[]) =>
  (await db.select().from(achievements).where(inArray(achievements.slug, slugs))).map((a) => a.id);

/** new forum categories with these titles */
const categories = (...titles: string[]) =>
  db
    .insert(forumCategories)
    .values(titles.map((title) => ({ slug: uniq(title.toLowerCase()), title })))
    .returning();

interface Scenario {
  /** what many members do at once */
  name: string;
  /** what must hold afterwards */
  expect: string;
  run: () => Promise<void>;
}

const SCENARIOS: Scenario[] = [
  // ---- likes ----
  {
    name: 'like one post: 20 members at once',
    expect: 'every answer 200 {liked: true}; likes_count 20 and 20 like rows',
    run: async () => {
      const author = await member();
      const { topicId } = await newTopic(t, author.user.id);
      const postId = await replyIn(author.client, topicId, 'Popular');
      const likers = await members(20);
      const answers = await Promise.all(
        likers.map((l) => l.client.post('/toggle-like', { type: 'post', resource_id: postId })),
      );
      expect(codes(answers)).toEqual(Array(20).fill(200));
      expect(answers.every((a) => a.json().liked === true)).toBe(true);
      expect(Math.max(...answers.map((a) => a.json().likes as number))).toBe(20);
      const [row] = await db.select({ n: posts.likesCount }).from(posts).where(eq(posts.id, postId));
      expect(row!.n).toBe(20);
      expect(await db.$count(postLikes, eq(postLikes.postId, postId))).toBe(20);
    },
  },
  {
    name: 'like/unlike races: each of 8 members toggles a post 3 times at once, one member 7 times',
    expect:
      'every answer 200 and never below 0; one row per member (an odd number of clicks ends liked) and likes_count equal to the rows; all unliking at once bring it to exactly 0',
    run: async () => {
      const author = await member();
      const { topicId } = await newTopic(t, author.user.id);
      const postId = await replyIn(author.client, topicId, 'Racy');
      const likers = await members(8);
      const toggles = likers.flatMap((l, i) =>
        Array.from({ length: i === 0 ? 7 : 3 }, () =>
          l.client.post('/toggle-like', { type: 'post', resource_id: postId }),
        ),
      );
      const answers = await Promise.all(toggles);
      expect(codes(answers).every((c) => c === 200)).toBe(true);
      expect(answers.every((a) => (a.json().likes as number) >= 0)).toBe(true);
      const rows = await db.select().from(postLikes).where(eq(postLikes.postId, postId));
      const [row] = await db.select({ n: posts.likesCount }).from(posts).where(eq(posts.id, postId));
      expect(row!.n).toBe(rows.length);
      // one member's clicks flip in turn (the post's row is locked first): an odd number ends liked
      expect(new Set(rows.map((r) => r.userId)).size).toBe(rows.length);
      expect(rows.map((r) => r.userId).sort()).toEqual(likers.map((l) => l.user.id).sort());
      const liked = likers.filter((l) => rows.some((r) => r.userId === l.user.id));
      await Promise.all(liked.map((l) => l.client.post('/toggle-like', { type: 'post', resource_id: postId })));
      const [after] = await db.select({ n: posts.likesCount }).from(posts).where(eq(posts.id, postId));
      expect(after!.n).toBe(0);
      expect(await db.$count(postLikes, eq(postLikes.postId, postId))).toBe(0);
    },
  },
  {
    name: 'start topics in one category: 12 members at once, then one moderator moves 6 to another category while another hides 4 and deletes 2',
    expect:
      "each category's topic counts (all, and what members see) equal its topics, on the forums index and the category page",
    run: async () => {
      const [from, to] = await categories('From', 'To');
      const writers = await members(12);
      const started = await Promise.all(
        writers.map((w, i) => w.client.post(`/api/forums/${from!.slug}/topics`, { title: `Groove ${i}`, body: 'b' })),
      );
      expect(codes(started)).toEqual(Array(12).fill(201));
      const ids = started.map((r) => r.json().topic.id as number);
      const [mover, moderator] = await Promise.all([t.signedIn({ role: 'admin' }), t.signedIn({ role: 'admin' })]);
      const moderated = await Promise.all([
        ...ids.slice(0, 6).map((id) => mover.client.post(`/api/forums/topics/${id}/move`, { category_id: to!.id })),
        ...[0, 3, 6, 9].map((i) => moderator.client.post(`/api/admin/moderation/topic/${ids[i]}`, { action: 'hide' })),
        ...[7, 10].map((i) => moderator.client.post(`/api/admin/moderation/topic/${ids[i]}`, { action: 'delete' })),
      ]);
      expect(codes(moderated)).toEqual(Array(12).fill(200));
      // moved 0–5 (0 and 3 hidden); left 6, 8, 9, 11 (6 and 9 hidden)
      for (const [cat, topics, seen] of [
        [to!, 6, 4],
        [from!, 4, 2],
      ] as const) {
        const all = await db.$count(forumTopics, eq(forumTopics.categoryId, cat.id));
        const visible = await db.$count(
          forumTopics,
          and(eq(forumTopics.categoryId, cat.id), sql`${forumTopics.hiddenAt} is null`),
        );
        expect([all, visible]).toEqual([topics, seen]);
        const listed = (reader: TestClient) =>
          reader.get('/api/forums').then((r) => r.json().data.find((c: { id: number }) => c.id === cat.id).topicsCount);
        expect(await listed(writers[0]!.client)).toBe(visible);
        expect(await listed(mover.client)).toBe(all);
        const page = await writers[0]!.client.get(`/api/forums/${cat.slug}`);
        expect(page.json().category.topicsCount).toBe(visible);
      }
    },
  },
  {
    name: 'an admin deletes a category while 6 members start topics in it and a moderator moves one into it',
    expect:
      'no answer is an error and no topic is lost: either the category stays (422 naming how many topics it holds) with every topic answered 201, or it is gone and no topic was answered 201 in it',
    run: async () => {
      const [cat, elsewhere] = await categories('Doomed', 'Elsewhere');
      const writers = await members(6);
      const [admin, moderator] = await Promise.all([t.signedIn({ role: 'admin' }), t.signedIn({ role: 'admin' })]);
      const mover = await writers[0]!.client.post(`/api/forums/${elsewhere!.slug}/topics`, {
        title: 'Mover',
        body: 'b',
      });
      const moving = mover.json().topic.id as number;
      const [deleted, moved, ...started] = await Promise.all([
        admin.client.request('DELETE', `/api/admin/categories/${cat!.id}`),
        moderator.client.post(`/api/forums/topics/${moving}/move`, { category_id: cat!.id }),
        ...writers.map((w, i) => w.client.post(`/api/forums/${cat!.slug}/topics`, { title: `Last ${i}`, body: 'b' })),
      ]);
      const inCategory = await db.$count(forumTopics, eq(forumTopics.categoryId, cat!.id));
      if (deleted!.statusCode === 200) {
        // deleted first: nothing was put in it, and the moved topic stayed where it was
        expect(codes(started)).toEqual(Array(6).fill(404));
        expect(moved!.statusCode).toBe(422);
        expect(inCategory).toBe(0);
        expect(await db.$count(forumTopics, eq(forumTopics.id, moving))).toBe(1);
      } else {
        // refused with the number of topics it held when the admin's turn came (at least one)
        expect(deleted!.statusCode).toBe(422);
        expect(codes(started)).toEqual(Array(6).fill(201));
        expect(moved!.statusCode).toBe(200);
        expect(inCategory).toBe(7);
        const refusals = Array.from({ length: 7 }, (_, i) => CATEGORY_MESSAGES.notEmpty(i + 1));
        expect(refusals).toContain(deleted!.json().message);
      }
    },
  },
  {
    name: 'like one forum topic: 12 members at once, then all unlike at once',
    expect: 'likes_count 12 with 12 rows, then 0 with 0 rows',
    run: async () => {
      const author = await member();
      const { topicId } = await newTopic(t, author.user.id);
      const likers = await members(12);
      const answers = await Promise.all(
        likers.map((l) => l.client.post('/forums/api/likes/topics/toggle', { model_id: topicId })),
      );
      expect(codes(answers)).toEqual(Array(12).fill(200));
      const likes = async () =>
        (await db.select({ n: forumTopics.likesCount }).from(forumTopics).where(eq(forumTopics.id, topicId)))[0]!.n;
      expect(await likes()).toBe(12);
      expect(await db.$count(topicLikes, eq(topicLikes.topicId, topicId))).toBe(12);
      await Promise.all(likers.map((l) => l.client.post('/forums/api/likes/topics/toggle', { model_id: topicId })));
      expect(await likes()).toBe(0);
      expect(await db.$count(topicLikes, eq(topicLikes.topicId, topicId))).toBe(0);
    },
  },
  // ---- hearts (live chat: a message's hearts never go below 0) ----
  {
    name: 'heart one chat message: 15 members at once; one of them toggles 5 more times at once',
    expect: 'hearts 15 with 15 rows; after her 5 racing clicks (odd) exactly 14 with 14 rows, no answer below 0',
    run: async () => {
      const show = await newShow(t);
      const author = await member();
      const messageId = await chatMessage(author.client, show.id);
      const fans = await members(15);
      const heart = (c: TestClient) => c.post('/live-chat/toggle-heart', { show_id: show.id, message_id: messageId });
      const hearts = async () =>
        (await db.select({ n: chatMessages.heartsCount }).from(chatMessages).where(eq(chatMessages.id, messageId)))[0]!
          .n;
      expect(codes(await Promise.all(fans.map((f) => heart(f.client))))).toEqual(Array(15).fill(200));
      expect(await hearts()).toBe(15);
      expect(await db.$count(chatHearts, eq(chatHearts.messageId, messageId))).toBe(15);
      const race = await Promise.all(Array.from({ length: 5 }, () => heart(fans[0]!.client)));
      expect(codes(race)).toEqual(Array(5).fill(200));
      expect(race.every((a) => (a.json().hearts as number) >= 0)).toBe(true);
      // her five clicks flip in turn (the message row is locked first): she ends un-hearted
      expect(await db.$count(chatHearts, eq(chatHearts.messageId, messageId))).toBe(14);
      expect(await hearts()).toBe(14);
    },
  },
  // ---- completing lessons: progress, points and achievements ----
  {
    name: 'one member completes 10 lessons at once',
    expect:
      'progress 10/10 (100%); 10 point rows (100 points); First Steps, Groove Student and Century unlocked once each, one popup each',
    run: async () => {
      const { slug, lessonIds } = await newCourse(t, 10);
      const m = await member();
      const socket = await t.socket(m.client);
      expect((await subscribe(socket, userChannel(m.user.id))).ok).toBe(true);
      const events = collectEvents(socket);
      const answers = await Promise.all(
        lessonIds.map((id) => m.client.post('/lesson-completions', { lesson_id: id, complete: true })),
      );
      expect(codes(answers)).toEqual(Array(10).fill(200));
      expect(await db.$count(lessonCompletions, eq(lessonCompletions.userId, m.user.id))).toBe(10);
      expect((await m.client.get(`/api/courses/${slug}`)).json().data.progress).toEqual({
        completed: 10,
        total: 10,
        percent: 100,
      });
      const ledger = await db.select().from(pointsLedger).where(eq(pointsLedger.userId, m.user.id));
      expect(ledger).toHaveLength(10);
      expect(ledger.reduce((s, r) => s + r.points, 0)).toBe(10 * POINTS.lessonComplete.points);
      const unlocked = await db.select().from(userAchievements).where(eq(userAchievements.userId, m.user.id));
      expect(unlocked.map((u) => u.achievementId).sort()).toEqual(
        (await achievementIds('first-lesson', 'ten-lessons', 'hundred-points')).sort(),
      );
      const popups = () => events.filter((e) => e.event === 'UnlockedAchievement');
      await until('three popups', () => popups().length >= 3, { seen: () => events });
      // every answer is in, so every popup has been sent; a socket receives its events in the order they
      // were sent, so a duplicate popup would arrive before this last event
      t.app.deps.realtime.publish(userChannel(m.user.id), 'NotificationCreated', { last: true });
      await until('the last event', () => events.some((e) => e.event === 'NotificationCreated'), {
        seen: () => events,
      });
      expect(
        popups()
          .map((e) => (e.payload as { progress: { details: { name: string } } }).progress.details.name)
          .sort(),
      ).toEqual(['Century', 'First Steps', 'Groove Student']);
      expect(events.filter((e) => e.event === 'PointsAdded')).toHaveLength(10);
      socket.disconnect();
    },
  },
  {
    name: 'the same lesson: completed by 12 members at once, and by one member 6 times at once (double clicks)',
    expect: 'one completion row and one 10-point row per member; First Steps once each',
    run: async () => {
      const { lessonIds } = await newCourse(t, 1);
      const lessonId = lessonIds[0]!;
      const many = await members(12);
      const eager = many[0]!;
      const answers = await Promise.all([
        ...many.map((m) => m.client.post('/lesson-completions', { lesson_id: lessonId, complete: true })),
        ...Array.from({ length: 5 }, () =>
          eager.client.post('/lesson-completions', { lesson_id: lessonId, complete: true }),
        ),
      ]);
      expect(codes(answers).every((c) => c === 200)).toBe(true);
      expect(answers.every((a) => a.json().progress.completed === 1)).toBe(true);
      const ids = many.map((m) => m.user.id);
      expect(await db.$count(lessonCompletions, eq(lessonCompletions.lessonId, lessonId))).toBe(12);
      const ledger = await db
        .select()
        .from(pointsLedger)
        .where(and(inArray(pointsLedger.userId, ids), eq(pointsLedger.reason, `lesson:${lessonId}`)));
      expect(ledger.map((r) => r.userId).sort()).toEqual([...ids].sort());
      const [first] = await achievementIds('first-lesson');
      expect(
        await db.$count(
          userAchievements,
          and(inArray(userAchievements.userId, ids), eq(userAchievements.achievementId, first!)),
        ),
      ).toBe(12);
    },
  },
  {
    name: 'a passed quiz submitted 5 times at once',
    expect: 'five answers "passed"; the 20 quiz points and Quiz Whiz paid once',
    run: async () => {
      const { lessonIds } = await newCourse(t, 1);
      const lessonId = lessonIds[0]!;
      await db
        .insert(lessonQuizzes)
        .values({ lessonId, questions: [{ title: 'Quarter notes per bar in 4/4?', options: ['2', '4'], correct: 1 }] });
      const m = await member();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => m.client.post('/lessons/quiz', { id: lessonId, answers: [1] })),
      );
      expect(codes(answers)).toEqual(Array(5).fill(200));
      expect(answers.every((a) => a.json().passed === true)).toBe(true);
      expect(
        await db.$count(
          pointsLedger,
          and(eq(pointsLedger.userId, m.user.id), eq(pointsLedger.reason, `quiz:${lessonId}`)),
        ),
      ).toBe(1);
      const [whiz] = await achievementIds('quiz-whiz');
      expect(
        await db.$count(
          userAchievements,
          and(eq(userAchievements.userId, m.user.id), eq(userAchievements.achievementId, whiz!)),
        ),
      ).toBe(1);
    },
  },
  {
    name: 'practice time logged from 6 tabs at once (10 minutes each)',
    expect: "today shows exactly 60 minutes; the day's 5 points paid once; Woodshedder unlocked once",
    run: async () => {
      const m = await member();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => m.client.post('/journal/log-time-practiced', { minutes_practiced: 10 })),
      );
      expect(codes(answers)).toEqual(Array(6).fill(200));
      expect((await m.client.get('/api/practice/summary')).json().data.today).toBe(60);
      const [sum] = await db
        .select({ n: sql<number>`sum(${practiceSessions.minutes})::int` })
        .from(practiceSessions)
        .where(eq(practiceSessions.userId, m.user.id));
      expect(count(sum!.n)).toBe(60);
      expect(
        await db.$count(
          pointsLedger,
          and(eq(pointsLedger.userId, m.user.id), sql`${pointsLedger.reason} like 'practice:%'`),
        ),
      ).toBe(1);
      const [wood] = await achievementIds('first-hour');
      expect(
        await db.$count(
          userAchievements,
          and(eq(userAchievements.userId, m.user.id), eq(userAchievements.achievementId, wood!)),
        ),
      ).toBe(1);
    },
  },
  // ---- buying the last course spot ----
  {
    name: 'the last spot of a course tier: 6 members buy at once',
    expect:
      "exactly one 200; five 409 with the spec's sold-out message; sold = spots (never above); only the winner charged and let in",
    run: async () => {
      const { courseId, lessonIds } = await newCourse(t, 1, { membersOnly: true });
      const slug = uniq('last_spot').replace(/-/g, '_');
      await db.insert(products).values({
        slug,
        kind: 'course',
        title: 'Last spot',
        courseId,
        level: 'basic',
        priceCents: 49_00,
        spots: 3,
        sold: 2,
      });
      const buyers = await Promise.all(Array.from({ length: 6 }, () => t.signedIn()));
      const tokens = await Promise.all(buyers.map((b) => productCardToken(t, b.client, slug)));
      const answers = await Promise.all(
        buyers.map((b, i) =>
          b.client.post(`/api/products/${slug}/card`, { stripeToken: tokens[i], idempotency_key: 'buy' }),
        ),
      );
      expect(codes(answers).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const a of answers.filter((x) => x.statusCode === 409))
        expect(a.json().message).toBe(COMMERCE_MESSAGES.soldOut);
      const [p] = await db.select().from(products).where(eq(products.slug, slug));
      expect(p!.sold).toBe(3);
      const winner = buyers[answers.findIndex((a) => a.statusCode === 200)]!;
      for (const b of buyers) {
        const won = b === winner;
        expect(await sandboxChargesOf(t, b.user.id), `charges of ${won ? 'the winner' : 'a loser'}`).toBe(won ? 1 : 0);
        expect((await b.client.get(`/api/lessons/${lessonIds[0]}`)).json().data.locked).toBe(!won);
      }
      const paid = await db
        .select()
        .from(orders)
        .where(and(eq(orders.productSlug, slug), eq(orders.status, 'paid')));
      expect(paid.map((o) => o.userId)).toEqual([winner.user.id]);
    },
  },
  // ---- duplicate submits ----
  {
    name: 'a membership checkout submitted 3 times at once (one Idempotency-Key)',
    expect: 'three 200s with the same order page; one order, one charge',
    run: async () => {
      const { user, client } = await t.signedIn();
      const pm = await checkoutCardToken(client);
      const headers = { 'Idempotency-Key': uniq('attempt') };
      const body = { checkout: 'academy', stripeToken: pm, plan: 'lifetime' };
      const answers = await Promise.all(
        [1, 2, 3].map(() => client.request('POST', '/order/stripe', body, { headers })),
      );
      expect(codes(answers)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => a.json().url)).size).toBe(1);
      expect(await db.$count(orders, eq(orders.userId, user.id))).toBe(1);
      expect(await sandboxChargesOf(t, user.id)).toBe(1);
    },
  },
  {
    name: 'a mentorship checkout started twice at once (one idempotency_key)',
    expect: 'both 200 with the same checkout address; one order',
    run: async () => {
      const { user, client } = await t.signedIn();
      const body = { price: 3900, idempotency_key: uniq('mentorship') };
      const [a, b] = await Promise.all([
        client.post('/mentorship/create-checkout', body),
        client.post('/mentorship/create-checkout', body),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(a.json().url).toBe(b.json().url);
      expect(await db.$count(orders, eq(orders.userId, user.id))).toBe(1);
    },
  },
  {
    name: 'registration: one email submitted from 4 browsers at once',
    expect: 'one 200; three 422 "The email has already been taken." under errors.email; one account',
    run: async () => {
      const email = `${uniq('racer')}@test.test`;
      const browsers = await Promise.all([1, 2, 3, 4].map(() => t.client()));
      const answers = await Promise.all(
        browsers.map((b) =>
          b.post('/register', { name: 'Rae Racer', email, email_confirmation: email, password: 'password123' }),
        ),
      );
      expect(codes(answers).sort()).toEqual([200, 422, 422, 422]);
      for (const a of answers.filter((x) => x.statusCode === 422))
        expect(a.json().errors).toEqual({ email: [FIELD_MESSAGES.emailTaken] });
      expect(await db.$count(users, sql`lower(${users.email}) = ${email}`)).toBe(1);
    },
  },
  {
    name: 'registration: 4 people with the same name at once (different emails)',
    expect: 'four 200s; four accounts with four different profile addresses',
    run: async () => {
      const name = `Sam ${uniq('Same')}`;
      const browsers = await Promise.all([1, 2, 3, 4].map(() => t.client()));
      const answers = await Promise.all(
        browsers.map((b, i) => {
          const email = `${uniq(`same${i}`)}@test.test`;
          return b.post('/register', { name, email, email_confirmation: email, password: 'password123' });
        }),
      );
      expect(answers.map((a) => `${a.statusCode} ${a.statusCode === 200 ? '' : a.body}`)).toEqual(
        Array(4).fill('200 '),
      );
      const rows = await db.select({ slug: users.slug }).from(users).where(eq(users.name, name));
      expect(rows).toHaveLength(4);
      expect(new Set(rows.map((r) => r.slug)).size).toBe(4);
    },
  },
  {
    name: 'a post reported by one member from 3 tabs at once (double vote)',
    expect: 'one 201 and two 200 answering the same report; one report row',
    run: async () => {
      const author = await member();
      const { topicId } = await newTopic(t, author.user.id);
      const postId = await replyIn(author.client, topicId, 'Reported');
      const reporter = await member();
      const answers = await Promise.all(
        [1, 2, 3].map(() => reporter.client.post('/api/reports', { kind: 'post', id: postId, reason: 'spam' })),
      );
      expect(codes(answers).sort()).toEqual([200, 200, 201]);
      expect(new Set(answers.map((a) => a.json().data.id)).size).toBe(1);
      expect(
        await db.$count(reports, and(eq(reports.reporterId, reporter.user.id), eq(reports.targetId, postId))),
      ).toBe(1);
    },
  },
  {
    name: 'two members ask each other to be friends at the same moment',
    expect: 'one friendship row, accepted (each asked, so each accepted the other); answers "pending" and "friends"',
    run: async () => {
      const [a, b] = await members(2);
      const [ra, rb] = await Promise.all([
        a!.client.post('/friends', { user_id: b!.user.id }),
        b!.client.post('/friends', { user_id: a!.user.id }),
      ]);
      expect([ra.statusCode, rb.statusCode]).toEqual([200, 200]);
      const rows = await db
        .select()
        .from(friendships)
        .where(inArray(friendships.requesterId, [a!.user.id, b!.user.id]));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe('accepted');
      // the later call saw the earlier request and accepted it (or, raced, accepted it after its own insert lost)
      expect([ra.json().status, rb.json().status].sort()).toEqual(['friends', 'pending']);
      expect((await a!.client.get('/api/friends')).json().data.friends.map((f: { id: number }) => f.id)).toEqual([
        b!.user.id,
      ]);
    },
  },
  {
    name: 'a friend request accepted from 3 tabs at once',
    expect: 'one acceptance: the asker is told once; the other tabs hear 409',
    run: async () => {
      const [a, b] = await members(2);
      const asked = await a!.client.post('/friends', { user_id: b!.user.id });
      const id = asked.json().relationship_id as number;
      const answers = await Promise.all([1, 2, 3].map(() => b!.client.post(`/friends/${id}/request`, { action: 1 })));
      expect(codes(answers).sort()).toEqual([200, 409, 409]);
      expect(
        await db.$count(
          notifications,
          and(eq(notifications.userId, a!.user.id), sql`${notifications.body} like '%accepted your friend request%'`),
        ),
      ).toBe(1);
    },
  },
  {
    name: 'a song template saved under one title from 4 tabs at once',
    expect: 'four 200s; one template with that title',
    run: async () => {
      const m = await member();
      const title = uniq('Groove');
      const { DEFAULT_TEMPLATE } = await import('#shared/songmapper');
      const answers = await Promise.all(
        [1, 2, 3, 4].map((i) =>
          m.client.post('/songmapper/templates', { title, song: { ...DEFAULT_TEMPLATE, title, bpm: String(80 + i) } }),
        ),
      );
      expect(codes(answers)).toEqual([200, 200, 200, 200]);
      expect(
        await db.$count(songTemplates, and(eq(songTemplates.userId, m.user.id), eq(songTemplates.title, title))),
      ).toBe(1);
    },
  },
  // ---- the practice plan (a student's save merges; a mentor's stale save is 409) ----
  {
    name: 'a practice plan saved by its student and their mentor at the same moment',
    expect:
      "both 200; the student's tempo and completed day and the mentor's new title and exercise all kept; each version +1",
    run: async () => {
      const { s, a, plan: p } = await builtPlan(t);
      const mine = clone(p.practice_plan);
      mine.phase1[0]![0]!.exercises[0]!.endingTempo2 = '88';
      mine.phase1[0]![1]!.complete = true;
      const mentor = clone(p.practice_plan);
      mentor.phase1[0]![1]!.title = 'Renamed Tuesday';
      const added = exercise({ title: 'Added meanwhile' });
      mentor.phase1[0]![0]!.exercises.push(added);
      const answers = await Promise.all([savePlan(s.client, p, mine), savePlan(a.client, p, mentor)]);
      expect(codes(answers)).toEqual([200, 200]);
      const after = await openPlan(a.client, s.user.id);
      expect([after.admin_version, after.student_version]).toEqual([p.admin_version + 1, p.student_version + 1]);
      const [d0, d1] = after.practice_plan.phase1[0]!;
      expect(d0!.exercises[0]!.endingTempo2).toBe('88');
      expect(d0!.exercises[1]).toEqual(added);
      expect(d1).toMatchObject({ title: 'Renamed Tuesday', complete: true });
    },
  },
  {
    name: "a practice plan saved from two of the mentor's tabs (and a second mentor) at once, from the same version",
    expect:
      "one 200; the others 409 with the spec's conflict message and the plan as saved; the saved plan is the winner's, whole",
    run: async () => {
      const { s, a, plan: p } = await builtPlan(t);
      const other = await t.signedIn({ role: 'admin' });
      const edits = ['Tab one', 'Tab two', 'Other mentor'].map((title) => {
        const m = clone(p.practice_plan);
        m.phase1[0]![0]!.title = title;
        m.phase1[0]![0]!.exercises[0]!.goal = String(100 + title.length);
        return m;
      });
      const answers = await Promise.all([
        savePlan(a.client, p, edits[0]!),
        savePlan(a.client, p, edits[1]!),
        savePlan(other.client, p, edits[2]!),
      ]);
      expect(codes(answers).sort()).toEqual([200, 409, 409]);
      const winner = answers.findIndex((r) => r.statusCode === 200);
      for (const r of answers.filter((x) => x.statusCode === 409)) {
        expect(r.json().message).toBe(PRACTICE_PLAN_MESSAGES.conflict);
      }
      const after = await openPlan(a.client, s.user.id);
      expect(after.admin_version).toBe(p.admin_version + 1);
      expect(after.practice_plan.phase1[0]![0]!).toMatchObject({
        title: edits[winner]!.phase1[0]![0]!.title,
        exercises: [expect.objectContaining({ goal: edits[winner]!.phase1[0]![0]!.exercises[0]!.goal })],
      });
    },
  },
  {
    name: "a practice plan saved from two of the student's tabs at once, from the same version, each changing another field",
    expect:
      "one 200; the other 409 with the plan as saved (no silent undo of the first tab's change); then the second tab's change, resent from that plan, is kept with the first",
    run: async () => {
      const { s, plan: p } = await builtPlan(t);
      const tab1 = clone(p.practice_plan);
      tab1.phase1[0]![0]!.exercises[0]!.endingTempo1 = '90';
      const tab2 = clone(p.practice_plan);
      tab2.phase1[0]![1]!.exercises[0]!.endingTempo3 = '95';
      const answers = await Promise.all([savePlan(s.client, p, tab1), savePlan(s.client, p, tab2)]);
      expect(codes(answers).sort()).toEqual([200, 409]);
      const lost = answers.findIndex((r) => r.statusCode === 409);
      const refused = answers[lost]!.json() as { message: string; current: PracticePlanAnswer };
      expect(refused.message).toBe(PRACTICE_PLAN_MESSAGES.studentConflict);
      expect(refused.current.student_version).toBe(p.student_version + 1);
      // what the refused tab does: show the saved plan, the member types again, it saves
      const again = clone(refused.current.practice_plan);
      if (lost === 0) again.phase1[0]![0]!.exercises[0]!.endingTempo1 = '90';
      else again.phase1[0]![1]!.exercises[0]!.endingTempo3 = '95';
      expect((await savePlan(s.client, refused.current, again)).statusCode).toBe(200);
      const after: PracticePlanAnswer = await openPlan(s.client);
      expect(after.student_version).toBe(p.student_version + 2);
      expect(after.practice_plan.phase1[0]![0]!.exercises[0]!.endingTempo1).toBe('90');
      expect(after.practice_plan.phase1[0]![1]!.exercises[0]!.endingTempo3).toBe('95');
    },
  },
];

describe(`concurrency correctness (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${ROUNDS} rounds each)`, () => {
  it.each(SCENARIOS.map((s) => [`${s.name} → ${s.expect}`, s] as const))(
    '%s',
    async (_name, s) => {
      for (let round = 0; round < ROUNDS; round++) await s.run();
    },
    120_000,
  );
});
