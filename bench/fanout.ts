/**
 * Chat fan-out: N Socket.IO clients, signed in, subscribed to one live show,
 * receive every chat message posted over HTTP; the delivery latency (from the POST leaving the
 * benchmark to each client's `event`) is collected for every message and client. The reference is a
 * bare `ws` server (bench/bare-ws.ts) sending a frame of the same size to the same number of clients.
 * The clients of both live in worker threads of the benchmark process (bench/fanout-clients.ts,
 * FANOUT_THREADS of them): one thread alone would add its own receiving delay to every latency.
 * Messages are sent one at a time (the next after every client has the last one, or 5 s), at most one
 * every 500 ms, each sender in turn: the app's chat limits (5 per member and 30 per address per 10 s)
 * hold. The first WARMUP messages are not measured.
 */
import { spawn } from 'node:child_process';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { freePort } from '#test/server';
import type { ClientsJob, FromClients, ToClients } from './fanout-clients.ts';
import type { Session } from './community.ts';
import { cpuMs, descendant, idleCores } from './proc.ts';

export interface Latency {
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  expected: number;
  /** CPU time of each server process during the messages, ms per message */
  cpuPerMessage: number[];
  /**
   * CPU time of this process during the messages, ms per message: the viewers' client threads, which
   * share the machine's cores with the servers, so their cost shows in every delivery's latency
   */
  clientCpuPerMessage: number;
  /** each message's slowest delivery, ms, in the order sent */
  slowestPerMessage: number[];
  /** the measured messages' span on the machine's monotonic clock, µs (what a CPU profile's timestamps use) */
  monotonicUs: [from: number, to: number];
}

const SPACING_MS = 500;
const WAIT_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summarise(
  samples: number[],
  expected: number,
): Omit<Latency, 'cpuPerMessage' | 'clientCpuPerMessage' | 'slowestPerMessage' | 'monotonicUs'> {
  const sorted = samples.sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    delivered: sorted.length,
    expected,
  };
}

/** threads holding the clients (each one a share of them) */
const FANOUT_THREADS = Number(process.env.FANOUT_THREADS ?? 4);

/** The clients, spread over worker threads; what drive() needs of them. */
interface Viewers {
  count: number;
  /** each client's delivery time of message `seq`, ms after `sentAt` (this thread's performance.now()); what came within WAIT_MS */
  deliveries(seq: number, sentAt: number): Promise<number[]>;
  close(): Promise<void>;
}

async function spreadClients(job: Omit<ClientsJob, 'count' | 'offset'>, count: number): Promise<Viewers> {
  const threads = Math.max(1, Math.min(FANOUT_THREADS, count));
  const workers: Worker[] = [];
  const waiting = new Map<number, { reports: number; delays: number[]; sentAt: number; done: () => void }>();
  const ready: Promise<void>[] = [];
  for (let t = 0; t < threads; t++) {
    const share = Math.floor(count / threads) + (t < count % threads ? 1 : 0);
    const offset = t * Math.floor(count / threads) + Math.min(t, count % threads);
    const worker = new Worker(new URL('./fanout-clients.ts', import.meta.url), {
      workerData: { ...job, count: share, offset } satisfies ClientsJob,
    });
    workers.push(worker);
    ready.push(
      new Promise<void>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (m: FromClients) => {
          if (m.type === 'ready') resolve();
          else if (m.type === 'error') reject(new Error(m.message));
          else if (m.type === 'got') {
            const w = waiting.get(m.seq);
            if (!w) return;
            for (const at of m.at) w.delays.push(at - performance.timeOrigin - w.sentAt);
            if (++w.reports === threads) w.done();
          }
        });
      }),
    );
  }
  try {
    await Promise.all(ready);
  } catch (err) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw err;
  }
  const tell = (m: ToClients) => workers.forEach((w) => w.postMessage(m));
  return {
    count,
    async deliveries(seq, sentAt) {
      const delays: number[] = [];
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => tell({ type: 'flush', seq }), WAIT_MS);
        waiting.set(seq, {
          reports: 0,
          delays,
          sentAt,
          done: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
      waiting.delete(seq);
      return delays;
    },
    async close() {
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              w.on('message', (m: FromClients) => m.type === 'closed' && resolve());
              w.postMessage({ type: 'close' } satisfies ToClients);
            }),
        ),
      );
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/**
 * Messages sent before the measured ones, to the app and to the reference alike: a first message runs a
 * cold path (the route's validation and query on the server, the clients' handlers in this process).
 */
const WARMUP = 2;

