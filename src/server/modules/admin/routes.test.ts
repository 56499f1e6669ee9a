import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from '#shared/zod';
import { ADMIN_IMAGE, type AdminOverview, type AdminPage, type AuditEntry } from '#shared/admin';
import { siteSettings } from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { pngBytes } from '#test/images';
import { recordAudit } from './audit.ts';

let t: TestApp;
let admin: TestClient;
let adminId: number;
beforeAll(async () => {
  t = await createTestApp();
  const a = await t.signedIn({ role: 'admin', name: 'Ada Admin' });
  admin = a.client;
  adminId = a.user.id;
});
afterAll(async () => t?.close());

const actor = async () => {
  const { users } = t.app.deps.services;
  return { user: await users.toAuthUser((await users.findById(adminId))!), ip: '203.0.113.9' };
};

describe('POST /api/admin/images', () => {
  it('stores a real image under a random name and answers its address', async () => {
    const res = await admin.upload(
      '/api/admin/images',
      ADMIN_IMAGE.field,
      '../../etc/passwd.png',
      await pngBytes(),
      'image/png',
    );
    expect(res.statusCode).toBe(200);
    const { url } = res.json() as { url: string };
    expect(url).toMatch(/^\/files\/images\/[A-Za-z0-9_-]+\.png$/);
    expect((await admin.get(url)).statusCode).toBe(200);
  });

  it.each([
    [
      'an SVG with a script',
      'logo.svg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'image/svg+xml',
    ],
    ['a script named .png', 'cover.png', Buffer.from('<script>alert(1)</script>'), 'image/png'],
    ['an empty file', 'cover.png', Buffer.alloc(0), 'image/png'],
  ])('refuses %s by its content', async (_what, name, data, type) => {
    const res = await admin.upload('/api/admin/images', ADMIN_IMAGE.field, name, data, type);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: { [ADMIN_IMAGE.field]: [ADMIN_IMAGE.invalid] } });
  });

  it('refuses a decompression bomb (enormous pixel dimensions)', async () => {
    // a tiny PNG header claiming 100,000 x 100,000 pixels
    const bomb = await pngBytes(1, 1);
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    const res = await admin.upload('/api/admin/images', ADMIN_IMAGE.field, 'bomb.png', bomb, 'image/png');
    expect(res.statusCode).toBe(422);
  });
});

describe('audit log', () => {
  it('pages, searches and filters entries, newest first', async () => {
    const a = await actor();
    for (let i = 1; i <= 30; i++)
      await recordAudit(t.app.deps.db, a, {
        action: 'course.update',
        targetType: 'course',
        targetId: i,
        summary: `Course ${i}`,
        before: { title: `Old ${i}` },
        after: { title: `New ${i}` },
      });
    await recordAudit(t.app.deps.db, a, {
      action: 'member.suspend',
      targetType: 'member',
      targetId: 77,
      summary: 'zed@example.com',
    });

    const first = (await admin.get('/api/admin/audit-log?per_page=10')).json() as AdminPage<AuditEntry>;
    expect(first.total).toBeGreaterThanOrEqual(31);
    expect(first.data).toHaveLength(10);
    expect(first.data[0]).toMatchObject({
      action: 'member.suspend',
      target_id: '77',
      actor: { id: adminId, name: 'Ada Admin' },
      ip: '203.0.113.9',
    });

    const search = (await admin.get('/api/admin/audit-log?q=zed@')).json() as AdminPage<AuditEntry>;
    expect(search.data.map((e) => e.action)).toEqual(['member.suspend']);

    const one = (
      await admin.get('/api/admin/audit-log?target_type=course&target_id=7')
    ).json() as AdminPage<AuditEntry>;
    expect(one.data).toHaveLength(1);
    expect(one.data[0]).toMatchObject({ before: { title: 'Old 7' }, after: { title: 'New 7' } });

    const byAction = (
      await admin.get('/api/admin/audit-log?sort=action&dir=asc&per_page=1')
    ).json() as AdminPage<AuditEntry>;
    expect(byAction).toMatchObject({ sort: 'action', dir: 'asc' });
    expect(byAction.data[0]!.action).toBe('course.update');
  });

  it('treats % and _ in a search as plain characters', async () => {
    const res = (await admin.get('/api/admin/audit-log?q=%25')).json() as AdminPage<AuditEntry>;
    expect(res.total).toBe(0);
  });

  it('says what is wrong with a bad list query', async () => {
    const res = await admin.get('/api/admin/audit-log?per_page=1000');
    expect(res.statusCode).toBe(422);
    expect(Object.keys((res.json() as { errors: object }).errors)).toContain('per_page');
  });
});

describe('settings', () => {
  const schema = z.object({ percent: z.number().int().min(0).max(100) });
  it('falls back to the default for a missing or no-longer-valid value, and records each change', async () => {
    const { settings } = t.app.deps.services;
    expect(await settings.get('test_offer', schema, { percent: 30 })).toEqual({ percent: 30 });
    await settings.set(await actor(), 'test_offer', schema, { percent: 30 }, { percent: 25 });
    expect(await settings.get('test_offer', schema, { percent: 30 })).toEqual({ percent: 25 });
    await t.app.deps.db.update(siteSettings).set({ value: { percent: 'lots' } });
    expect(await settings.get('test_offer', schema, { percent: 30 })).toEqual({ percent: 30 });
    const log = (
      await admin.get('/api/admin/audit-log?target_type=setting&target_id=test_offer')
    ).json() as AdminPage<AuditEntry>;
    expect(log.data[0]).toMatchObject({ action: 'setting.update', before: { percent: 30 }, after: { percent: 25 } });
  });
});

describe('GET /api/admin/overview', () => {
  it('answers the console front page figures', async () => {
    await t.createUser();
    const res = await admin.get('/api/admin/overview');
    expect(res.statusCode).toBe(200);
    const body = res.json() as AdminOverview;
    expect(body.members).toBeGreaterThanOrEqual(2);
    expect(body.new_members_30d).toBeGreaterThanOrEqual(2);
    expect(body).toMatchObject({ open_reports: 0, paid_orders_30d: 0, revenue_30d_cents: 0 });
    expect(Array.isArray(body.recent_changes)).toBe(true);
  });
});
