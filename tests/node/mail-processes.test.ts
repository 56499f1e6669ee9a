import { afterAll, beforeAll, expect, it } from 'vitest';
import { until as waitFor } from '#test/until';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { notificationTopic } from '#shared/mail';
import { MAIL_KINDS } from '#server/modules/mail/kinds';
import { freshDatabase } from '#test/postgres';
import { startServer, type ServerProcess } from '#test/server';
import { startSmtpServer, type TestSmtpServer } from '#test/smtp';

/**
 * Mail across real app processes on one PostgreSQL database, delivered to a real SMTP server:
 * - two processes asking for the same 12 mails (the same keys), and for one mail of every kind the
 *   academy sends, send each one once;
 * - a process killed while it delivers a mail: once the delivery's expiry has passed, the process
 *   started after it delivers the mail, once.
 */
const enabled = !!process.env.TEST_DATABASE_URL;
const ROOT = path.resolve(import.meta.dirname, '../..');
const COMMAND: [string, string[]] = [path.join(ROOT, 'node_modules/.bin/tsx'), ['tests/support/mail-server.ts']];

let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
let smtp: TestSmtpServer | undefined;
let db: pg.Client | undefined;
let env: Record<string, string> = {};
const started: ServerProcess[] = [];

const until = <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 90_000) =>
  waitFor(what, probe, { timeoutMs, intervalMs: 200, seen: () => started.map((s) => s.output()).join('\n---\n') });

/** the mail to this address, once the SMTP server has it; a failure shows the processes' output */
const mailTo = (address: string, timeoutMs: number) =>
  until(`a mail to ${address}`, async () => smtp!.to(address)[0], timeoutMs);

const start = async (extra: Record<string, string>) => {
  const s = await startServer({ ...env, ...extra }, 90_000, COMMAND);
  started.push(s);
  return s;
};

beforeAll(async () => {
  if (!enabled) return;
  smtp = await startSmtpServer();
  database = await freshDatabase('bb_mail');
  env = {
    NODE_ENV: 'test',
    SERVE_CLIENT: '0',
    DEMO: '0',
    DATABASE_URL: database.url,
    SESSION_SECRET: randomBytes(16).toString('hex'),
    KEY_NAMESPACE: `bbmail${randomBytes(3).toString('hex')}`,
    JOBS_POLL_SECONDS: '1',
    SMTP_URL: smtp.url,
    MAIL_RETRY_SECONDS: '1',
    MAIL_EXPIRE_SECONDS: '6',
  };
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
}, 120_000);

afterAll(async () => {
  for (const s of started) await s.stop();
  await db?.end();
  await database?.drop();
  await smtp?.close();
});

it.skipIf(!enabled)('two processes asking for the same mails send each one once', { timeout: 300_000 }, async () => {
  const keys = Array.from({ length: 12 }, (_, i) => `probe-${i + 1}`);
  const kinds = Object.keys(MAIL_KINDS) as Array<keyof typeof MAIL_KINDS>;
  const [a, b] = await Promise.all([
    start({ MAIL_PROBES: keys.join(','), MAIL_EVERY_KIND: 'forward' }),
    start({ MAIL_PROBES: [...keys].reverse().join(','), MAIL_EVERY_KIND: 'backward' }),
  ]);
  // both processes stop whatever happens, so none of their deliveries reaches the next test's mail server
  try {
    // the first mail waits for both processes to set up their jobs, the rest only for delivery
    for (const key of keys) await mailTo(`${key}@mail.test`, key === keys[0] ? 150_000 : 60_000);
    for (const kind of kinds) await mailTo(`every-${kind}@mail.test`, 60_000);
    // every row delivered, by whichever process took its job
    await until('every mail settled', async () => {
      const { rows } = await db!.query<{ n: number }>(
        `select count(*)::int as n from mail_messages
          where (key like 'account.welcome:probe-%' or key like '%:every-%') and status = 'sent'`,
      );
      // at least: a mail sent twice shows in the counts below, with what was sent
      return rows[0]!.n >= keys.length + kinds.length;
    });
    const { rows } = await db!.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'mail.deliver'`,
    );
    expect(rows[0]!.n).toBe(keys.length + kinds.length);
    for (const key of keys) expect(smtp!.to(`${key}@mail.test`), key).toHaveLength(1);
    for (const kind of kinds) {
      const [mail, ...more] = smtp!.to(`every-${kind}@mail.test`);
      expect(more, kind).toEqual([]);
      // mail a member can turn off carries its one-click unsubscribe; account and billing mail does not
      const essential = notificationTopic(MAIL_KINDS[kind].topic)!.essential;
      expect(!!mail!.header('list-unsubscribe-post'), kind).toBe(!essential);
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

it.skipIf(!enabled)(
  'a mail whose process was killed mid-delivery is delivered once by the next process',
  { timeout: 240_000 },
  async () => {
    smtp!.stall(1);
    const before = smtp!.attempts;
    const doomed = await start({ MAIL_PROBES: 'killed-mid-send' });
    // the delivery reached the mail server, which never answers: the job is running in that process
    await until('the stalled delivery', async () => smtp!.attempts > before);
    const { rows: running } = await db!.query<{ state: string }>(
      `select j.state::text as state from pgboss.job j join mail_messages m on (j.data->>'id')::int = m.id
        where m.key = 'account.welcome:killed-mid-send'`,
    );
    expect(running.map((r) => r.state)).toEqual(['active']);
    process.kill(-doomed.child.pid!, 'SIGKILL');
    await new Promise((r) => doomed.child.once('exit', r));

    await start({});
    const mail = await mailTo('killed-mid-send@mail.test', 90_000);
    expect(mail.subject).toBe('Welcome to Backbeat');
    // the first try (killed) and the second (delivered)
    const row = await until('the mail marked sent', async () => {
      const { rows } = await db!.query<{ status: string; tries: number }>(
        `select status, tries from mail_messages where key = 'account.welcome:killed-mid-send'`,
      );
      return rows[0]?.status === 'sent' ? rows[0] : false;
    });
    expect(row.tries).toBe(2);
    expect(smtp!.to('killed-mid-send@mail.test')).toHaveLength(1);
  },
);