v8.setFlagsFromString('--expose-gc');
/** a full collection in this process, where the clients live (what earlier parts left must not pause a delivery) */
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * Sends WARMUP + `messages` one by one and collects every client's delivery latency for the last
 * `messages`. Before those: a full garbage collection here and cores at least 80 % idle over a second
 * (10 s at most), for the app and the reference alike.
 */
async function drive(
  viewers: Viewers,
  messages: number,
  send: (seq: number) => Promise<void>,
  pids: number[],
): Promise<Latency> {
  const samples: number[] = [];
  const slowest: number[] = [];
  let cpu0: number[] = [];
  let clientCpu0 = 0;
  const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
  let from = 0;
  for (let seq = 0; seq < WARMUP + messages; seq++) {
    if (seq === WARMUP) {
      collectGarbage();
      await idleCores(0.8, 10_000);
      cpu0 = pids.map(cpuMs);
      clientCpu0 = cpuMs(process.pid);
      from = monotonicUs();
    }
    const started = performance.now();
    const arriving = viewers.deliveries(seq, started);
    await send(seq);
    const delays = await arriving;
    if (seq >= WARMUP) {
      samples.push(...delays);
      slowest.push(Math.max(...delays));
    }
    const left = SPACING_MS - (performance.now() - started);
    if (left > 0) await sleep(left);
  }
  return {
    ...summarise(samples, viewers.count * messages),
    cpuPerMessage: pids.map((p, i) => (cpuMs(p) - cpu0[i]!) / messages),
    clientCpuPerMessage: (cpuMs(process.pid) - clientCpu0) / messages,
    slowestPerMessage: slowest,
    monotonicUs: [from, monotonicUs()],
  };
}

export interface AppTarget {
  /** base URLs; clients are spread over them in turn */
  urls: string[];
  /** the signed-in reader whose cookie every client carries */
  reader: Session;
  /** URL + sessions that post the messages (each sends a few, to stay under the per-member limit) */
  postUrl: string;
  senders: Session[];
  showId: number;
  /** the server processes (for their CPU time) */
  pids: number[];
}

/** Connects the clients; returns a function that runs the messages and then closes everything. */
export async function connectApp(target: AppTarget, clients: number) {
  const viewers = await spreadClients(
    { kind: 'app', urls: target.urls, cookie: target.reader.cookie, showId: target.showId },
    clients,
  );
  return {
    /** disconnects every client (run() does it too, after the messages) */
    close: () => viewers.close(),
    async run(messages: number): Promise<Latency> {
      try {
        return await drive(
          viewers,
          messages,
          async (seq) => {
            // in turn: each member posts every fifth message, within the chat's per-member limit
            const sender = target.senders[seq % target.senders.length]!;
            const res = await fetch(`${target.postUrl}/live-chat/messages`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json',
                cookie: sender.cookie,
                'x-csrf-token': sender.token,
              },
              body: JSON.stringify({ body: `bench-${seq} What sticks are you using tonight?`, showId: target.showId }),
            });
            if (!res.ok) throw new Error(`posting a chat message: ${res.status} ${await res.text()}`);
            await res.arrayBuffer();
          },
          target.pids,
        );
      } finally {
        await viewers.close();
      }
    },
  };
}

/** The same with a bare `ws` server: clients, then `messages` frames like the app's NewMessage event. */
export async function bareWs(clients: number, messages: number): Promise<Latency> {
  const port = await freePort();
  const child = spawn(
    new URL('../node_modules/.bin/tsx', import.meta.url).pathname,
    [new URL('./bare-ws.ts', import.meta.url).pathname, String(port)],
    { stdio: 'ignore', detached: true },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    for (
      let i = 0;
      !(await fetch(url).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 300) throw new Error('the bare ws server did not start');
      await sleep(100);
    }
    const viewers = await spreadClients(
      { kind: 'ws', urls: [`ws://127.0.0.1:${port}/`], cookie: '', showId: 1 },
      clients,
    );
    try {
      return await drive(
        viewers,
        messages,
        async (seq) => {
          const message = {
            id: 100_000 + seq,
            name: 'Drummer 50',
            admin: false,
            avatar_url: null,
            profile_url: '/profile/drummer-50',
            body: `bench-${seq} What sticks are you using tonight?`,
            hearts: 0,
            hearted: false,
            created_at: new Date().toISOString(),
          };
          const frame = `42${JSON.stringify(['event', { channel: 'show.1', event: 'NewMessage', payload: { message } }])}`;
          const res = await fetch(`${url}/send`, { method: 'POST', body: frame });
          await res.arrayBuffer();
        },
        [descendant(child.pid!, 'bare-ws.ts')],
      );
    } finally {
      await viewers.close();
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
  }
}
