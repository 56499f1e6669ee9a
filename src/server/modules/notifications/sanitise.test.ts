import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import { cleanDisplayText } from '#shared/display-text';
import { forumCategories, notifications } from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';
import { mp4Bytes, uploadVideo } from '#test/uploads';
import { XSS_CORPUS } from '#test/xss-corpus';
import { sanitizeNotificationBody } from './service.ts';

// Stored XSS: every notification a member can cause with their own text (their name, a
// topic title, a video title...) is fed the payload corpus. The stored body (which the client renders
// as HTML) must hold no markup but our own bare template tags: the member's text is escaped text.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** the tags our own templates write, bare (no attributes) */
const TEMPLATE_TAGS = /<\/?(strong|p)>/g;
const STRICT = { allowedTags: [] as string[], allowedAttributes: {} };
const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * the body holds no markup of its own (a strict sanitiser with NO allowed tags leaves it as it is) and
 * shows `text` as text (a title or label as stored: without the bidi and invisible characters names
 * and titles lose on the way in)
 */
function expectEscaped(body: string, text: string) {
  const rest = body.replace(TEMPLATE_TAGS, '');
  expect(sanitizeHtml(rest, STRICT), body).toBe(rest);
  expect(
    [text, cleanDisplayText(text)].some((shown) => decode(rest).includes(shown)),
    body,
  ).toBe(true);
  expect(body).not.toMatch(/<(?!\/?(strong|p)>)/);
}

const bodiesOf = async (userId: number) =>
  (await t.app.deps.db.select().from(notifications).where(eq(notifications.userId, userId))).map((n) => n.body);

async function ok<R extends { statusCode: number; body: string }>(res: Promise<R>, status = [200, 201]): Promise<R> {
  const r = await res;
  expect(status, r.body).toContain(r.statusCode);
  return r;
}

