import { afterAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from './client.ts';

// The embedded database's memory: PostgreSQL's shared buffer pool is resident in PGlite's WASM memory
// for as long as the process runs, so the app sets a small one (client.ts) over initdb's 128MB.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const sharedBuffers = async (embedded: NonNullable<Awaited<ReturnType<typeof openDatabase>>['embedded']>) =>
  (await embedded.query('show shared_buffers')).rows[0];

it('creates a new data folder (migrated), reopens it with its rows, with the small shared buffer pool both times', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bb-db-'));
  dirs.push(dir);
  const created = await openDatabase({ databaseUrl: null, dataDir: dir });
  expect(await sharedBuffers(created.embedded!)).toEqual({ shared_buffers: '8MB' });
  await created.embedded!.query(`insert into app_meta (key, value) values ('probe', 'kept')`);
  await created.close();

  const reopened = await openDatabase({ databaseUrl: null, dataDir: dir });
  try {
    expect(await sharedBuffers(reopened.embedded!)).toEqual({ shared_buffers: '8MB' });
    expect((await reopened.embedded!.query(`select value from app_meta where key = 'probe'`)).rows).toEqual([
      { value: 'kept' },
    ]);
  } finally {
    await reopened.close();
  }
});

it('uses the small shared buffer pool in memory too', async () => {
  const handle = await openDatabase({ databaseUrl: null, dataDir: null });
  try {
    expect(await sharedBuffers(handle.embedded!)).toEqual({ shared_buffers: '8MB' });
  } finally {
    await handle.close();
  }
});
