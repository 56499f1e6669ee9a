import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
  /**
   * Development-only tools: the public mail outbox (/dev/outbox) and the page configuration's dev flag.
   * Never on with NODE_ENV=production, whatever the database: the outbox holds password-reset links.
   * In production without SMTP_URL mail is kept for admins only (/admin/mail). docs/security.md
   */
  devTools: boolean;
  /** serve the client (built files, or Vite in dev mode) */
  serveClient: boolean;
  /** run Vite in middleware mode with hot reload */
  viteDev: boolean;
  /** namespace for shared keys (rate limits) so parallel test apps never share counters */
  keyNamespace: string;
  trustProxy: boolean;
  logLevel: string;
  /** hot reads answered from memory (lib/hot-cache.ts); HOT_CACHE=0 turns it off */
  hotCache: boolean;
  /** payment providers; the sandbox is the default and needs nothing */
  payments: PaymentsConfig;
  /**
   * TLS_CERT_FILE and TLS_KEY_FILE (PEM): the app serves HTTPS itself, HTTP/2 to browsers and HTTP/1.1
   * to clients that ask for it (WebSocket upgrades included). Unset: plain HTTP/1.1, for a TLS front.
   */
  tls: { cert: Buffer; key: Buffer } | null;
  /**
   * JOBS_POLL_SECONDS: how often idle background-job workers and the recurring-job clock look for
   * work (unset: pg-boss's defaults, a couple of seconds for work and half a minute for the clock)
   */
  jobsPollSeconds: number | null;
  /** what mail says about the academy and how its jobs retry (docs/mail.md) */
  mail: MailConfig;
}

export interface MailConfig {
  /** MAIL_ACADEMY_NAME: the name in every mail's footer */
  academyName: string;
  /** MAIL_POSTAL_ADDRESS: the academy's postal address in every mail's footer (one line) */
  postalAddress: string;
  /** MAIL_UNSUBSCRIBE_MAILTO: an address that also unsubscribes (List-Unsubscribe mailto), optional */
  unsubscribeMailto: string | null;
  /** signs unsubscribe links: MAIL_UNSUBSCRIBE_SECRET, else derived from the session secret */
  unsubscribeSecret: string;
  /** MAIL_RETRY_SECONDS: the wait before a mail's first retry after a temporary failure (it doubles each time) */
  retrySeconds: number;
  /**
   * MAIL_EXPIRE_SECONDS: a delivery still running after this long is taken as lost (its process died)
   * and tried again; SMTP timeouts are set well inside it so a live delivery never outlasts it
   */
  expireSeconds: number;
}

export interface PaymentsConfig {
  card: 'sandbox' | 'stripe';
  paypal: 'sandbox' | 'paypal';
  stripe: {
    secretKey: string | null;
    publishableKey: string | null;
    webhookSecret: string | null;
    apiBase: string | null;
  };
  paypalApi: { clientId: string | null; clientSecret: string | null; webhookId: string | null; apiBase: string };
  /** signs the sandbox provider's webhooks (random per process unless set) */
  sandboxWebhookSecret: string;
  /** the sandbox clock and pages answer in production too (SANDBOX_ALLOW_IN_PRODUCTION=1) */
  sandboxAllowInProduction: boolean;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env, argv: string[] = process.argv): AppConfig {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const databaseUrl = env.DATABASE_URL || null;
  const productionConfig = nodeEnv === 'production' && databaseUrl !== null;
  const port = Number(env.PORT ?? 3000);
  const tls = loadTls(env);
  const appUrl = (env.APP_URL ?? `${tls ? 'https' : 'http'}://localhost:${port}`).replace(/\/$/, '');
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
    devTools: nodeEnv !== 'production' && !env.SMTP_URL,
    serveClient: env.SERVE_CLIENT !== '0',
    viteDev: argv.includes('--dev'),
    keyNamespace: env.KEY_NAMESPACE ?? 'bb',
    trustProxy: env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    hotCache: env.HOT_CACHE !== '0',
    payments: loadPaymentsConfig(env, nodeEnv),
    tls,
    jobsPollSeconds: env.JOBS_POLL_SECONDS && Number(env.JOBS_POLL_SECONDS) > 0 ? Number(env.JOBS_POLL_SECONDS) : null,
    mail: {
      academyName: env.MAIL_ACADEMY_NAME || 'Backbeat',
      postalAddress: env.MAIL_POSTAL_ADDRESS || 'Backbeat Drum Academy, 12 Groove Street, Nashville, TN 37203, USA',
      unsubscribeMailto: env.MAIL_UNSUBSCRIBE_MAILTO || null,
      unsubscribeSecret:
        env.MAIL_UNSUBSCRIBE_SECRET || createHmac('sha256', sessionSecret).update('mail-unsubscribe').digest('hex'),
      retrySeconds: positive(env.MAIL_RETRY_SECONDS) ?? 30,
      expireSeconds: Math.max(3, positive(env.MAIL_EXPIRE_SECONDS) ?? 60),
    },
  };
}