describe('notification bodies hold no markup from member text', () => {
  it('the check fails a body built from unescaped member text (control)', () => {
    for (const p of XSS_CORPUS.filter((x) => x.includes('<'))) {
      expect(() => expectEscaped(sanitizeNotificationBody(`<strong>${p}</strong> wrote on your wall.`), p)).toThrow();
    }
  });

  it('the corpus packs into every field used here (names at most 100 characters)', () => {
    for (const p of XSS_CORPUS) expect(`N ${p}`.length).toBeLessThanOrEqual(100);
  });

  it.each(XSS_CORPUS.map((p, i) => [i, p] as const))(
    'payload %i: wall comments, wall replies, friend requests and acceptances',
    async (_i, payload) => {
      const name = `N ${payload}`;
      const attacker = await t.signedIn({ name, entitlements: ['membership'] });
      const victim = await t.signedIn({ entitlements: ['membership'] });
      // on the victim's wall, and a reply to it
      const wall = (
        await ok(attacker.client.post('/profile-comments', { to_id: victim.user.id, body: payload }))
      ).json() as { id: number }[];
      await ok(
        attacker.client.post('/profile-comments', { to_id: victim.user.id, parent_id: wall[0]!.id, body: payload }),
      );
      // the victim writes on the attacker's wall; the attacker answers ("… replied to your comment on <name>'s wall")
      const theirs = (
        await ok(victim.client.post('/profile-comments', { to_id: attacker.user.id, body: 'hello' }))
      ).json() as { id: number }[];
      await ok(
        attacker.client.post('/profile-comments', { to_id: attacker.user.id, parent_id: theirs[0]!.id, body: payload }),
      );
      // a friend request from the attacker; the attacker accepts one from the victim
      await ok(attacker.client.post('/friends', { user_id: victim.user.id }));
      const other = await t.signedIn({ name: `M ${payload}`, entitlements: ['membership'] });
      const req = (await ok(victim.client.post('/friends', { user_id: other.user.id }))).json() as {
        relationship_id: number;
      };
      await ok(other.client.post(`/friends/${req.relationship_id}/request`, { action: 1 }));

      const bodies = await bodiesOf(victim.user.id);
      expect(bodies.length).toBe(5);
      for (const body of bodies) expectEscaped(body, payload);
      // what the API hands the browser is the same text
      const recent = (await victim.client.get('/notifications/recent')).json() as { data: { body: string }[] };
      for (const n of recent.data) expectEscaped(n.body, payload);
    },
  );

  it.each(XSS_CORPUS.map((p, i) => [i, p] as const))(
    'payload %i: replies and watched topics (name and topic title)',
    async (_i, payload) => {
      const attacker = await t.signedIn({ name: `N ${payload}`, entitlements: ['membership'] });
      const victim = await t.signedIn({ entitlements: ['membership'] });
      // a category to post in (the test database starts without demo content)
      const [cat] = await t.app.deps.db
        .insert(forumCategories)
        .values({ slug: `xss-${Math.random().toString(36).slice(2)}`, title: 'XSS' })
        .returning();
      const topic = (
        await ok(attacker.client.post(`/api/forums/${cat!.slug}/topics`, { title: payload, body: payload }))
      ).json() as { topic: { id: number } };
      // the victim watches the topic and posts in it; the attacker answers the victim's post
      await ok(victim.client.post(`/api/forums/topics/${topic.topic.id}/watch`, { watch: 1 }));
      const mine = (
        await ok(victim.client.post('/posts', { type: 'forumtopic', resource_id: topic.topic.id, body: 'my question' }))
      ).json() as { post: { id: number } };
      await ok(
        attacker.client.post('/posts', {
          type: 'forumtopic',
          resource_id: topic.topic.id,
          parent_id: mine.post.id,
          body: payload,
        }),
      );
      // and a second attacker's post: the watcher hears about it
      const third = await t.signedIn({ name: `O ${payload}`, entitlements: ['membership'] });
      await ok(third.client.post('/posts', { type: 'forumtopic', resource_id: topic.topic.id, body: payload }));

      const bodies = await bodiesOf(victim.user.id);
      expect(bodies.length).toBe(2);
      for (const body of bodies) expectEscaped(body, payload);
    },
  );

  it.each(XSS_CORPUS.map((p, i) => [i, p] as const))(
    'payload %i: mentorship (mentor assignment, accountability links, practice videos)',
    async (_i, payload) => {
      const admin = await t.signedIn({ role: 'admin', name: 'Ada Admin' });
      const mentor = await t.signedIn({ role: 'admin', name: `Mentor ${payload}` });
      const student = await t.signedIn({ name: `S ${payload}`, entitlements: ['mentorship'] });
      await ok(admin.client.post(`/api/mentorship/students/${student.user.id}/mentor`, { mentor_id: mentor.user.id }));
      await ok(
        student.client.post('/mentorship/accountability/links', {
          student_id: student.user.id,
          url: 'https://example.com/a',
          label: payload,
        }),
      );
      await ok(
        mentor.client.post('/mentorship/accountability/links', {
          student_id: student.user.id,
          url: 'https://example.com/b',
          label: payload,
        }),
      );
      const upload_id = await uploadVideo(student.client, mp4Bytes(2500));
      const video = (
        await ok(student.client.post('/mentorship/videos', { upload_id, title: payload, note: payload }))
      ).json() as { data: { id: number } };
      await ok(mentor.client.post(`/mentorship/videos/${video.data.id}/feedback`, { feedback: payload }));

      const toMentor = await bodiesOf(mentor.user.id);
      const toStudent = await bodiesOf(student.user.id);
      expect(toMentor.length).toBe(3); // now the mentor of …, … added an accountability link, … sent a practice video
      expect(toStudent.length).toBe(3); // … is now your mentor, … added a link, your mentor answered …
      for (const body of [...toMentor, ...toStudent]) expectEscaped(body, payload);
    },
  );

  it('the service sanitiser itself drops scripts, handlers and javascript: links from any body', () => {
    for (const p of XSS_CORPUS) {
      const clean = sanitizeNotificationBody(`<strong>x</strong> ${p}`);
      expect(clean).not.toMatch(/<(script|img|svg|iframe|style|details|body|div)\b/i);
      expect(clean).not.toMatch(/\son\w+=/i);
      expect(clean).not.toMatch(/href="\s*javascript:/i);
    }
  });
});
