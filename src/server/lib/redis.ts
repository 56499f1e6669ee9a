import type * as Redis from 'redis';
import { recogniseRedisErrors } from './unavailable.ts';

type RedisLibrary = typeof Redis;
let library: Promise<RedisLibrary> | undefined;

/**
 * The client library, loaded with the first connection: an app without REDIS_URL (the embedded default)
 * never opens one, and would otherwise keep the library and its command table in its heap for nothing.
 */
function redisLibrary(): Promise<RedisLibrary> {
  library ??= import('redis').then((lib) => {
    recogniseRedisErrors(lib);
    return lib;
  });
  return library;
}

/**
 * Every connection to Redis: it never holds up the app. Commands are refused at once while the
 * connection is down (the offline queue is off), instead of queued. The client reconnects by itself,
 * backing off to one attempt every 2 s; an attempt that is answered with silence (a listener that
 * accepts and never replies) is given up after 5 s of it and tried again, and the ping every 2 s keeps
 * a healthy idle connection from looking silent. `commandOptions.timeout` only bounds the wait to be
 * written: a command Redis has received is waited for until it answers, which is why a silent Redis
 * is watched for (`RedisMonitor`) and its connections dropped.
 */
function makeClient(lib: RedisLibrary, url: string) {
  return lib.createClient({
    url,
    disableOfflineQueue: true,
    pingInterval: 2000,
    commandOptions: { timeout: 2000 },
    socket: {
      connectTimeout: 2000,
      socketTimeout: 5000,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000),
    },
  });
}
export type RedisClient = ReturnType<typeof makeClient>;

/** A client connecting in the background (and reconnecting for as long as it is open): nothing waits for it. */
export async function openRedis(url: string): Promise<RedisClient> {
  const client = makeClient(await redisLibrary(), url);
  client.on('error', () => undefined); // reported by the monitor; commands fail meanwhile
  connectInBackground(client);
  return client;
}

function connectInBackground(client: RedisClient) {
  // connect() settles once the client is ready, or rejects when it is closed before that
  client.connect().catch(() => undefined);
}

/** true once `client` is ready, false if it is not within `ms` */
export function whenReady(client: RedisClient, ms: number): Promise<boolean> {
  if (client.isReady) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    client.on('ready', onReady);
  });
}

/** Close a client without waiting on a Redis that does not answer: pending commands fail. */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (!client.isOpen) return;
  if (!client.isReady) return client.destroy();
  const closed = client.close().then(
    () => true,
    () => true,
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 1000)));
  if (!(await Promise.race([closed, late]))) client.destroy();
  clearTimeout(timer);
}

/** The address for the logs, without a user name or password. */
export function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(an unreadable REDIS_URL)';
  }
}

function describe(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length) return describe(err.errors[0]);
  const e = err as { message?: unknown; code?: unknown; name?: unknown } | null;
  return (
    (typeof e?.message === 'string' && e.message) || (typeof e?.code === 'string' && e.code) || String(e?.name ?? err)
  );
}

export interface RedisLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RedisMonitorOptions {
  url: string;
  log: RedisLog;
  /** how often the connection is pinged */
  pingEveryMs?: number;
  /** a ping unanswered this long means Redis is silent: its connections are dropped and made again */
  silentAfterMs?: number;
  /** how often "still unavailable" is logged while Redis is away */
  remindEveryMs?: number;
}

const WHAT_FAILS =
  'requests of signed-in members, sign-in and sign-out answer 503 (sessions live in Redis); rate limits count per process; realtime reaches this process only';

/**
 * Whether Redis answers now (`up`): the main connection is ready and answers its pings. Logs when it
 * goes away (at start too), every `remindEveryMs` while it stays away, and when it is back; tells
 * `onChange` listeners. A Redis that keeps a connection open but stops answering (stopped process, lost
 * network) is noticed by its unanswered ping: every watched connection is then dropped and made again,
 * so the commands waiting on it fail at once and new ones are refused until Redis answers.
 */
/** a ping waiting for its answer */
interface Ping {
  sentAt: number;
  promise: Promise<void>;
}

