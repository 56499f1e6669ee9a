import { afterAll, beforeAll } from 'vitest';
import type { Client as PgClient } from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type AppConfig } from '#server/config';
import { buildApp } from '#server/app';
import { MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle } from '#server/db/client';
import { onTestServer } from './postgres.ts';
import { hashPassword } from '#server/modules/auth/service';

/**
 * API integration tests run the real app on a real database: in-memory PGlite by default, or a
 * fresh PostgreSQL database per test file when TEST_DATABASE_URL is set. Nothing is shared between
 * test files.
 */
export async function openTestDatabase(): Promise<DatabaseHandle & { drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const handle = await openDatabase({ databaseUrl: null, dataDir: null });
    return { ...handle, drop: async () => undefined };
  }
  const template = await migratedTemplate(url);
  const name = `bb_test_${process.env.VITEST_POOL_ID ?? '0'}_${randomBytes(4).toString('hex')}`;
  await onTestServer((admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`), url);
  const handle = await openDatabase({ databaseUrl: onServer(url, name), dataDir: null });
  return {
    ...handle,
    drop: () =>
      onTestServer(async (admin) => {
        await untilDisconnected(admin, name);
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }, url),
  };
}

/**
 * A migrated database of its own for the calling test file, opened before its tests and closed and
 * dropped after them; `db` is read inside the tests.
 */
export function databaseForThisFile() {
  let handle: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
    await handle?.drop();
  });
  return {
    get db(): DatabaseHandle['db'] {
      if (!handle) throw new Error('the test database opens before the tests');
      return handle.db;
    },
  };
}

/** `url` with its database changed to `database` */
function onServer(url: string, database: string) {
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${database}`;
  return dbUrl.toString();
}

/**
 * pg-pool's end() resolves before its clients have closed; forcing them off would surface as uncaught
 * "terminating connection" errors, and a database with connections cannot be renamed or copied, so
 * wait (briefly) until they are gone.
 */
async function untilDisconnected(client: PgClient, database: string) {
  for (let i = 0; i < 100; i++) {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [database],
    );
    if (!rows[0]?.n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A database on TEST_DATABASE_URL's server with every migration applied, named after the migrations'
 * contents: each test file's database is a copy of it (CREATE DATABASE … TEMPLATE), so the migrations
 * run once per server and set of migrations instead of once per test file. Built under a temporary
 * name and renamed when complete, under an advisory lock, so test workers starting together build it
 * once and never copy a half-migrated one.
 */
let templateName: Promise<string> | null = null;
function migratedTemplate(url: string): Promise<string> {
  templateName ??= (async () => {
    const hash = createHash('sha256');
    for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: 'utf8' }).sort()) {
      const full = path.join(MIGRATIONS_FOLDER, file);
      if (statSync(full).isFile()) hash.update(file).update(readFileSync(full));
    }
    const name = `bb_template_${hash.digest('hex').slice(0, 16)}`;
    await onTestServer(async (admin) => {
      await admin.query('SELECT pg_advisory_lock(727275)');
      try {
        const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (rowCount) return;
        const building = `${name}_${randomBytes(4).toString('hex')}`;
        await admin.query(`CREATE DATABASE "${building}"`);
        await (await openDatabase({ databaseUrl: onServer(url, building), dataDir: null })).close();
        await untilDisconnected(admin, building);
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      } finally {
        await admin.query('SELECT pg_advisory_unlock(727275)').catch(() => undefined);
      }
    }, url);
    return name;
  })();
  return templateName;
}

