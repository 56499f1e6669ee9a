import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/api-harness';
import { sanitizeNotificationBody } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const signedIn = async (opts: Parameters<TestApp['createUser']>[0] = {}) => {
  const { user, client } = await t.signedIn(opts);
  return { user, c: client };
};

describe('notifications', () => {
  it('need sign-in (401)', async () => {
    const c = await t.client();
    expect((await c.get('/notifications/recent')).statusCode).toBe(401);
    expect((await c.get('/mentorship/notifications/recent')).statusCode).toBe(401);
  });

  it('recent answers {data: []} when there are none', async () => {
    const { c } = await signedIn();
    expect((await c.get('/notifications/recent')).json()).toEqual({ data: [], unread_count: 0 });
  });

  it('lists the newest first with id, body, created_at, unread; each area separately', async () => {
    const { user, c } = await signedIn();
    const n = t.app.deps.services.notifications;
    await n.notify(user.id, { body: 'first' });
    await n.notify(user.id, { body: 'second <b>bold</b>', url: '/forums' });
    await n.notify(user.id, { body: 'plan ready', area: 'mentorship' });
    const recent = (await c.get('/notifications/recent')).json();
    expect(recent.unread_count).toBe(2);
    expect(recent.data.map((d: { body: string }) => d.body)).toEqual(['second <b>bold</b>', 'first']);
    expect(recent.data[0]).toMatchObject({ unread: true, url: '/forums' });
    expect(Date.parse(recent.data[0].created_at)).not.toBeNaN();
    const mentorship = (await c.get('/mentorship/notifications/recent')).json();
    expect(mentorship.data.map((d: { body: string }) => d.body)).toEqual(['plan ready']);
  });

  it("opening one marks it read; another member's is not found", async () => {
    const { user, c } = await signedIn();
    const note = await t.app.deps.services.notifications.notify(user.id, { body: 'hello' });
    const { c: other } = await signedIn();
    expect((await other.get(`/api/notifications/${note.id}`)).statusCode).toBe(404);
    const opened = (await c.get(`/api/notifications/${note.id}`)).json();
    expect(opened.data).toMatchObject({ id: note.id, unread: false });
    expect((await c.get('/notifications/recent')).json().unread_count).toBe(0);
  });

  it('pages 20 at a time and can mark all read', async () => {
    const { user, c } = await signedIn();
    for (let i = 0; i < 23; i++) await t.app.deps.services.notifications.notify(user.id, { body: `n${i}` });
    const p1 = (await c.get('/api/notifications?page=1')).json();
    const p2 = (await c.get('/api/notifications?page=2')).json();
    expect([p1.data.length, p1.pages, p2.data.length, p2.page]).toEqual([20, 2, 3, 2]);
    expect((await c.post('/api/notifications/read-all', {})).json().unread_count).toBe(0);
    expect((await c.get('/notifications/recent')).json().unread_count).toBe(0);
  });

  it('bodies are sanitised on the server', () => {
    expect(
      sanitizeNotificationBody(
        '<img src=x onerror=alert(1)><script>alert(1)</script><a href="javascript:alert(1)" onclick="x">hi</a> <strong>ok</strong>',
      ),
    ).toBe('<a>hi</a> <strong>ok</strong>');
    expect(sanitizeNotificationBody('<a href="/forums/1">topic</a>')).toBe('<a href="/forums/1">topic</a>');
  });

  it('only admins send notifications; text is escaped', async () => {
    const { user: member, c: memberClient } = await signedIn();
    expect((await memberClient.post('/api/admin/notifications', { user_id: member.id, body: 'hi' })).statusCode).toBe(
      403,
    );
    const { c: admin } = await signedIn({ role: 'admin' });
    const bad = await admin.post('/api/admin/notifications', { user_id: member.id, body: '' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.body[0]).toBe('The body field is required.');
    const res = await admin.post('/api/admin/notifications', {
      user_id: member.id,
      body: 'Class at <8pm>',
      url: '/live',
    });
    expect(res.statusCode).toBe(201);
    expect((await memberClient.get('/notifications/recent')).json().data[0].body).toBe('Class at &lt;8pm&gt;');
    const offsite = await admin.post('/api/admin/notifications', { user_id: member.id, body: 'x', url: '//evil.test' });
    expect(offsite.statusCode).toBe(422);
  });
});
