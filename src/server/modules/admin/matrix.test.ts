import { sql } from 'drizzle-orm';
import { auditLog } from '#server/db/schema/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { rows as coreRows } from '#test/admin-matrix/core';
import { rows as contentRows } from '#test/admin-matrix/content';
import { rows as communityRows } from '#test/admin-matrix/community';
import { rows as commerceRows } from '#test/admin-matrix/commerce';
import { rows as membersRows } from '#test/admin-matrix/members';
import { isAdminRoute, send, type MatrixContext, type MatrixRow } from '#test/admin-matrix/matrix';

const ROWS: MatrixRow[] = [...coreRows, ...contentRows, ...communityRows, ...commerceRows, ...membersRows];
const key = (method: string, route: string) => `${method} ${route}`;

let t: TestApp;
let ctx: MatrixContext;
const actors: Array<{ name: string; client: () => TestClient; status: number }> = [];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.signedIn({ role: 'admin' });
  ctx = { app: t, admin: admin.client, adminId: admin.user.id };
  const visitor = await t.client();
  const free = (await t.signedIn()).client;
  const subscriber = (await t.signedIn({ entitlements: ['membership'] })).client;
  const student = (await t.signedIn({ entitlements: ['mentorship'] })).client;
  actors.push(
    { name: 'visitor', client: () => visitor, status: 401 },
    { name: 'free member', client: () => free, status: 403 },
    { name: 'subscriber', client: () => subscriber, status: 403 },
    { name: 'mentorship student', client: () => student, status: 403 },
  );
});
afterAll(async () => t?.close());

describe('admin authorisation matrix', () => {
  it('has a row for every admin route, and every row names a registered route', () => {
    const registered = new Set(t.app.routeList.filter((r) => isAdminRoute(r.url)).map((r) => key(r.method, r.url)));
    const covered = new Set(ROWS.map((r) => key(r.method, r.route)));
    expect(
      [...registered].filter((k) => !covered.has(k)),
      'admin routes without a row',
    ).toEqual([]);
    expect(
      [...covered].filter((k) => !registered.has(k)),
      'rows for routes that do not exist',
    ).toEqual([]);
  });

  const auditCount = async () => (await t.app.deps.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;

  it.each(ROWS.map((r) => [key(r.method, r.route), r] as const))(
    '%s: visitors 401, members 403 (nothing recorded), admins get through',
    async (_name, row) => {
      const call = await row.call(ctx);
      const before = await auditCount();
      for (const actor of actors) {
        const res = await send(actor.client(), row.method, call);
        expect(res.statusCode, `${actor.name} ${row.method} ${call.url}: ${res.body.slice(0, 200)}`).toBe(actor.status);
      }
      expect(await auditCount(), 'a refused call changed nothing').toBe(before);
      const res = await send(ctx.admin, row.method, call);
      expect(res.statusCode, `admin ${row.method} ${call.url}: ${res.body.slice(0, 300)}`).toBe(row.admin ?? 200);
    },
  );
});
