import fc from 'fast-check';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { hostileBody, hostileParam, hostileQuery, schemaKeys } from '#test/fuzz-inputs';
import { safeJson } from '#test/route-fixtures';

// Hostile input (docs/product/bad-input.md): every route gets generated malformed input (fast-check). The server never
// answers 5xx, always says what was wrong (a JSON `message`), and a refused request changes nothing.
// `npm test` runs FUZZ_RUNS (default 200) cases per route; `npm run fuzz` runs many more.

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

// built at collection time: the routes to fuzz are the ones this app registers
const t: TestApp = await createTestApp();
let admin: TestClient;
let tables: string[] = [];

beforeAll(async () => {
  admin = (await t.signedIn({ role: 'admin', entitlements: ['membership', 'mentorship'] })).client;
  const res = await rows<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  // sessions: every request may touch its own session; the sandbox provider keeps its own books
  tables = res.rows.map((r) => r.name).filter((n) => !['sessions', '__drizzle_migrations'].includes(n));
});
afterAll(async () => t?.close());

/** raw SQL rows (both drivers answer `{rows}`) */
const rows = async <T>(query: SQL) => (await t.app.deps.db.execute(query)) as unknown as { rows: T[] };

/** a digest of every table's rows: equal digests, nothing changed */
async function fingerprint(): Promise<string> {
  const parts = tables.map(
    (name) =>
      sql`select ${name} as name, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.identifier(name)} t`,
  );
  const res = await rows<{ name: string; digest: string }>(sql.join(parts, sql` union all `));
  return res.rows.map((r) => `${r.name}:${r.digest}`).join(',');
}

let seq = 0;
async function send(
  method: string,
  url: string,
  body: { contentType: string | null; payload: string | Buffer | undefined } | null,
) {
  seq++;
  const headers: Record<string, string> = {
    accept: 'application/json',
    cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-csrf-token': admin.csrfToken,
  };
  if (body?.contentType) headers['content-type'] = body.contentType;
  return t.app.inject({
    method: method as 'GET',
    url,
    headers,
    // a new address each time: the per-address limits would otherwise answer 429 to everything after a few calls
    remoteAddress: `198.18.${(seq >> 8) % 256}.${seq % 256}`,
    ...(body && body.payload !== undefined && method !== 'GET' ? { payload: body.payload } : {}),
  });
}

const fillParams = (route: string, values: string[]) => {
  let i = 0;
  return route.replace(/:([A-Za-z_]+)\??/g, () => values[i++] ?? '1').replace(/\*$/, 'x');
};

describe('hostile input on every route', () => {
  it('the server knows its routes', () => {
    expect(t.app.routeList.length).toBeGreaterThan(150);
  });

  it.each(t.app.routeList.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', async (_name, route) => {
    const params = (route.url.match(/:[A-Za-z_]+/g) ?? []).length;
    const before = await fingerprint();
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileParam, { minLength: params, maxLength: params }),
        hostileQuery(schemaKeys(route.schema.querystring)),
        hostileBody(schemaKeys(route.schema.body)),
        async (values, query, body) => {
          const url = `${fillParams(route.url, values)}${query ? `?${query}` : ''}`;
          const res = await send(route.method, url, route.method === 'GET' ? null : body);
          if (res.statusCode < 400) accepted++;
          const explained =
            res.statusCode < 400 ||
            res.headers['content-type']?.toString().includes('text/html') ||
            saysWhy(safeJson(res.body));
          if (res.statusCode >= 500 || !explained)
            throw new Error(`${route.method} ${url} (${body.label}) -> ${res.statusCode} ${res.body.slice(0, 300)}`);
        },
      ),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: true },
    );
    // a route that refused everything it was sent changed nothing; a GET never changes anything
    if (accepted === 0 || route.method === 'GET')
      expect(await fingerprint(), 'refused requests changed state').toBe(before);
  });
});

/** `{message}`, or (the sandbox's stand-in for Stripe's API) Stripe's `{error: {message}}` */
const saysWhy = (body: unknown) => {
  const b = body as { message?: unknown; error?: { message?: unknown } } | null;
  return typeof b?.message === 'string' || typeof b?.error?.message === 'string';
};
