import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findChromium, type ChromiumInfo } from '../../scripts/find-chromium.ts';
import { startServer } from '#test/server';
import { freshDatabase } from '#test/postgres';
import { appCommand } from '../../bench/proc.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    chromium: ChromiumInfo;
  }
}

export default async function setup(project: TestProject) {
  // never skip the browser suite silently: no Chromium fails the run with one line
  const chromium = await findChromium(process.env, { headlessShell: true });
  if (!existsSync(path.resolve(import.meta.dirname, '../../dist/client/index.html'))) {
    throw new Error('The client is not built: run `npm run build` first (npm test does).');
  }
  // the browser suite drives the server as `npm start` runs it: the bundle, by plain node with the
  // start script's flags, in production mode
  const [node, args] = appCommand();
  if (!existsSync(args.at(-1)!)) {
    throw new Error('The server is not built: run `npm run build:server` first (npm test does).');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-e2e-'));
  // E2E_DATABASE_URL (a PostgreSQL server's admin connection, bench/traffic-memory.ts): each academy of the
  // suite runs on a new database there, dropped afterwards, instead of the embedded one
  const database = process.env.E2E_DATABASE_URL ? await freshDatabase('bb_e2e', process.env.E2E_DATABASE_URL) : null;
  const server = await startServer(
    {
      NODE_ENV: 'production',
      DEMO: '1',
      TRUST_PROXY: '1',
      DATA_DIR: dataDir,
      ...(database
        ? { DATABASE_URL: database.url, SESSION_SECRET: randomBytes(32).toString('hex') }
        : { DATABASE_URL: '' }),
      REDIS_URL: '',
      SANDBOX_ALLOW_IN_PRODUCTION: '1',
      SANDBOX_WEBHOOK_SECRET: 'whsec_sandbox_e2e',
    },
    90_000,
    [node, args],
  );
  project.provide('baseURL', server.url);
  project.provide('chromium', chromium);
  return async () => {
    await server.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
