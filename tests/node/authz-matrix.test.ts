import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '#shared/constants';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { MENTORSHIP_MESSAGES } from '#shared/mentorship';
import { ROUTE_ACCESS_CLASSES, type RouteAccess } from '#server/lib/access';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { concreteUrl, safeJson } from '#test/route-fixtures';
import { OBJECT_CASES } from '#test/authz-objects';
import { OWNERLESS, SELF_CASES } from '#test/authz-ownership';
import { schemaKeys } from '#test/fuzz-inputs';

// The authorisation matrix, built from the registered routes: every route declares its class in its
// own options (`config: { access }`, src/server/lib/access.ts; an app with a route that declares none
// does not start), is called as each actor and answers by its class; object-level cases prove the
// rules about one member's things (tests/support/authz-objects.ts).

const t: TestApp = await createTestApp();
type Actor = 'visitor' | 'free member' | 'subscriber' | 'mentorship student' | 'admin';
const clients = {} as Record<Actor, TestClient>;
beforeAll(async () => {
  clients.visitor = await t.client();
  clients['free member'] = (await t.signedIn()).client;
  clients.subscriber = (await t.signedIn({ entitlements: ['membership'] })).client;
  clients['mentorship student'] = (await t.signedIn({ entitlements: ['mentorship'] })).client;
  clients.admin = (await t.signedIn({ role: 'admin' })).client;
});
afterAll(async () => t.close());

/** who holds each class, and the 403 message the others hear (byActor: where it differs by who asks) */
const HOLDERS: Record<
  Exclude<RouteAccess, 'public' | 'provider'>,
  { actors: Actor[]; message: string; byActor?: Partial<Record<Actor, string>> }
> = {
  member: { actors: ['free member', 'subscriber', 'mentorship student', 'admin'], message: '' },
  community: {
    actors: ['subscriber', 'mentorship student', 'admin'],
    message: COMMUNITY_MESSAGES.communityMembersOnly,
  },
  // a non-member hears the members-only message first, as on every community call
  moderation: {
    actors: ['admin'],
    message: MESSAGES.forbidden,
    byActor: { 'free member': COMMUNITY_MESSAGES.communityMembersOnly },
  },
  mentorship: { actors: ['mentorship student', 'admin'], message: MENTORSHIP_MESSAGES.mentorshipOnly },
  admin: { actors: ['admin'], message: MESSAGES.forbidden },
};
const ACTORS: Actor[] = ['visitor', 'free member', 'subscriber', 'mentorship student', 'admin'];

describe('authorisation matrix', () => {
  it('every registered route declares a known class', () => {
    expect(t.app.routeList.length).toBeGreaterThan(200);
    expect(
      t.app.routeList.filter((r) => !ROUTE_ACCESS_CLASSES.includes(r.access)).map((r) => `${r.method} ${r.url}`),
    ).toEqual([]);
  });

  const routes = t.app.routeList.filter((r) => r.url !== '/logout');
  it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s answers each actor by its class',
    async (_key, r) => {
      const access = r.access;
      const wrong: string[] = [];
      for (const actor of ACTORS) {
        const res = await clients[actor].request(
          r.method as 'GET',
          concreteUrl(r.url),
          r.method === 'GET' ? undefined : {},
        );
        const message = (safeJson(res.body) as { message?: string } | null)?.message;
        if (access === 'public' || access === 'provider') {
          if (actor === 'visitor' && res.statusCode === 401) wrong.push(`${actor}: 401 on a ${access} route`);
          continue;
        }
        const holder = HOLDERS[access];
        if (actor === 'visitor') {
          if (res.statusCode !== 401) wrong.push(`visitor: ${res.statusCode}, expected 401`);
        } else if (!holder.actors.includes(actor)) {
          const expected = holder.byActor?.[actor] ?? holder.message;
          if (res.statusCode !== 403 || message !== expected)
            wrong.push(`${actor}: ${res.statusCode} ${message}, expected 403 "${expected}"`);
        } else if (res.statusCode === 401 || (res.statusCode === 403 && message === holder.message))
          wrong.push(`${actor}: ${res.statusCode} ${message}, expected to get past the ${access} check`);
      }
      expect(wrong).toEqual([]);
    },
  );
});

