/**
 * Chat fan-out: N Socket.IO clients, signed in, subscribed to one live show,
 * receive every chat message posted over HTTP; the delivery latency (from the POST leaving the
 * benchmark to each client's `event`) is collected for every message and client. The reference is a
 * bare `ws` server (bench/bare-ws.ts) sending a frame of the same size to the same number of clients.
 * All clients live in the benchmark process, for both, so their own cost is in both figures.
 * Messages are sent one at a time (the next after every client has the last one, or 5 s), at most one
 * every 500 ms, each sender in turn: the app's chat limits (5 per member and 30 per address per 10 s)
 * hold. The first WARMUP messages are not measured.
 */
import { spawn } from 'node:child_process';
import v8 from 'node:v8';
import vm from 'node:vm';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { freePort } from '#test/server';
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
  /** each message's slowest delivery, ms, in the order sent */
  slowestPerMessage: number[];
}

const SPACING_MS = 500;
const WAIT_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summarise(samples: number[], expected: number): Omit<Latency, 'cpuPerMessage' | 'slowestPerMessage'> {
  const sorted = samples.sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    delivered: sorted.length,
    expected,
  };
}

/** Open `count` connections, `batch` at a time. */
async function openAll<T>(count: number, open: (i: number) => Promise<T>, batch = 50): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += batch)
    out.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, j) => open(i + j)))));
  return out;
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
  clients: number,
  messages: number,
  send: (seq: number) => Promise<void>,
  received: Map<number, number[]>,
  sentAt: Map<number, number>,
  pids: number[],
): Promise<Latency> {
  const samples: number[] = [];
  const slowest: number[] = [];
  let cpu0: number[] = [];
  for (let seq = 0; seq < WARMUP + messages; seq++) {
    if (seq === WARMUP) {
      collectGarbage();
      await idleCores(0.8, 10_000);
      cpu0 = pids.map(cpuMs);
    }
    const started = performance.now();
    received.set(seq, []);
    sentAt.set(seq, started);
    await send(seq);
    while (received.get(seq)!.length < clients && performance.now() - started < WAIT_MS) await sleep(2);
    const delays = received.get(seq)!;
    if (seq >= WARMUP) {
      samples.push(...delays);
      slowest.push(Math.max(...delays));
    }
    const left = SPACING_MS - (performance.now() - started);
    if (left > 0) await sleep(left);
  }
  return {
    ...summarise(samples, clients * messages),
    cpuPerMessage: pids.map((p, i) => (cpuMs(p) - cpu0[i]!) / messages),
    slowestPerMessage: slowest,
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
  const received = new Map<number, number[]>();
  const sentAt = new Map<number, number>();
  const sockets: Socket[] = await openAll(clients, async (i) => {
    const s = connect(target.urls[i % target.urls.length]!, {
      transports: ['websocket'],
      extraHeaders: { cookie: target.reader.cookie },
      forceNew: true,
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
    const ack = await new Promise<{ ok: boolean }>((resolve) => s.emit('subscribe', `show.${target.showId}`, resolve));
    if (!ack.ok) throw new Error(`subscribe refused: ${JSON.stringify(ack)}`);
    s.on('event', (m: { event: string; payload: { message?: { body?: string } } }) => {
      const at = performance.now();
      if (m.event !== 'NewMessage') return;
      const seq = Number(/bench-(\d+)/.exec(m.payload.message?.body ?? '')?.[1]);
      received.get(seq)?.push(at - sentAt.get(seq)!);
    });
    return s;
  });
  return {
    /** disconnects every client (run() does it too, after the messages) */
    close() {
      for (const s of sockets) s.disconnect();
    },
    async run(messages: number): Promise<Latency> {
      try {
        return await drive(
          clients,
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
          received,
          sentAt,
          target.pids,
        );
      } finally {
        for (const s of sockets) s.disconnect();
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
    const received = new Map<number, number[]>();
    const sentAt = new Map<number, number>();
    const sockets = await openAll(clients, async () => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.on('message', (data: Buffer) => {
        const at = performance.now();
        // a Socket.IO event frame: `42[...]`, parsed like the client library does
        const [, m] = JSON.parse(data.toString('utf8').slice(2)) as [
          string,
          { payload: { message: { body: string } } },
        ];
        const seq = Number(/bench-(\d+)/.exec(m.payload.message.body)?.[1]);
        received.get(seq)?.push(at - sentAt.get(seq)!);
      });
      return ws;
    });
    try {
      return await drive(
        clients,
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
        received,
        sentAt,
        [descendant(child.pid!, 'bare-ws.ts')],
      );
    } finally {
      for (const ws of sockets) ws.terminate();
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
  }
}
