import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../../scripts/build-server.ts';
import { appCommand } from '../../bench/proc.ts';
import { freshDatabase, onTestServer } from './postgres.ts';
import { startServer, type ServerProcess } from './server.ts';
import { BrowserSession } from './browser-session.ts';
import { until } from './until.ts';

/**
 * Backbeat deployed the two ways the README gives: `npm start` (the server bundle under plain node with
 * NODE_ENV=production, on the embedded database with the demo content) and several processes on
 * PostgreSQL with Redis (NODE_ENV=production, SESSION_SECRET, TRUST_PROXY=1 behind a load balancer).
 * Both serve the real client build (dist/client). The hostile checks of tests/e2e/production.spec.ts
 * run against each.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

export type DeploymentKind = 'embedded' | 'postgresql';

export interface Deployment {
  kind: DeploymentKind;
  server: ServerProcess;
  /** an admin's and a member's credentials (registered through the app; the admin promoted in SQL) */
  admin: { email: string; password: string };
  member: { email: string; password: string };
  /** a new session signed in as `who` */
  signedIn(who: { email: string; password: string }): Promise<BrowserSession>;
  /**
   * One session per account, signed in once and kept: on `npm start` every request comes from one
   * address, and sign-ins from one address are limited per minute.
   */
  as(who: { email: string; password: string }): Promise<BrowserSession>;
  /** SQL on the deployment's database (PostgreSQL only; null on the embedded one, which the process holds open) */
  sql: ((text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>) | null;
  stop(): Promise<void>;
}

/** the sandbox provider's webhook secret, as an operator sets it, so that tests can sign events */
export const DEPLOYMENT_SANDBOX_SECRET = 'whsec_deployment_test';

/** PostgreSQL and Redis are there to test against (CI sets both). */
export const postgresAvailable = !!process.env.TEST_DATABASE_URL && !!process.env.REDIS_URL;

let bundle: Promise<string> | null = null;
/** The server bundle as `npm run build:server` makes it, built once per test process into its own folder. */
export function serverBundle(): Promise<string> {
  bundle ??= (async () => {
    mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    const outDir = mkdtempSync(path.join(ROOT, '.tmp', 'deployment-'));
    const file = path.join(outDir, 'server', 'main.js');
    await buildServer(file);
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    return file;
  })();
  return bundle;
}

/** `accounts: false`: register no admin and member (a deployment that cannot sign anyone in, e.g. without Redis) */
export async function startDeployment(
  kind: DeploymentKind,
  extraEnv: Record<string, string> = {},
  opts: { accounts?: boolean } = {},
): Promise<Deployment> {
  const file = await serverBundle();
  const [node, args] = appCommand();
  const dataDir = mkdtempSync(path.join(tmpdir(), `bb-deploy-${kind}-`));
  let databaseUrl = '';
  let dropDatabase = async (): Promise<void> => undefined;
  let env: Record<string, string>;
  if (kind === 'embedded') {
    // exactly what `npm start` sets: nothing but NODE_ENV (the embedded default loads the demo content)
    env = {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      TRUST_PROXY: '',
      SESSION_SECRET: '',
      DEMO: '',
      SMTP_URL: '',
      SANDBOX_ALLOW_IN_PRODUCTION: '',
      SANDBOX_WEBHOOK_SECRET: DEPLOYMENT_SANDBOX_SECRET,
    };
  } else {
    const database = await freshDatabase('bb_deploy');
    databaseUrl = database.url;
    dropDatabase = database.drop;
    env = {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL!,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      TRUST_PROXY: '1',
      KEY_NAMESPACE: `bbdeploy${randomBytes(3).toString('hex')}`,
      DEMO: '',
      SMTP_URL: '',
      SANDBOX_ALLOW_IN_PRODUCTION: '',
      SANDBOX_WEBHOOK_SECRET: DEPLOYMENT_SANDBOX_SECRET,
    };
  }
  const server = await startServer({ ...env, LOG_LEVEL: 'warn', ...extraEnv }, 120_000, [
    node,
    [...args.slice(0, -1), file],
  ]);
  const sql = databaseUrl
    ? (text: string, params: unknown[] = []) =>
        onTestServer(async (c) => (await c.query(text, params)).rows as Record<string, unknown>[], databaseUrl)
    : null;

  const tag = randomBytes(3).toString('hex');
  const admin = { email: `owner-${tag}@academy.test`, password: 'owner-passphrase-1' };
  const member = { email: `drummer-${tag}@academy.test`, password: 'drummer-passphrase-1' };
  for (const who of opts.accounts === false ? [] : [admin, member]) {
    const s = await BrowserSession.open(server.url);
    const res = await s.register(who.email, who === admin ? 'Academy Owner' : 'Jo Drummer', who.password);
    if (res.status !== 200) throw new Error(`registering ${who.email}: ${res.status} ${await res.text()}`);
  }
  if (opts.accounts === false) {
    // nobody to promote
  } else if (sql) {
    await sql(`UPDATE users SET role = 'admin' WHERE email = $1`, [admin.email]);
    // the process hears a change made outside it through PostgreSQL's notifications: wait until it has
    const owner = await BrowserSession.open(server.url);
    await owner.signIn(admin.email, admin.password);
    await until(
      'the app process to see the owner become an admin',
      async () => ((await (await owner.get('/api/me')).json()) as { user: { isAdmin?: boolean } | null }).user?.isAdmin,
      { timeoutMs: 30_000, intervalMs: 50 },
    );
  } else {
    // the embedded database is held by the process: the demo admin makes the owner an admin, through the console
    const demoAdmin = await BrowserSession.open(server.url);
    if ((await demoAdmin.signIn('admin@demo.test', 'drumsdemo1')).status !== 200)
      throw new Error('the demo admin could not sign in');
    const owner = await BrowserSession.open(server.url);
    await owner.signIn(admin.email, admin.password);
    const ownerId = await owner.userId();
    const promoted = await demoAdmin.post(`/api/admin/members/${ownerId}/role`, { role: 'admin' });
    if (!promoted.ok) throw new Error(`promoting the owner: ${promoted.status} ${await promoted.text()}`);
  }

  const kept = new Map<string, Promise<BrowserSession>>();
  const deployment: Deployment = {
    kind,
    server,
    admin,
    member,
    sql,
    async signedIn(who) {
      const s = await BrowserSession.open(server.url);
      const res = await s.signIn(who.email, who.password);
      if (res.status !== 200) throw new Error(`signing in ${who.email}: ${res.status} ${await res.text()}`);
      return s;
    },
    as(who) {
      if (!kept.has(who.email)) kept.set(who.email, deployment.signedIn(who));
      return kept.get(who.email)!;
    },
    async stop() {
      await server.stop();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return deployment;
}