describe('object-level cases: the owner, another member, an admin', () => {
  it.each(OBJECT_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const owner = await t.signedIn({ entitlements: c.ownerEntitlements ?? ['membership'] });
    const other = await t.signedIn({ entitlements: c.ownerEntitlements ?? ['membership'] });
    const ctx = { app: t, owner, other, admin: clients.admin };
    const call = await c.setup(ctx);
    // the other member first: refused, and the thing is unchanged for its owner
    const before = c.observe ? await c.observe(ctx, call) : null;
    const refused = await other.client.request(call.method, call.url, call.body);
    expect(c.refusal ?? [403, 404], `another member: ${refused.statusCode} ${refused.body.slice(0, 200)}`).toContain(
      refused.statusCode,
    );
    if (c.observe) expect(await c.observe(ctx, call), 'unchanged after the refused call').toEqual(before);
    const byAdmin = c.admin === 'allowed' ? await clients.admin.request(call.method, call.url, call.body) : null;
    if (byAdmin) expect(byAdmin.statusCode, `admin: ${byAdmin.body.slice(0, 200)}`).toBeLessThan(300);
    if (c.admin === 'refused') {
      const res = await clients.admin.request(call.method, call.url, call.body);
      expect([403, 404], `admin: ${res.statusCode}`).toContain(res.statusCode);
    }
    if (!byAdmin) {
      const ok = await owner.client.request(call.method, call.url, call.body);
      if (c.ownerRedirect)
        expect([ok.statusCode, ok.headers.location], `owner: ${ok.body.slice(0, 200)}`).toEqual([
          303,
          expect.stringMatching(c.ownerRedirect),
        ]);
      else expect(ok.statusCode, `owner: ${ok.body.slice(0, 200)}`).toBeLessThan(300);
    }
  });
});

/** a route names an object: a `:param` in its address, or an id-like field in its body or query */
const ID_FIELD = /(^|_)id$|Id$|^slug$|^filename$|^order$/;
const namesAnObject = (r: (typeof t.app.routeList)[number]) =>
  r.url.includes(':') ||
  [...schemaKeys(r.schema.body), ...schemaKeys(r.schema.querystring)].some((k) => ID_FIELD.test(k));

describe('owner and other member: every route covered', () => {
  const registered = new Set(t.app.routeList.map((r) => `${r.method} ${r.url}`));
  const objectRoutes = new Set(OBJECT_CASES.map((c) => c.route));
  const selfRoutes = new Set(SELF_CASES.map((c) => c.route));

  it('every member route that names an object has an owner/other row or a listed reason', () => {
    const uncovered = t.app.routeList
      .filter((r) => !['admin', 'provider'].includes(r.access) && namesAnObject(r))
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => !objectRoutes.has(k) && !selfRoutes.has(k) && !(k in OWNERLESS));
    expect(
      uncovered,
      'routes naming an object with no OBJECT_CASES row (tests/support/authz-objects.ts), no SELF_CASES row and no OWNERLESS reason (tests/support/authz-ownership.ts)',
    ).toEqual([]);
  });

  it('every row names a registered route, and no route is both proved and excused', () => {
    const rows = [...objectRoutes, ...SELF_CASES.map((c) => c.route), ...Object.keys(OWNERLESS)];
    expect(rows.filter((k) => !registered.has(k))).toEqual([]);
    expect([...objectRoutes].filter((k) => k in OWNERLESS)).toEqual([]);
  });

  it.each(SELF_CASES.map((c) => [`${c.route}: ${c.name}`, c] as const))('self: %s', async (_name, c) => {
    const owner = await t.signedIn({ entitlements: ['membership'] });
    const other = await t.signedIn({ entitlements: ['membership'] });
    expect(await c.run({ app: t, owner, other, admin: clients.admin })).toBe('');
  });
});
