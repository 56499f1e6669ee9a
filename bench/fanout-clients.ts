/**
 * A worker thread of the fan-out benchmark holding a share of the viewers: Socket.IO clients of the
 * app (signed in, subscribed to the show's channel) or plain WebSocket clients of the bare reference.
 * One thread cannot receive every frame of a large show in time, so its own delay would be counted as the server's.
 * Each arrival is stamped on a clock shared by every thread of the process (timeOrigin + now), and a
 * message's stamps go to the main thread once every client of this thread has it, or when asked.
 *
 * In: workerData (ClientsJob); messages 'flush' (seq) and 'close'. Out: ready | error | got | closed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';

export interface ClientsJob {
  kind: 'app' | 'ws';
  /** app: base URLs, clients spread over them in turn; ws: the one ws:// address */
  urls: string[];
  /** the reader's cookie every app client carries */
  cookie: string;
  showId: number;
  count: number;
  /** this thread's first client's number among all, so that clients keep the same URL split */
  offset: number;
}
export type FromClients =
  | { type: 'ready' }
  | { type: 'error'; message: string }
  | { type: 'got'; seq: number; at: number[] }
  | { type: 'closed' };
export type ToClients = { type: 'flush'; seq: number } | { type: 'close' };

const job = workerData as ClientsJob;
const port = parentPort!;
const stamp = () => performance.timeOrigin + performance.now();
const arrivals = new Map<number, number[]>();
const reported = new Set<number>();

function arrived(body: string | undefined, at: number) {
  const seq = Number(/bench-(\d+)/.exec(body ?? '')?.[1]);
  if (!Number.isFinite(seq) || reported.has(seq)) return;
  const list = arrivals.get(seq) ?? [];
  list.push(at);
  arrivals.set(seq, list);
  if (list.length === job.count) report(seq);
}

function report(seq: number) {
  reported.add(seq);
  port.postMessage({ type: 'got', seq, at: arrivals.get(seq) ?? [] } satisfies FromClients);
  arrivals.delete(seq);
}

async function openApp(i: number): Promise<() => void> {
  const s: Socket = connect(job.urls[(job.offset + i) % job.urls.length]!, {
    transports: ['websocket'],
    extraHeaders: { cookie: job.cookie },
    forceNew: true,
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  const ack = await new Promise<{ ok: boolean }>((resolve) => s.emit('subscribe', `show.${job.showId}`, resolve));
  if (!ack.ok) throw new Error(`subscribe refused: ${JSON.stringify(ack)}`);
  s.on('event', (m: { event: string; payload: { message?: { body?: string } } }) => {
    const at = stamp();
    if (m.event === 'NewMessage') arrived(m.payload.message?.body, at);
  });
  return () => s.disconnect();
}

async function openWs(): Promise<() => void> {
  const ws = new WebSocket(job.urls[0]!);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.on('message', (data: Buffer) => {
    const at = stamp();
    // a Socket.IO event frame, `42[...]`, parsed as the client library does
    const [, m] = JSON.parse(data.toString('utf8').slice(2)) as [string, { payload: { message: { body: string } } }];
    arrived(m.payload.message.body, at);
  });
  return () => ws.terminate();
}

const closers: (() => void)[] = [];
try {
  const BATCH = 50;
  for (let i = 0; i < job.count; i += BATCH)
    closers.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(BATCH, job.count - i) }, (_, j) =>
          job.kind === 'app' ? openApp(i + j) : openWs(),
        ),
      )),
    );
  port.postMessage({ type: 'ready' } satisfies FromClients);
} catch (err) {
  port.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) } satisfies FromClients);
}
port.on('message', (m: ToClients) => {
  if (m.type === 'flush') {
    if (!reported.has(m.seq)) report(m.seq);
    return;
  }
  for (const close of closers) close();
  port.postMessage({ type: 'closed' } satisfies FromClients);
});
