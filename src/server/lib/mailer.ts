import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { randomToken } from './crypto.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** extra headers (List-Unsubscribe...) */
  headers?: Record<string, string>;
}

/**
 * A delivery that did not go through. `permanent`: the mail server refused it for good (an SMTP 5xx
 * answer: no such mailbox, rejected as spam); anything else (a 4xx answer, a refused or dropped
 * connection, a timeout) may work later.
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MailDeliveryError';
  }
}

/** nodemailer's error, in the words of a delivery error */
export function deliveryError(err: unknown): MailDeliveryError {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  const permanent = code !== null && code >= 500 && code < 600;
  const what = e.response ?? e.message ?? String(err);
  return new MailDeliveryError(
    code !== null ? `The mail server answered ${code}: ${what}` : `The mail server could not be reached: ${what}`,
    permanent,
  );
}
export interface OutboxMessage extends MailMessage {
  id: string;
  created_at: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** the development outbox (only when no SMTP_URL is set) */
  outbox(): Promise<OutboxMessage[]>;
}

/**
 * Mail goes through nodemailer to SMTP_URL; without it, into DATA_DIR/outbox as JSON files. nodemailer
 * is loaded with the first mail sent (a process that sends none never loads it).
 */
export function createMailer(opts: {
  smtpUrl: string | null;
  from: string;
  dataDir: string | null;
  /** the longest one delivery may take: each SMTP wait gets a third of it */
  timeoutSeconds?: number;
}): Mailer {
  const memory: OutboxMessage[] = [];
  const dir = opts.dataDir ? path.join(opts.dataDir, 'outbox') : null;
  const smtpUrl = opts.smtpUrl;
  if (smtpUrl) {
    let transport: Promise<Transporter> | null = null;
    return {
      async send(message) {
        const wait = Math.round(((opts.timeoutSeconds ?? 60) * 1000) / 3);
        transport ??= import('nodemailer').then(({ default: nodemailer }) =>
          nodemailer.createTransport({
            url: smtpUrl,
            connectionTimeout: wait,
            greetingTimeout: wait,
            socketTimeout: wait,
          }),
        );
        try {
          await (await transport).sendMail({ from: opts.from, ...message });
        } catch (err) {
          throw deliveryError(err);
        }
      },
      async outbox() {
        return [];
      },
    };
  }
  return {
    async send(message) {
      const entry: OutboxMessage = {
        ...message,
        id: `${Date.now()}-${randomToken(6)}`,
        created_at: new Date().toISOString(),
      };
      if (!dir) {
        memory.push(entry);
        return;
      }
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `${entry.id}.json`), JSON.stringify(entry, null, 2));
    },
    async outbox() {
      if (!dir) return [...memory].reverse();
      const files = (await readdir(dir).catch(() => [] as string[]))
        .filter((f) => f.endsWith('.json'))
        .sort()
        .reverse();
      return Promise.all(
        files.slice(0, 50).map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as OutboxMessage),
      );
    },
  };
}
