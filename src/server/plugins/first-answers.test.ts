import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_ANSWERS_ELEMENT_ID } from '#shared/constants';
import { createTestApp, type TestApp } from '#test/api-harness';
import { newCourse, newTopic, replyIn } from '#test/fixtures';
import { firstReadsFor } from './first-answers.ts';

/*
 * A signed-in page carries the answers to its first reads, made by the same
 * routes with the member's own cookie. tests/e2e/page-load.spec.ts checks the browser uses them.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const BLOCK = new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">(.*?)</script>`, 's');
const answersOf = (html: string): Record<string, unknown> | null => {
  const m = BLOCK.exec(html);
  return m ? (JSON.parse(m[1]!) as Record<string, unknown>) : null;
};

describe('first answers in a served page', () => {
  it("hold the lesson, its discussion and the member's notifications, as the routes answer them to this member", async () => {
    const { lessonIds } = await newCourse(t, 1);
    const id = lessonIds[0]!;
    const { client } = await t.signedIn();
    await client.post('/posts', { type: 'lesson', resource_id: id, parent_id: null, body: 'Great lesson' });
    const answers = answersOf((await client.page(`/lessons/${id}`)).body);
    expect(Object.keys(answers ?? {}).sort()).toEqual(
      [`/api/lessons/${id}`, `/inline-posts?type=lesson&id=${id}&sort=upvoted&page=1`, '/notifications/recent'].sort(),
    );
    for (const url of Object.keys(answers!)) expect(answers![url], url).toEqual((await client.get(url)).json());
  });

  it('hold a forum topic, its thread and the forums list', async () => {
    const { user, client } = await t.signedIn({ entitlements: ['membership'] });
    const { topicId } = await newTopic(t, user.id);
    await replyIn(client, topicId, 'Same here');
    const answers = answersOf((await client.page(`/forums/topic/${topicId}`)).body)!;
    expect(Object.keys(answers).sort()).toEqual(
      [
        `/forums/api/topic/${topicId}`,
        `/posts?id=${topicId}&type=forumtopic`,
        '/api/forums',
        '/notifications/recent',
      ].sort(),
    );
    expect(JSON.stringify(answers[`/posts?id=${topicId}&type=forumtopic`])).toContain('Same here');
    // a free member's page leaves out what the forums refuse them (the client does not ask either)
    const free = await t.signedIn();
    expect(Object.keys(answersOf((await free.client.page(`/forums/topic/${topicId}`)).body) ?? {})).toEqual([
      '/notifications/recent',
    ]);
  });

  it('cannot be closed or broken by member text', async () => {
    const { user, client } = await t.signedIn({ entitlements: ['membership'] });
    const { topicId } = await newTopic(t, user.id);
    const hostile = '</script><script>alert(1)</script><!-- \u2028 -->';
    await replyIn(client, topicId, hostile);
    const html = (await client.page(`/forums/topic/${topicId}`)).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(JSON.stringify(answersOf(html))).toContain(hostile);
  });

  it('leave out a read the route refuses, and are not written for a visitor or for an error page', async () => {
    const { client } = await t.signedIn();
    const answers = answersOf((await client.page('/lessons/2147483000')).body);
    expect(Object.keys(answers ?? {})).toEqual(['/notifications/recent']);
    // a visitor of a public page
    const visitor = await t.client();
    expect(answersOf((await visitor.page('/')).body)).toBeNull();
    expect(answersOf((await client.page('/no-such-page')).body)).toBeNull();
  });

  it('are read for the addresses the client spells, and only for plain ids', () => {
    expect(firstReadsFor('/lessons/12', false)).toEqual([]);
    expect(firstReadsFor('/lessons/12', true)).toEqual([
      '/notifications/recent',
      '/api/lessons/12',
      '/inline-posts?type=lesson&id=12&sort=upvoted&page=1',
    ]);
    expect(firstReadsFor('/lessons/..%2Fadmin', true)).toEqual(['/notifications/recent']);
    expect(firstReadsFor('/mentorship/lessons', true)).toEqual(['/mentorship/notifications/recent']);
  });
});
