/**
 * Community reads at scale (issue 5 "Scale"): a large forum (100,000 posts) and a long chat history
 * on PostgreSQL, read over HTTP by a signed-in member, next to a bare Fastify route that answers the
 * same bytes from memory. Reported as requests per second and as a ratio to the bare route, at 1,000
 * posts and at 100,000 posts (the cost should not grow with the size).
 *
 * Needs PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a
 * server where a database may be created; it is dropped afterwards).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, startServer } from '../tests/support/server.ts';
import { hashPassword } from '../src/server/modules/auth/service.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;
const PASSWORD = 'bench-password-1';

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Members, one forum category, a big topic and many small ones, and a live show; all in SQL. */
export async function seedBase(db: pg.Client) {
  const hash = await hashPassword(PASSWORD);
  await db.query(
    `insert into users (name, email, password_hash, slug, role)
     select 'Drummer ' || g, 'drummer' || g || '@bench.test', $1, 'drummer-' || g, case when g % 50 = 0 then 'admin' else 'member' end
     from generate_series(1, 1000) g`,
    [hash],
  );
  await db.query(`insert into entitlements (user_id, kind, source) select id, 'membership', 'bench' from users`);
  await db.query(`insert into forum_categories (slug, title) values ('bench', 'Bench')`);
  await db.query(`insert into forum_topics (category_id, user_id, title) select 1, 1 + (g % 1000), 'Topic ' || g from generate_series(1, 1000) g`);
  await db.query(`insert into live_shows (title, starts_at, status, chat_open) values ('Bench show', now(), 'live', true)`);
}

/**
 * Grows the forum to `total` posts: a tenth of the parents in topic 1 (the thread that is read), the rest
 * spread over the other topics; a third are parents, the others replies to a parent of their topic.
 * The chat of show 1 grows to `total` messages as well.
 */
export async function growTo(db: pg.Client, total: number) {
  const { rows } = await db.query<{ n: string }>('select count(*) as n from posts');
  const have = Number(rows[0]!.n);
  if (total <= have) return;
  const maxId = Number((await db.query<{ m: string | null }>('select max(id) as m from posts')).rows[0]!.m ?? 0);
  await db.query(
    `insert into posts (type, resource_id, user_id, body, likes_count, created_at)
     select 'forumtopic', case when g % 10 = 0 then 1 else 2 + (g % 999) end, 1 + (g % 1000),
            'A practice question about paradiddles at ' || (60 + g % 140) || ' bpm. https://www.youtube.com/watch?v=dQw4w9WgXcQ',
            g % 7, now() - (g || ' seconds')::interval
     from generate_series($1::int, $2::int) g where g % 3 = 0`,
    [have + 1, total],
  );
  // replies: each goes under one of the parents just added (about two replies per parent)
  await db.query(
    `with parents as (
       select id, resource_id, (row_number() over (order by id) - 1)::int as j from posts
       where type = 'forumtopic' and parent_id is null and id > $3::int
     )
     insert into posts (type, resource_id, user_id, parent_id, replying_to_id, body, created_at)
     select 'forumtopic', p.resource_id, 1 + (g % 1000), p.id, p.id, 'Thanks, that helped. Trying it at ' || (60 + g % 140) || ' bpm tonight.', now() - (g || ' seconds')::interval
     from generate_series($1::int, $2::int) g
     join parents p on p.j = least((select max(j) from parents), greatest(0, (g - $1::int) / 3 - (g % 4)))
     where g % 3 <> 0`,
    [have + 1, total, maxId],
  );
  await db.query(
    `insert into chat_messages (show_id, user_id, body, hearts_count, created_at)
     select 1, 1 + (g % 1000), 'Great groove! What sticks are you using at ' || g || '?', g % 4, now() - ((${total} - g) || ' seconds')::interval
     from generate_series((select count(*) from chat_messages)::int + 1, $1::int) g`,
    [total],
  );
  await db.query('analyze');
}

/** Sign in over HTTP like a browser: the page's CSRF token, then POST /login; returns the cookie. */
export async function signIn(base: string): Promise<string> {
  const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const token = /<meta name="csrf-token" content="([^"]*)">/.exec(await page.text())?.[1] ?? '';
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie, 'x-csrf-token': token },
    body: JSON.stringify({ email: 'drummer7@bench.test', password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

async function rate(url: string, headers: Record<string, string>) {
  // warm up (JIT, connection pools, PostgreSQL's caches), then measure
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return result.requests.average;
}

const READS = [
  { name: 'thread page (GET /posts, first page)', path: '/posts?type=forumtopic&id=1' },
  { name: 'chat history (GET /live-chat/get)', path: '/live-chat/get?showId=1' },
];

export async function communityBench() {
  const dbName = `bb_bench_${randomBytes(4).toString('hex')}`;
  await withClient(ADMIN_URL, (c) => c.query(`create database "${dbName}"`));
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-bench-'));
  const server = await startServer({ NODE_ENV: 'production', SERVE_CLIENT: '0', DEMO: '0', DATA_DIR: dataDir, DATABASE_URL: dbUrl.toString(), REDIS_URL: '', SESSION_SECRET: randomBytes(16).toString('hex'), LOG_LEVEL: 'error' });
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  await db.connect();
  let bare: ReturnType<typeof spawn> | null = null;
  try {
    await seedBase(db);
    const cookie = await signIn(server.url);
    const headers = { cookie, accept: 'application/json' };
    console.log(`community reads on PostgreSQL, ${CONNECTIONS} connections, ${DURATION} s each, against a bare route answering the same bytes from memory`);
    console.log('  read                                     posts    req/s   bare req/s   ratio');
    for (const total of [1_000, 100_000]) {
      const started = performance.now();
      await growTo(db, total);
      const seeded = ((performance.now() - started) / 1000).toFixed(1);
      // the bytes each real route answers, served by the bare route in its own process
      const files = await Promise.all(
        READS.map(async (r, i) => {
          const res = await fetch(server.url + r.path, { headers });
          if (!res.ok) throw new Error(`${r.path}: ${res.status} ${await res.text()}`);
          const file = path.join(dataDir, `bare-${total}-${i}.json`);
          writeFileSync(file, Buffer.from(await res.arrayBuffer()));
          return file;
        }),
      );
      const port = await freePort();
      bare = spawn(path.join(import.meta.dirname, '../node_modules/.bin/tsx'), [path.join(import.meta.dirname, 'bare-server.ts'), String(port), ...files], { stdio: 'ignore', detached: true });
      const bareUrl = `http://127.0.0.1:${port}`;
      for (let i = 0; ; i++) {
        if (await fetch(`${bareUrl}/healthz`).then((r) => r.ok, () => false)) break;
        if (i > 200) throw new Error('the bare server did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const [i, r] of READS.entries()) {
        const real = await rate(server.url + r.path, headers);
        const ref = await rate(`${bareUrl}/bare/${i}`, headers);
        console.log(`  ${r.name.padEnd(38)} ${String(total).padStart(7)} ${real.toFixed(0).padStart(8)} ${ref.toFixed(0).padStart(12)} ${(real / ref).toFixed(3).padStart(7)}`);
      }
      process.kill(-bare.pid!, 'SIGTERM');
      bare = null;
      console.log(`  (${total} posts and ${total} chat messages; seeding took ${seeded} s)`);
    }
  } finally {
    if (bare) process.kill(-bare.pid!, 'SIGTERM');
    await db.end();
    await server.stop();
    await withClient(ADMIN_URL, (c) => c.query(`drop database if exists "${dbName}" with (force)`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