const positive = (v: string | undefined) => (v && Number(v) > 0 ? Number(v) : null);

function loadTls(env: Env): AppConfig['tls'] {
  const certFile = env.TLS_CERT_FILE || null;
  const keyFile = env.TLS_KEY_FILE || null;
  if (!certFile && !keyFile) return null;
  if (!certFile || !keyFile) throw new Error('HTTPS needs both TLS_CERT_FILE and TLS_KEY_FILE (PEM files).');
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(
        `${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`,
      );
    }
  };
  return { cert: read('TLS_CERT_FILE', certFile), key: read('TLS_KEY_FILE', keyFile) };
}

function loadPaymentsConfig(env: Env, nodeEnv: AppConfig['env']): PaymentsConfig {
  const card = env.PAYMENTS_CARD_PROVIDER === 'stripe' ? 'stripe' : 'sandbox';
  const paypal = env.PAYMENTS_PAYPAL_PROVIDER === 'paypal' ? 'paypal' : 'sandbox';
  const stripe = {
    secretKey: env.STRIPE_SECRET_KEY || null,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY || null,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
    apiBase: env.STRIPE_API_BASE || null,
  };
  if (card === 'stripe' && (!stripe.secretKey || !stripe.publishableKey || !stripe.webhookSecret)) {
    throw new Error(
      'PAYMENTS_CARD_PROVIDER=stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET.',
    );
  }
  const paypalApi = {
    clientId: env.PAYPAL_CLIENT_ID || null,
    clientSecret: env.PAYPAL_CLIENT_SECRET || null,
    webhookId: env.PAYPAL_WEBHOOK_ID || null,
    apiBase: (env.PAYPAL_API_BASE || 'https://api-m.sandbox.paypal.com').replace(/\/$/, ''),
  };
  if (paypal === 'paypal' && (!paypalApi.clientId || !paypalApi.clientSecret || !paypalApi.webhookId)) {
    throw new Error(
      'PAYMENTS_PAYPAL_PROVIDER=paypal needs PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID.',
    );
  }
  return {
    card,
    paypal,
    stripe,
    paypalApi,
    sandboxWebhookSecret:
      env.SANDBOX_WEBHOOK_SECRET || (nodeEnv === 'test' ? 'whsec_sandbox_test' : randomBytes(24).toString('hex')),
    sandboxAllowInProduction: env.SANDBOX_ALLOW_IN_PRODUCTION === '1',
  };
}

/**
 * What an operator must hear at every start of a production server that is not yet set up to be safe
 * or useful (docs/security.md): each line is logged at warn level by main.ts.
 */
/** a production server whose card or PayPal payments go to the sandbox: no real money moves (docs/product/test-mode.md) */
export const paymentsInTestMode = (config: AppConfig) =>
  config.env === 'production' && (config.payments.card === 'sandbox' || config.payments.paypal === 'sandbox');

export function productionWarnings(config: AppConfig): string[] {
  if (config.env !== 'production') return [];
  const warnings: string[] = [];
  if (!config.smtpUrl) {
    warnings.push(
      'SMTP_URL is not set: no mail leaves this server (password resets, receipts). Mail is kept for admins to read at /admin/mail; set SMTP_URL to deliver it.',
    );
  }
  if (config.demo) {
    warnings.push(
      'Demo content is loaded: its accounts (admin@demo.test among them) use the password published in the README. For a real academy start on an empty DATA_DIR with DEMO=0, or change every demo password now.',
    );
  }
  if (paymentsInTestMode(config)) {
    const providers = [
      config.payments.card === 'sandbox' ? 'card' : null,
      config.payments.paypal === 'sandbox' ? 'PayPal' : null,
    ]
      .filter(Boolean)
      .join(' and ');
    warnings.push(
      `Payments are in test mode: ${providers} payments go to the sandbox, so no real money is taken and checkout pages say so. Set PAYMENTS_CARD_PROVIDER=stripe and PAYMENTS_PAYPAL_PROVIDER=paypal (with their keys) to take real payments.`,
    );
  }
  if (config.payments.sandboxAllowInProduction) {
    warnings.push(
      'SANDBOX_ALLOW_IN_PRODUCTION=1: anyone can move the payment sandbox clock and use its test tools. Use it for tests only.',
    );
  }
  return warnings;
}
