import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/**
 * scripts/start.sh, which `npm start` runs after its builds: the node it picks, the flags it gives it
 * and glibc's malloc settings (docs/decisions/0015-server-bundle.md,
 * docs/decisions/0021-young-generation-by-database.md,
 * docs/decisions/0024-embedded-database-favours-memory.md). The launcher runs a one-line script in place
 * of the bundle, which reports what the server would have started with.
 */
const LAUNCHER = path.resolve(import.meta.dirname, 'start.sh');
/** the project's Node.js major version (the `node` dev dependency's, named by .nvmrc) */
const PROJECT_NODE_MAJOR = readFileSync(path.resolve(import.meta.dirname, '../.nvmrc'), 'utf8').trim();
const REPORT =
  'process.stdout.write(JSON.stringify({ flags: process.execArgv, node: process.version, arenas: process.env.MALLOC_ARENA_MAX, mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_ }))';

function launched(env: Record<string, string>) {
  // only the system's directories on PATH: the launcher must find the project's node by itself
  const out = execFileSync('/bin/sh', [LAUNCHER, '-e', REPORT], { env: { PATH: '/usr/bin:/bin', ...env } });
  return JSON.parse(out.toString()) as { flags: string[]; node: string; arenas: string; mmapThreshold: string };
}

/** the flags the launcher chooses by the database: the young generation's size, and memory over speed */
const byDatabase = (flags: string[]) =>
  flags.filter((f) => f.startsWith('--max-semi-space-size=') || f === '--optimize-for-size');

it('runs the embedded database small, and PostgreSQL with room for live shows', () => {
  const embedded = ['--max-semi-space-size=4', '--optimize-for-size'];
  expect(byDatabase(launched({}).flags)).toEqual(embedded);
  expect(byDatabase(launched({ DATABASE_URL: '' }).flags)).toEqual(embedded);
  expect(byDatabase(launched({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/backbeat' }).flags)).toEqual([
    '--max-semi-space-size=32',
  ]);
});

it("gives node the heap limit and compiler settings on either database, on the project's Node.js", () => {
  for (const env of [{ DATABASE_URL: '' }, { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/backbeat' }]) {
    const { flags, node } = launched(env);
    expect(flags).toEqual(expect.arrayContaining(['--max-old-space-size=1024', '--liftoff-only', '--expose-gc']));
    expect(node.split('.')[0]).toBe(`v${PROJECT_NODE_MAJOR}`);
  }
});

it("sets glibc's malloc settings unless the operator set their own", () => {
  expect(launched({})).toMatchObject({ arenas: '2', mmapThreshold: '131072' });
  expect(launched({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '65536' })).toMatchObject({
    arenas: '4',
    mmapThreshold: '65536',
  });
});
