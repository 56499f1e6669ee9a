import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

/**
 * A real SMTP server for mail tests (smtp-server), on a free local port: every mail the app delivers
 * is parsed with mailparser and kept for the test to read. `refuse` makes the next deliveries fail
 * with an SMTP answer (a 451 is temporary, a 550 permanent); `stall` makes the next ones hang after
 * the data arrives (a delivery that never finishes, for a process killed mid-send).
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: ParsedMail['headers'];
  /** the raw header line, e.g. `header('list-unsubscribe')` */
  header(name: string): string | undefined;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** how many deliveries reached the data stage (accepted, refused or stalled) */
  attempts: number;
  refuse(times: number, code: number, message?: string): void;
  stall(times: number): void;
  /** waits for a mail matching `match` (to an address, or a test), failing with what arrived instead */
  waitFor(match: string | ((m: ReceivedMail) => boolean), timeoutMs?: number): Promise<ReceivedMail>;
  /** the mails sent to `address` */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let refusals: { times: number; code: number; message: string } = { times: 0, code: 451, message: '' };
  let stalls = 0;
  const stalled = new Set<() => void>();
  const state = { attempts: 0 };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        state.attempts++;
        if (stalls > 0) {
          stalls--;
          // never answers: the client hangs until its socket closes
          stalled.add(() => callback(new Error('closing')));
          return;
        }
        if (refusals.times > 0) {
          refusals.times--;
          const err = Object.assign(new Error(refusals.message || 'Try again later'), { responseCode: refusals.code });
          callback(err);
          return;
        }
        void simpleParser(Buffer.concat(chunks)).then((parsed) => {
          const addresses = (v: ParsedMail['to']) =>
            (Array.isArray(v) ? v : v ? [v] : []).flatMap((a) => a.value.map((x) => x.address ?? ''));
          mails.push({
            from: parsed.from?.value[0]?.address ?? '',
            to: addresses(parsed.to),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: parsed.headers,
            header: (name) => parsed.headerLines.find((l) => l.key === name.toLowerCase())?.line,
          });
          callback();
          for (const w of waiters) w();
        }, callback);
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  const api: TestSmtpServer = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    get attempts() {
      return state.attempts;
    },
    refuse(times, code, message = '') {
      refusals = { times, code, message };
    },
    stall(times) {
      stalls = times;
    },
    to: (address) => mails.filter((m) => m.to.includes(address.toLowerCase()) || m.to.includes(address)),
    waitFor(match, timeoutMs = 30_000) {
      const test = typeof match === 'string' ? (m: ReceivedMail) => m.to.includes(match.toLowerCase()) : match;
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = mails.find(test);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(check as () => void);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check as () => void);
          reject(
            new Error(
              `No such mail arrived within ${timeoutMs} ms; arrived: ${JSON.stringify(mails.map((m) => [m.to, m.subject]))}`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check as () => void);
      });
    },
    async close() {
      for (const release of stalled) release();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}
