import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** Everything the server reads from the environment, read once at start-up. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; unset = embedded PGlite in dataDir */
  databaseUrl: string | null;
  /** use an in-memory PGlite (tests) */
  memoryDatabase: boolean;
  redisUrl: string | null;
  appUrl: string;
  sessionSecret: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** load demo content on first start */
  demo: boolean;
  /** development-only tools (mail outbox page) */
  devTools: boolean;
  /** serve the client (built files, or Vite in dev mode) */
  serveClient: boolean;
  /** run Vite in middleware mode with hot reload */
  viteDev: boolean;
  /** namespace for shared keys (rate limits) so parallel test apps never share counters */
  keyNamespace: string;
  trustProxy: boolean;
  logLevel: string;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env, argv: string[] = process.argv): AppConfig {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const databaseUrl = env.DATABASE_URL || null;
  const productionConfig = nodeEnv === 'production' && databaseUrl !== null;
  const port = Number(env.PORT ?? 3000);
  const appUrl = (env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  let sessionSecret = env.SESSION_SECRET ?? '';
  if (!sessionSecret) {
    if (productionConfig) throw new Error('SESSION_SECRET must be set when DATABASE_URL is used in production.');
    // Embedded/demo use: a per-process secret. Sessions survive restarts only with SESSION_SECRET set.
    sessionSecret = env.BB_DEV_SECRET ?? randomBytes(32).toString('hex');
  }
  const demoWanted = env.DEMO === '1' || (env.DEMO !== '0' && databaseUrl === null && nodeEnv !== 'test');
  return {
    env: nodeEnv,
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    memoryDatabase: false,
    redisUrl: env.REDIS_URL || null,
    appUrl,
    sessionSecret,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Backbeat <hello@backbeat.test>',
    demo: demoWanted && !productionConfig,
    devTools: !productionConfig && !env.SMTP_URL,
    serveClient: env.SERVE_CLIENT !== '0',
    viteDev: argv.includes('--dev'),
    keyNamespace: env.KEY_NAMESPACE ?? 'bb',
    trustProxy: env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
  };
}
