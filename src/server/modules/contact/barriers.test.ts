import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '#shared/constants';
import { BARRIER_MESSAGES, BARRIER_REPORT, type AdminBarrierRow } from '#shared/accessibility';
import { RATE_LIMITS } from '#server/lib/rate-limits';
import { contactMessages, notifications } from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';
import { BARRIER_INBOX_URL } from './barriers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const db = () => t.app.deps.db;
const reports = () => db().select().from(contactMessages).where(eq(contactMessages.kind, 'barrier'));

describe('POST /accessibility/barriers', () => {
  it('takes a report from a visitor, stores it and tells every admin', async () => {
    const admin = await t.signedIn({ role: 'admin' });
    const visitor = await t.client();
    await visitor.get('/accessibility');
    const res = await visitor.post('/accessibility/barriers', {
      page: '/join',
      description: 'The card form does not say which field is wrong when I use VoiceOver.',
      email: 'reader@example.test',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: BARRIER_MESSAGES.sent });
    const row = (await reports()).find((r) => r.email === 'reader@example.test')!;
    expect(row).toMatchObject({ userId: null, page: '/join', kind: 'barrier' });
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.user.id), eq(notifications.url, BARRIER_INBOX_URL)));
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain('A visitor reported an accessibility barrier');
  });

  it('a member need not give an address: the list shows their own', async () => {
    const member = await t.signedIn({ name: 'Mira Member' });
    const res = await member.client.post('/accessibility/barriers', {
      description: 'The metronome tempo is not read out.',
    });
    expect(res.statusCode).toBe(201);
    const admin = await t.signedIn({ role: 'admin' });
    const list = (await admin.client.get('/api/admin/barrier-reports?q=Mira')).json() as { data: AdminBarrierRow[] };
    expect(list.data).toEqual([
      expect.objectContaining({
        body: 'The metronome tempo is not read out.',
        page: '',
        name: 'Mira Member',
        email: member.user.email,
        user_id: member.user.id,
      }),
    ]);
    expect((await member.client.get('/api/admin/barrier-reports')).statusCode).toBe(403);
  });

  it('refuses bad input with a sentence per field, and stores nothing', async () => {
    const visitor = await t.client();
    await visitor.get('/accessibility');
    const before = (await reports()).length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ description: '   ' }, 'description', BARRIER_MESSAGES.descriptionRequired],
      [{}, 'description', BARRIER_MESSAGES.descriptionRequired],
      [
        { description: 'x'.repeat(BARRIER_REPORT.descriptionMax + 1) },
        'description',
        BARRIER_MESSAGES.descriptionTooLong,
      ],
      [{ description: 'Stuck', email: 'not an address' }, 'email', BARRIER_MESSAGES.emailInvalid],
      [{ description: 'Stuck', page: 'p'.repeat(BARRIER_REPORT.pageMax + 1) }, 'page', BARRIER_MESSAGES.pageTooLong],
    ];
    for (const [body, field, message] of cases) {
      const res = await visitor.post('/accessibility/barriers', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect((res.json() as { errors: Record<string, string[]> }).errors[field]).toEqual([message]);
    }
    expect((await reports()).length).toBe(before);
  });

  it('needs the CSRF token', async () => {
    const visitor = await t.client();
    await visitor.get('/accessibility');
    const res = await visitor.post('/accessibility/barriers', { description: 'Forged' }, { csrf: false });
    expect(res.statusCode).toBe(419);
    expect(res.json()).toEqual({ message: MESSAGES.csrfMismatch });
  });

  it('is rate-limited per address', async () => {
    const visitor = await t.client();
    await visitor.get('/accessibility');
    const limit = RATE_LIMITS.barrierReportsPerIp.points;
    for (let i = 0; i < limit; i++)
      expect((await visitor.post('/accessibility/barriers', { description: `Report ${i}` })).statusCode).toBe(201);
    expect((await visitor.post('/accessibility/barriers', { description: 'One more' })).statusCode).toBe(429);
  });
});