export class RedisMonitor {
  readonly address: string;
  private readonly clients = new Set<RedisClient>();
  private readonly listeners = new Set<(up: boolean) => void>();
  private answering = false;
  private pinging: Ping | null = null;
  private reason = 'not connected yet';
  private reported: boolean | null = null;
  private downSince = 0;
  private remindedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly pingEveryMs: number;
  private readonly silentAfterMs: number;
  private readonly remindEveryMs: number;

  constructor(
    readonly client: RedisClient,
    private readonly opts: RedisMonitorOptions,
  ) {
    this.address = redisAddress(opts.url);
    this.pingEveryMs = opts.pingEveryMs ?? 1000;
    this.silentAfterMs = opts.silentAfterMs ?? 3000;
    this.remindEveryMs = opts.remindEveryMs ?? 30_000;
    this.clients.add(client);
    client.on('error', (err: unknown) => {
      this.reason = describe(err);
      this.check();
    });
    const lost = () => {
      this.answering = false;
      this.pinging = null;
      this.check();
    };
    client.on('reconnecting', lost);
    client.on('end', lost);
    client.on('ready', () => void this.ping());
  }

  /** Redis answers now */
  get up(): boolean {
    return this.client.isReady && this.answering;
  }

  /** another connection to the same Redis, dropped and made again with the main one when Redis falls silent */
  watch(client: RedisClient) {
    this.clients.add(client);
  }

  onChange(listener: (up: boolean) => void) {
    this.listeners.add(listener);
  }

  /** Wait up to `ms` for Redis to answer, then report how it is and keep watching. */
  async start(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    if (await whenReady(this.client, ms)) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.ping(),
        new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now())))),
      ]);
      clearTimeout(timer);
    }
    this.timer = setInterval(() => this.tick(), this.pingEveryMs);
    this.timer.unref();
    this.check();
    return this.up;
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.listeners.clear();
  }

  /** ping, unless a ping is already waiting for its answer; settles with the answer (or never, if Redis is silent) */
  private ping(): Promise<void> {
    if (this.pinging) return this.pinging.promise;
    if (!this.client.isReady) return Promise.resolve();
    const pinging = { sentAt: Date.now(), promise: Promise.resolve() };
    this.pinging = pinging;
    pinging.promise = this.client.ping().then(
      () => {
        if (this.pinging !== pinging) return;
        this.pinging = null;
        this.answering = true;
        this.check();
      },
      (err: unknown) => {
        if (this.pinging !== pinging) return;
        this.pinging = null;
        this.answering = false;
        this.reason = describe(err);
        this.check();
      },
    );
    return pinging.promise;
  }

  private tick() {
    const overdue = this.pinging;
    if (overdue && Date.now() - overdue.sentAt >= this.silentAfterMs) {
      // the answer may be waiting unread in the socket (lib/timers.ts afterPendingIo): decide once it had its turn
      setImmediate(() => this.silent(overdue));
      return;
    }
    void this.ping();
    this.check();
  }

  /** Redis kept silent past the limit: drop its connections and make them again */
  private silent(overdue: Ping) {
    if (this.pinging !== overdue) return; // answered after all
    this.pinging = null;
    this.answering = false;
    this.reason = `no answer within ${this.silentAfterMs} ms`;
    this.check();
    for (const c of this.clients) {
      if (!c.isOpen) continue;
      c.destroy();
      connectInBackground(c);
    }
  }

  private check() {
    if (this.timer === null) return; // not started, or stopped
    const up = this.up;
    const now = Date.now();
    if (up === this.reported) {
      if (!up && now - this.remindedAt >= this.remindEveryMs) {
        this.remindedAt = now;
        this.opts.log.error(
          { redis: this.address, reason: this.reason, downForSeconds: Math.round((now - this.downSince) / 1000) },
          `Redis is still unavailable: ${WHAT_FAILS}; reconnecting in the background`,
        );
      }
      return;
    }
    const first = this.reported === null;
    this.reported = up;
    if (!up) {
      this.downSince = now;
      this.remindedAt = now;
      this.opts.log.error(
        { redis: this.address, reason: this.reason },
        `Redis is unavailable: ${WHAT_FAILS}; reconnecting in the background`,
      );
    } else if (!first) {
      this.opts.log.warn(
        { redis: this.address, downForSeconds: Math.round((now - this.downSince) / 1000) },
        'Redis is available again: sessions, shared rate limits and realtime across processes are back',
      );
    }
    if (!first) for (const listener of this.listeners) listener(up);
  }
}
