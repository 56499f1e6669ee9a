/**
 * Cold reads: each hot page answered with nothing kept in memory (HOT_CACHE=0, as for a thread nobody
 * opened lately, a crawler, or the first reads after a deploy), against two references in their own
 * processes:
 *  - bare SQL: a route that runs the statements the app ran for one answer of the page, through `pg`,
 *    and sends the rows as JSON (bench/bare-sql-server.ts): what the database itself costs;
 *  - bare memory: a route answering the page's bytes from memory (bench/bare-server.ts).
 * The statements are captured from a third app process started only for that, with
 * bench/sql-capture.mjs preloaded: the capture writes a file per statement, which would slow the process it runs in.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startServer } from '#test/server';
import type { CapturedStatement } from './bare-sql-server.ts';
import {
  alternate,
  captureBody,
  LESSON_ID,
  signIn,
  startBareServer,
  startBareSqlServer,
  type Rate,
} from './community.ts';

export const COLD_PAGES = [
  { name: 'thread page (GET /posts)', path: '/posts?type=forumtopic&id=1' },
  {
    name: 'lesson discussion (GET /inline-posts)',
    path: `/inline-posts?type=lesson&id=${LESSON_ID}&sort=upvoted&page=1`,
  },
  { name: 'chat history (GET /live-chat/get)', path: '/live-chat/get?showId=1' },
  { name: 'notifications (GET /notifications/recent)', path: '/notifications/recent' },
  { name: 'forum categories (GET /api/forums)', path: '/api/forums' },
  { name: 'lesson page data (GET /api/lessons/:id)', path: `/api/lessons/${LESSON_ID}` },
];

/** statements of the app's own machinery that run beside requests (background jobs, the change feed) */
const BACKGROUND = /pgboss|\blisten\b|pg_notify|pg_current_wal/i;

/** reads of a page until two in a row ran the same statements */
const CAPTURE_TRIES = 6;

/**
 * The statements one answer of each page runs, read from a capture app process: each page is read
 * until two reads in a row agree, after a first that may include one-time work. A statement the app
 * runs beside the request (a recurring job's own SQL on the app's pool, which BACKGROUND cannot tell
 * from a page's) lands in one read only, so the next pair agrees without it.
 */
async function captureStatements(
  env: Record<string, string>,
  command: [string, string[]] | undefined,
  dir: string,
): Promise<CapturedStatement[][]> {
  const file = path.join(dir, 'captured-sql.jsonl');
  writeFileSync(file, '');
  const capture = await startServer(
    {
      ...env,
      HOT_CACHE: '0',
      BENCH_SQL_CAPTURE: file,
      NODE_OPTIONS: `--import ${path.join(import.meta.dirname, 'sql-capture.mjs')}`,
    },
    undefined,
    command,
  );
  try {
    const reader = await signIn(capture.url);
    const headers = { cookie: reader.cookie, accept: 'application/json' };
    const readOnce = async (url: string) => {
      const from = statSync(file).size;
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      await res.arrayBuffer();
      return readFileSync(file, 'utf8')
        .slice(from)
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as CapturedStatement)
        .filter((s) => !BACKGROUND.test(s.text));
    };
    const pages: CapturedStatement[][] = [];
    const same = (a: CapturedStatement[], b: CapturedStatement[]) =>
      a.length === b.length && a.every((s, i) => s.text === b[i]!.text);
    const texts = (read: CapturedStatement[]) => read.map((s) => s.text.replace(/\s+/g, ' ').slice(0, 80));
    for (const page of COLD_PAGES) {
      await readOnce(capture.url + page.path);
      const reads = [await readOnce(capture.url + page.path)];
      for (;;) {
        const read = await readOnce(capture.url + page.path);
        if (same(read, reads[reads.length - 1]!)) {
          pages.push(read);
          break;
        }
        reads.push(read);
        if (reads.length >= CAPTURE_TRIES)
          throw new Error(
            `${page.name}: no two cold reads in a row ran the same statements: ${JSON.stringify(reads.map(texts))}`,
          );
      }
    }
    return pages;
  } finally {
    await capture.stop();
  }
}

export interface ColdReferences {
  /** statements per page, as captured */
  statements: CapturedStatement[][];
  sqlUrl: string;
  memoryUrl: string;
  stop(): void;
}

/** Captures each page's statements and bytes (as the cold app answers them) and starts both references. */
export async function startColdReferences(
  env: Record<string, string>,
  command: [string, string[]] | undefined,
  coldUrl: string,
  headers: Record<string, string>,
  databaseUrl: string,
  dir: string,
): Promise<ColdReferences> {
  const statements = await captureStatements(env, command, dir);
  const statementsFile = path.join(dir, 'cold-statements.json');
  writeFileSync(statementsFile, JSON.stringify(statements));
  const bodies = COLD_PAGES.map((_, i) => path.join(dir, `cold-${i}.json`));
  await Promise.all(COLD_PAGES.map((p, i) => captureBody(coldUrl + p.path, headers, bodies[i]!)));
  const sql = await startBareSqlServer(databaseUrl, statementsFile);
  const memory = await startBareServer(bodies).catch((err: unknown) => {
    sql.stop();
    throw err;
  });
  return {
    statements,
    sqlUrl: sql.url,
    memoryUrl: memory.url,
    stop() {
      sql.stop();
      memory.stop();
    },
  };
}

export interface ColdRow {
  page: string;
  statements: number;
  /** per round: the app, bare SQL, bare memory */
  rounds: [app: Rate, sql: Rate, memory: Rate][];
}

/** Each page on the cold app, its bare SQL route and its bare memory route, in alternating rounds. */
export async function measureCold(
  coldUrl: string,
  refs: ColdReferences,
  headers: Record<string, string>,
  opts: { connections: number; rounds: number; roundSeconds: number; warmup: number },
  log: (s: string) => void,
): Promise<ColdRow[]> {
  const out: ColdRow[] = [];
  for (const [i, page] of COLD_PAGES.entries()) {
    log(`cold reads: ${page.name}`);
    const rounds = await alternate(
      [coldUrl + page.path, `${refs.sqlUrl}/sql/${i}`, `${refs.memoryUrl}/bare/${i}`],
      headers,
      opts,
    );
    out.push({
      page: page.name,
      statements: refs.statements[i]!.length,
      rounds: rounds as ColdRow['rounds'],
    });
  }
  return out;
}
