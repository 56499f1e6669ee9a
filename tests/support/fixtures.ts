import { and, eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { SANDBOX_CARDS } from '#shared/commerce';
import type { PracticePlan, PracticePlanAnswer } from '#shared/mentorship';
import { uniq } from './ids.ts';
import { practicePlan } from './practice-plans.ts';
import {
  courses,
  forumCategories,
  forumTopics,
  lessons,
  liveShows,
  posts,
  sandboxObjects,
} from '#server/db/schema/index';
import type { SandboxProvider } from '#server/modules/payments/sandbox/index';
import type { TestApp, TestClient } from '#test/api-harness';

/**
 * Setup shared by the proof suites (tests/node): the same steps the module tests take (a topic with a
 * first post, a live show, a course with lessons, a confirmed sandbox card, a built practice plan),
 * written once so a suite that drives many features does not copy them.
 */

export { uniq } from './ids.ts';
export { exercise, practiceDay, practicePlan } from './practice-plans.ts';

/** a forum category and a topic by `userId` with its first post (as the forums create them) */
export async function newTopic(t: TestApp, userId: number, title = 'A topic') {
  const db = t.app.deps.db;
  const [cat] = await db
    .insert(forumCategories)
    .values({ slug: uniq('cat'), title: 'Proof suite' })
    .returning();
  const [topic] = await db.insert(forumTopics).values({ categoryId: cat!.id, userId, title }).returning();
  const [first] = await db
    .insert(posts)
    .values({ type: 'forumtopic', resourceId: topic!.id, userId, body: 'The topic body' })
    .returning();
  await db.update(forumTopics).set({ firstPostId: first!.id }).where(eq(forumTopics.id, topic!.id));
  return { categoryId: cat!.id, topicId: topic!.id, firstPostId: first!.id };
}

/** a reply in a topic through POST /posts (201), as its author's browser sends it */
export async function replyIn(client: TestClient, topicId: number, body = 'A reply') {
  const res = await client.post('/posts', { type: 'forumtopic', resource_id: topicId, parent_id: null, body });
  if (res.statusCode !== 201) throw new Error(`POST /posts: ${res.statusCode} ${res.body}`);
  return (res.json() as { post: { id: number } }).post.id;
}

/** a live show with its chat open */
export async function newShow(t: TestApp) {
  const [show] = await t.app.deps.db
    .insert(liveShows)
    .values({ title: 'Clinic', startsAt: new Date(), status: 'live', chatOpen: true })
    .returning();
  return show!;
}

/** a chat message in a show, through POST /live-chat/messages */
export async function chatMessage(client: TestClient, showId: number, body = 'Great fill!') {
  const res = await client.post('/live-chat/messages', { showId, body });
  if (res.statusCode !== 200) throw new Error(`POST /live-chat/messages: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: number }).id;
}

/** a course of the academy with `n` lessons */
export async function newCourse(t: TestApp, n: number, opts: { membersOnly?: boolean } = {}) {
  const db = t.app.deps.db;
  const [course] = await db
    .insert(courses)
    .values({ slug: uniq('course'), title: 'Proof course', membersOnly: opts.membersOnly ?? false })
    .returning();
  const rows = await db
    .insert(lessons)
    .values(
      Array.from({ length: n }, (_, i) => ({
        courseId: course!.id,
        slug: `lesson-${i + 1}`,
        title: `Lesson ${i + 1}`,
        position: i,
        membersOnly: opts.membersOnly ?? false,
        videoUrl: 'https://www.youtube-nocookie.com/embed/x',
      })),
    )
    .returning();
  return { courseId: course!.id, slug: course!.slug, lessonIds: rows.map((l) => l.id) };
}

export const sandboxOf = (t: TestApp) => t.app.deps.services.payments.providerFor('card') as unknown as SandboxProvider;

/** what the product card form does: a client secret, then the sandbox confirms the card */
export async function productCardToken(
  t: TestApp,
  client: TestClient,
  slug: string,
  number: string = SANDBOX_CARDS.succeeds,
) {
  const res = await client.post(`/api/products/${slug}/card/client-secret`);
  if (res.statusCode !== 200) throw new Error(`client secret: ${res.statusCode} ${res.body}`);
  const { paymentMethod } = await sandboxOf(t).confirmSetup({
    clientSecret: (res.json() as { clientSecret: string }).clientSecret,
    number,
    expMonth: 12,
    expYear: 2040,
    cvc: '123',
    name: 'Ann Buyer',
  });
  return paymentMethod;
}

/** what the membership checkout's card form does (GET /order/stripe-client-secret, then the sandbox "Stripe API") */
export async function checkoutCardToken(client: TestClient, number: string = SANDBOX_CARDS.succeeds) {
  const secret = await client.get('/order/stripe-client-secret');
  if (secret.statusCode !== 200) throw new Error(`client secret: ${secret.statusCode} ${secret.body}`);
  const res = await client.post('/sandbox/setup-intents/confirm', {
    client_secret: (secret.json() as { clientSecret: string }).clientSecret,
    number,
    exp_month: 12,
    exp_year: new Date().getUTCFullYear() + 2,
    cvc: '123',
    name: 'Ann Drummer',
  });
  if (res.statusCode !== 200) throw new Error(`confirm: ${res.statusCode} ${res.body}`);
  return (res.json() as { payment_method: string }).payment_method;
}

/** sandbox charges made for a member (the metadata every charge carries) */
export async function sandboxChargesOf(t: TestApp, userId: number) {
  return t.app.deps.db.$count(
    sandboxObjects,
    and(eq(sandboxObjects.kind, 'charge'), sql`${sandboxObjects.data} -> 'metadata' ->> 'userId' = ${String(userId)}`),
  );
}

// -- the mentorship practice plan ------------------------------------------------------------------

export const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export async function openPlan(client: TestClient, studentId?: number) {
  const res = await client.get(`/mentorship/practice-plan${studentId ? `?student_id=${studentId}` : ''}`);
  if (res.statusCode !== 200) throw new Error(`GET /mentorship/practice-plan: ${res.statusCode} ${res.body}`);
  return res.json() as PracticePlanAnswer;
}
export const savePlan = (
  client: TestClient,
  a: { id: number; admin_version?: number; student_version?: number },
  plan: PracticePlan,
) =>
  client.post('/mentorship/practice-plan', {
    practice_plan: plan,
    id: a.id,
    admin_version: a.admin_version,
    student_version: a.student_version,
  });

/** a mentorship student with a plan their mentor (an admin) has built */
export async function builtPlan(t: TestApp) {
  const s = await t.signedIn({ entitlements: ['mentorship'] });
  const a = await t.signedIn({ role: 'admin' });
  const first = await openPlan(a.client, s.user.id);
  const res = await savePlan(a.client, first, practicePlan());
  if (res.statusCode !== 200) throw new Error(`save: ${res.statusCode} ${res.body}`);
  return { s, a, plan: res.json() as PracticePlanAnswer };
}

// -- realtime --------------------------------------------------------------------------------------

/** every event a socket receives, to look at after the fact */
export function collectEvents(socket: Socket) {
  const events: Array<{ channel: string; event: string; payload: Record<string, unknown> }> = [];
  socket.on('event', (m: (typeof events)[number]) => events.push(m));
  return events;
}
