/**
 * How fast could any route answer a cold page? The cold-read rows of `npm run bench` hold each hot
 * page, with the cache off, to 0.1 of a bare route answering its bytes from memory. This measures the
 * ceiling under that ratio: each page's captured statements (bench/cold-reads.ts, as the bare SQL route
 * replays them) run through `pg` with no HTTP at all, ten connections at once as autocannon's ten, for
 * a few seconds, against the bare memory route at the same moment. A second variant returns the page's
 * own rows as one JSON text built by PostgreSQL (`json_agg`), which spares `pg` reading rows of many
 * columns: what building the JSON in SQL would gain at most. A third runs the same statements from
 * PostgreSQL's own client, pgbench (C, prepared statements, numbers as parameters so that PostgreSQL
 * plans them as it does the app's), ten clients as well: what the database costs with no Node.js at all.
 *
 * Usage: npx tsx bench/statement-ceiling.ts (PostgreSQL at BENCH_DATABASE_URL's server; a throwaway
 * database, dropped afterwards). Prints one line per page; figures go to docs/benchmarks.md.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startServer } from '#test/server';
import type { CapturedStatement } from './bare-sql-server.ts';
import { COLD_PAGES, startColdReferences } from './cold-reads.ts';
import { benchAppEnv, createBenchDatabase, growTo, rate, seedBase, signIn } from './community.ts';
import { appCommand, postgresCpuMs } from './proc.ts';

const SECONDS = 3;
const CONNECTIONS = 10;
const ROUNDS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * A page's statements, each on the one connection the page holds, as often as they go in `SECONDS`:
 * pages per second, and the CPU time per page of this process (`pg` and the loop around it) and of
 * PostgreSQL, µs.
 */
async function statementsPerSecond(pool: pg.Pool, statements: CapturedStatement[]) {
  let pagesRead = 0;
  const ownCpu = process.cpuUsage();
  const postgresCpu = postgresCpuMs();
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const client = await pool.connect();
        try {
          for (const s of statements)
            await client.query({
              ...(s.name ? { name: s.name } : {}),
              text: s.text,
              values: s.values,
              ...(s.rowMode ? { rowMode: s.rowMode } : {}),
            });
        } finally {
          client.release();
        }
        pagesRead++;
      }
    }),
  );
  const own = process.cpuUsage(ownCpu);
  return {
    rate: pagesRead / SECONDS,
    nodeUs: (own.user + own.system) / pagesRead,
    postgresUs: ((postgresCpuMs() - postgresCpu) * 1000) / pagesRead,
  };
}

/**
 * A pgbench script of the page's statements, one transaction a page: numbers become pgbench variables
 * (sent as parameters), anything else a quoted literal.
 */
function pgbenchScript(statements: CapturedStatement[]): string {
  const literal = (v: unknown) =>
    v === null ? 'null' : `'${(typeof v === 'string' ? v : JSON.stringify(v)).replaceAll("'", "''")}'`;
  return statements
    .map((s, i) => {
      const sets = s.values.flatMap((v, k) => (typeof v === 'number' ? [`\\set s${i}v${k + 1} ${v}`] : []));
      const text = s.text.replace(/\$(\d+)/g, (_, n: string) => {
        const v = s.values[Number(n) - 1];
        return typeof v === 'number' ? `:s${i}v${n}` : literal(v);
      });
      return [...sets, `${text.replace(/\s+/g, ' ')};`].join('\n');
    })
    .join('\n');
}

/** pages per second from pgbench running the script `file` on `CONNECTIONS` clients for `SECONDS` */
async function pgbenchPerSecond(url: string, file: string): Promise<number> {
  const { stdout } = await promisify(execFile)('pgbench', [
    ...['-n', '-M', 'prepared', '-c', String(CONNECTIONS), '-j', String(availableParallelism())],
    ...['-T', String(SECONDS), '-f', file, url],
  ]);
  const tps = /tps = ([\d.]+)/.exec(stdout);
  if (!tps) throw new Error(`pgbench printed no rate: ${stdout}`);
  return Number(tps[1]);
}

/** the page's statements with every one after the session's answering one JSON text */
const asJson = (statements: CapturedStatement[]): CapturedStatement[] =>
  statements.map((s, i) =>
    i === 0
      ? s
      : {
          name: s.name ? `${s.name}_json` : undefined,
          text: `select coalesce(json_agg(t), '[]')::text from (${s.text}) t`,
          values: s.values,
          rowMode: 'array',
        },
  );

const database = await createBenchDatabase();
const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-ceiling-'));
const env = benchAppEnv(database.url, dataDir);
const command = process.env.BENCH_APP === 'tsx' ? undefined : appCommand();
const app = await startServer(env, undefined, command);
const pool = new pg.Pool({ connectionString: database.url, max: CONNECTIONS });
try {
  const seed = new pg.Client({ connectionString: database.url });
  await seed.connect();
  await seedBase(seed);
  await growTo(seed, 1000);
  await seed.end();
  const reader = await signIn(app.url);
  const headers = { cookie: reader.cookie, accept: 'application/json' };
  const refs = await startColdReferences(env, command, app.url, headers, database.url, dataDir);
  try {
    console.log(
      `page | statements alone, reads/s | CPU per page alone, µs: pg / PostgreSQL | as JSON | from pgbench | bare memory route | ÷ memory (alone / JSON / pgbench), median of ${ROUNDS}`,
    );
    for (const [i, page] of COLD_PAGES.entries()) {
      const statements = refs.statements[i]!;
      const alone: number[] = [];
      const nodeUs: number[] = [];
      const postgresUs: number[] = [];
      const json: number[] = [];
      const native: number[] = [];
      const memory: number[] = [];
      const script = path.join(dataDir, `page-${i}.pgbench`);
      writeFileSync(script, `${pgbenchScript(statements)}\n`);
      await statementsPerSecond(pool, statements);
      await statementsPerSecond(pool, asJson(statements));
      for (let round = 0; round < ROUNDS; round++) {
        const read = await statementsPerSecond(pool, statements);
        alone.push(read.rate);
        nodeUs.push(read.nodeUs);
        postgresUs.push(read.postgresUs);
        json.push((await statementsPerSecond(pool, asJson(statements))).rate);
        native.push(await pgbenchPerSecond(database.url, script));
        const bare = await rate(`${refs.memoryUrl}/bare/${i}`, headers, {
          connections: CONNECTIONS,
          seconds: SECONDS,
          warmup: round === 0 ? 1 : 0,
        });
        memory.push(bare.rps);
      }
      const byMemory = (xs: number[]) => median(xs.map((x, k) => x / memory[k]!)).toFixed(3);
      console.log(
        `${page.name} (${statements.length} SQL) | ${median(alone).toFixed(0)} | ${median(nodeUs).toFixed(0)} / ${median(postgresUs).toFixed(0)} | ${median(json).toFixed(0)} | ${median(native).toFixed(0)} | ${median(memory).toFixed(0)} | ${byMemory(alone)} / ${byMemory(json)} / ${byMemory(native)}`,
      );
    }
  } finally {
    refs.stop();
  }
} finally {
  await pool.end();
  await app.stop();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
