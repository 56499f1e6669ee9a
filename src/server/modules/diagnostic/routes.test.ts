import { afterAll, beforeAll, expect, it } from 'vitest';
import { DIAGNOSTIC } from '#shared/diagnostic';
import { appMeta } from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';
import { csvCell } from '#server/lib/csv';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const full = [2, 0, '150', 1, 1, 2, 1, 2];

it('stores a lead from a visitor, scored by the server, and answers the practice-plan link', async () => {
  const c = await t.client();
  const res = await c.post('/placement/foot-speed/save', { name: 'Terry', email: 'terry@x.test', answers: full });
  expect(res.statusCode).toBe(201);
  expect(res.json()).toMatchObject({
    skill: 'Intermediate',
    pedal: 'Double Pedal',
    tempo: 150,
    primary: 'control',
    primary_label: 'Control',
  });
  expect(res.json().link).toBe('/courses/double-kick-basics?plan=intermediate-double');
});

it('uses the configured link for the skill and pedal', async () => {
  await t.app.deps.db.insert(appMeta).values({
    key: 'diagnostic_plan_links',
    value: JSON.stringify({ 'Intermediate|Double Pedal': '/courses/fills-that-flow' }),
  });
  const res = await (
    await t.client()
  ).post('/placement/foot-speed/save', { name: 'T', email: 't@x.test', answers: full });
  expect(res.json().link).toBe('/courses/fills-that-flow');
});

it('needs name and email (the spec message) and every answer', async () => {
  const c = await t.client();
  const res = await c.post('/placement/foot-speed/save', { name: '', email: '', answers: full });
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe(DIAGNOSTIC.nameEmailRequired);
  expect(
    (await c.post('/placement/foot-speed/save', { name: 'A', email: 'a@x.test', answers: [2, 0] })).statusCode,
  ).toBe(422);
});

it('admins list and export leads as CSV, safe to open in a spreadsheet', async () => {
  await (
    await t.client()
  ).post('/placement/foot-speed/save', { name: '=HYPERLINK("http://evil")', email: 'evil@x.test', answers: full });
  const member = await t.signedIn();
  expect((await member.client.get('/api/admin/diagnostic-leads')).statusCode).toBe(403);
  expect((await member.client.get('/api/admin/diagnostic-leads.csv')).statusCode).toBe(403);
  const admin = await t.signedIn({ role: 'admin' });
  expect((await admin.client.get('/api/admin/diagnostic-leads')).json().data.length).toBeGreaterThanOrEqual(3);
  const csv = await admin.client.get('/api/admin/diagnostic-leads.csv');
  expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(csv.body.split('\r\n')[0]).toBe(
    'created_at,name,email,skill,pedal,tempo,technique,control,coordination,independence,primary,answers',
  );
  expect(csv.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
  expect(csv.body).toContain('Which pedal setup do you play? Double pedal');
});

it('csv cells: quotes, commas, newlines and formulas', () => {
  expect(csvCell('a,b')).toBe('"a,b"');
  expect(csvCell('-1+2')).toBe("'-1+2");
  expect(csvCell(null)).toBe('');
});