type UserOptions = {
  name?: string;
  email?: string;
  password?: string;
  role?: 'member' | 'admin';
  entitlements?: string[];
};
type TestUser = { id: number; email: string; password: string; name: string };

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  /** a browser-like client: cookie jar, CSRF token from the served page */
  client(): Promise<TestClient>;
  createUser(opts?: UserOptions): Promise<TestUser>;
  /** a new user, and a client signed in as them */
  signedIn(opts?: UserOptions): Promise<{ user: TestUser; client: TestClient }>;
  /** a Socket.IO connection as `client`'s browser (the app starts listening on a free port first) */
  socket(client: TestClient): Promise<Socket>;
  /** how many SQL statements `fn` runs (the driver's query function, wrapped for the call) */
  countQueries(fn: () => Promise<unknown>): Promise<number>;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  // the data directory sits in a folder of its own, so a file that escapes it (a path traversal) lands
  // where its test can look, never among the other test files' folders in the system's temp directory
  const ownFolder = mkdtempSync(path.join(tmpdir(), 'bb-test-'));
  const dataDir = path.join(ownFolder, 'data');
  mkdirSync(dataDir);
  const config: AppConfig = {
    ...loadConfig({ NODE_ENV: 'test' }, []),
    memoryDatabase: true,
    dataDir,
    serveClient: false,
    demo: false,
    redisUrl: null,
    sessionSecret: 'test-secret-' + randomBytes(8).toString('hex'),
    keyNamespace: `bbt${randomBytes(4).toString('hex')}`,
    ...overrides,
  };
  const app = await buildApp(config, { database });
  let counter = 0;
  let base: string | null = null;
  const sockets: Socket[] = [];
  const testApp: TestApp = {
    app,
    config,
    client: () => TestClient.create(app),
    async createUser(opts = {}) {
      counter++;
      const password = opts.password ?? 'password123';
      const name = opts.name ?? `Drummer ${counter}`;
      const email = opts.email ?? `drummer${counter}-${randomBytes(3).toString('hex')}@test.test`;
      const row = await app.deps.services.users.create({
        name,
        email,
        passwordHash: await hashPassword(password),
        role: opts.role ?? 'member',
      });
      for (const kind of opts.entitlements ?? []) await app.deps.services.users.grantEntitlement(row.id, kind, 'test');
      return { id: row.id, email, password, name };
    },
    async signedIn(opts = {}) {
      const user = await testApp.createUser(opts);
      const client = await TestClient.create(app);
      await client.signIn(user.email, user.password);
      return { user, client };
    },
    async socket(client) {
      if (!base) {
        await app.listen({ port: 0, host: '127.0.0.1' });
        base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      }
      const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const socket = connect(base, { transports: ['websocket'], extraHeaders: { cookie }, forceNew: true });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      return socket;
    },
    async countQueries(fn) {
      const client = (app.deps.db as unknown as { session: { client: { query: (...a: unknown[]) => unknown } } })
        .session.client;
      const original = client.query.bind(client);
      let n = 0;
      client.query = (...a: unknown[]) => {
        n++;
        return original(...a);
      };
      try {
        await fn();
      } finally {
        client.query = original;
      }
      return n;
    },
    async close() {
      for (const s of sockets) s.disconnect();
      await app.close();
      await database.close();
      await database.drop();
      rmSync(ownFolder, { recursive: true, force: true });
    },
  };
  return testApp;
}

type Body = Record<string, unknown> | string | Buffer | undefined;
interface RequestOptions {
  headers?: Record<string, string>;
  /** send the CSRF token (default true) */
  csrf?: boolean;
  /** send as a form (application/x-www-form-urlencoded) instead of JSON */
  form?: boolean;
}

export class TestClient {
  cookies = new Map<string, string>();
  csrfToken = '';
  static seq = 0;
  /** each client is its own browser on its own address (inject only: no traffic leaves the process) */
  readonly remoteAddress = `203.0.113.${1 + (TestClient.seq++ % 250)}`;
  private constructor(private readonly app: FastifyInstance) {}

  static async create(app: FastifyInstance) {
    const client = new TestClient(app);
    await client.page('/');
    return client;
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private absorb(res: LightMyRequestResponse) {
    for (const c of res.cookies) this.cookies.set(c.name, c.value);
    const rotated = res.headers['x-csrf-token'];
    if (typeof rotated === 'string') this.csrfToken = rotated;
    return res;
  }

  /** a browser navigation: HTML, and the page's CSRF token */
  async page(url: string) {
    const res = this.absorb(
      await this.app.inject({
        method: 'GET',
        url,
        remoteAddress: this.remoteAddress,
        headers: { accept: 'text/html', cookie: this.cookieHeader() },
      }),
    );
    const match = /<meta name="csrf-token" content="([^"]*)">/.exec(res.body);
    if (match) this.csrfToken = match[1]!;
    return res;
  }

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: Body,
    opts: RequestOptions = {},
  ) {
    const headers: Record<string, string> = {
      accept: 'application/json',
      cookie: this.cookieHeader(),
      ...opts.headers,
    };
    if (opts.csrf !== false && method !== 'GET') headers['x-csrf-token'] = this.csrfToken;
    let payload: string | Buffer | undefined;
    if (body !== undefined) {
      if (opts.form && typeof body === 'object' && !Buffer.isBuffer(body)) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
      } else if (typeof body === 'object' && !Buffer.isBuffer(body)) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      } else {
        payload = body;
      }
    }
    return this.absorb(
      await this.app.inject({
        method,
        url,
        headers,
        remoteAddress: this.remoteAddress,
        ...(payload !== undefined ? { payload } : {}),
      }),
    );
  }

  get(url: string, opts?: RequestOptions) {
    return this.request('GET', url, undefined, opts);
  }
  post(url: string, body?: Body, opts?: RequestOptions) {
    return this.request('POST', url, body ?? {}, opts);
  }

  /** a multipart/form-data POST with one file, as a browser's file upload sends it */
  upload(url: string, field: string, filename: string, data: Buffer, type = 'image/png') {
    const boundary = '----bbupload' + Math.random().toString(16).slice(2);
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return this.request('POST', url, payload, {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
  }

  async signIn(email: string, password: string) {
    const res = await this.post('/login', { email, password });
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
    return res;
  }
}

/** Ask to join a realtime channel; the server's answer. */
export const subscribe = (socket: Socket, channel: string) =>
  new Promise<{ ok: boolean; message?: string }>((resolve) => socket.emit('subscribe', channel, resolve));
