/**
 * The PostgreSQL side of `npm run bench` (issues 5 and 9): a throwaway database seeded in SQL (members,
 * a forum, a lesson with its discussion, a live show, notifications; the forum and the chat grown to
 * 1,000 and then 100,000 rows with generate_series), members signed in over HTTP like a browser, and
 * autocannon read rates next to a bare Fastify route (bench/bare-server.ts) answering the same bytes.
 *
 * Needs PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a
 * server where a database may be created; it is dropped afterwards).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '#test/server';
import { hashPassword } from '../src/server/modules/auth/service.ts';
import { BrowserSession } from '#test/browser-session';

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'bench-password-1';
/** the lesson whose discussion is read, and the member whose notifications are read (drummer7) */
export const LESSON_ID = 1;
export const READER = 7;

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
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
  await db.query(
    `insert into forum_topics (category_id, user_id, title) select 1, 1 + (g % 1000), 'Topic ' || g from generate_series(1, 1000) g`,
  );
  await db.query(
    `insert into live_shows (title, starts_at, status, chat_open) values ('Bench show', now(), 'live', true)`,
  );
  // a course with one lesson and its discussion: 200 questions, each with two answers
  await db.query(`insert into courses (slug, title) values ('bench-course', 'Bench course')`);
  await db.query(`insert into lessons (course_id, slug, title) values (1, 'bench-lesson', 'Bench lesson')`);
  await db.query(
    `insert into posts (type, resource_id, user_id, body, likes_count, created_at)
     select 'lesson', $1::int, 1 + (g % 1000), 'How do you keep the hi-hat even at ' || (60 + g) || ' bpm?', g % 9, now() - (g || ' minutes')::interval
     from generate_series(1, 200) g`,
    [LESSON_ID],
  );
  await db.query(
    `insert into posts (type, resource_id, user_id, parent_id, replying_to_id, body, created_at)
     select 'lesson', $1::int, 1 + ((p.id * 3 + k) % 1000), p.id, p.id, 'Relax the wrist and count out loud.', p.created_at + (k || ' minutes')::interval
     from posts p cross join generate_series(1, 2) k where p.type = 'lesson' and p.parent_id is null`,
    [LESSON_ID],
  );
  // the reader's notifications: 60, a third unread
  await db.query(
    `insert into notifications (user_id, body, url, read_at, created_at)
     select $1::int, '<strong>Drummer ' || g || '</strong> replied to your post', '/forums/topic/1', case when g % 3 = 0 then null else now() end, now() - (g || ' minutes')::interval
     from generate_series(1, 60) g`,
    [READER],
  );
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

/**
 * The app's environment for a bench database: production, as `npm start` runs it, so that the figures
 * are those of a deployment; API only and no demo content, so that nothing but the pages read costs
 * anything; no Redis unless a row asks for it; a session secret of its own; quiet logs.
 */
export function benchAppEnv(databaseUrl: string, dataDir: string) {
  return {
    NODE_ENV: 'production',
    SERVE_CLIENT: '0',
    DEMO: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: '',
    SESSION_SECRET: randomBytes(16).toString('hex'),
    LOG_LEVEL: 'error',
  };
}

/** Creates a throwaway database on the PostgreSQL server; returns its URL and a drop function. */
export async function createBenchDatabase() {
  const name = `bb_bench_${randomBytes(4).toString('hex')}`;
  await withClient(ADMIN_URL, (c) => c.query(`create database "${name}"`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(ADMIN_URL, (c) => c.query(`drop database if exists "${name}" with (force)`)),
  };
}

export interface Session {
  cookie: string;
  token: string;
}

/** Sign in over HTTP like a browser: the page's CSRF token, then POST /login; returns the cookie and the new token. */
export async function signIn(base: string, member = READER): Promise<Session> {
  const session = await BrowserSession.open(base);
  const res = await session.signIn(`drummer${member}@bench.test`, PASSWORD);
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return { cookie: session.cookie, token: session.token };
}

export interface Rate {
  rps: number;
  /** mean latency, ms */
  latency: number;
  bytes: number;
}

/** autocannon against one URL: a short warm-up (JIT, pools, PostgreSQL's caches), then the measured run. */
export async function rate(
  url: string,
  headers: Record<string, string>,
  opts: { connections: number; seconds: number; warmup: number },
): Promise<Rate> {
  if (opts.warmup > 0) await autocannon({ url, connections: opts.connections, duration: opts.warmup, headers });
  const result = await autocannon({ url, connections: opts.connections, duration: opts.seconds, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    latency: result.latency.average,
    bytes: result.throughput.average / Math.max(1, result.requests.average),
  };
}

/**
 * Several URLs read in alternating rounds (each warmed up once first), so that a drift of the machine's
 * speed during a row (the processes and autocannon share the cores) falls on all of them alike. Answers
 * each URL's rate in every round, in the order given.
 */
export async function alternate(
  urls: string[],
  headers: Record<string, string>,
  opts: { connections: number; rounds: number; roundSeconds: number; warmup: number },
): Promise<Rate[][]> {
  for (const url of urls) await rate(url, headers, { ...opts, seconds: 0.5 });
  const rounds: Rate[][] = [];
  for (let k = 0; k < opts.rounds; k++) {
    const round: Rate[] = [];
    for (const url of urls) round.push(await rate(url, headers, { ...opts, seconds: opts.roundSeconds, warmup: 0 }));
    rounds.push(round);
  }
  return rounds;
}

/** The bare reference in its own process (like the app): serves each file's bytes at /bare/<i>. */
export function startBareServer(files: string[]): Promise<{ url: string; stop(): void }> {
  return startReference('bare-server.ts', files);
}

/**
 * The bare SQL reference in its own process: /sql/<i> runs page i's captured statements on the
 * database at `databaseUrl` (bench/bare-sql-server.ts).
 */
export function startBareSqlServer(databaseUrl: string, statementsFile: string) {
  return startReference('bare-sql-server.ts', [databaseUrl, statementsFile]);
}

async function startReference(script: string, args: string[]): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    path.join(import.meta.dirname, '../node_modules/.bin/tsx'),
    [path.join(import.meta.dirname, script), String(port), ...args],
    { stdio: 'ignore', detached: true },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300) throw new Error(`${script} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* gone */
      }
    },
  };
}

/** Saves the bytes a real route answers, for the bare server. */
export async function captureBody(url: string, headers: Record<string, string>, file: string): Promise<number> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  const body = Buffer.from(await res.arrayBuffer());
  writeFileSync(file, body);
  return body.length;
}
