import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './server.ts';

/** the redis-server binary on this machine, or null */
export const REDIS_SERVER: string | null = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server']).toString().trim() || null;
  } catch {
    return null;
  }
})();

export interface PrivateRedis {
  url: string;
  start(): Promise<void>;
  /** SIGTERM; with `persist` Redis writes its data first and loads it again on the next start */
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: connections stay open and nothing is answered meanwhile */
  pause(): void;
  resume(): void;
  /** stop, and remove its directory */
  dispose(): Promise<void>;
}

/**
 * A redis-server of its own on a free port (never CI's shared one), started unless `started: false`.
 * `persist`: it keeps its data across a stop and start, as a Redis with snapshots does.
 */
export async function privateRedis(opts: { persist?: boolean; started?: boolean } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'bb-redis-'));
  const save = opts.persist ? ['--save', '3600 1', '--dbfilename', 'dump.rdb'] : ['--save', ''];
  let child: ChildProcess | null = null;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const c = spawn(
        REDIS_SERVER!,
        ['--port', String(port), '--bind', '127.0.0.1', ...save, '--appendonly', 'no', '--dir', dir],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = c;
      await new Promise<void>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
        c.stdout!.on('data', (d) => {
          out += d;
          if (/Ready to accept connections/i.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        });
        c.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${out}`)));
      });
    },
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async dispose() {
      redis.resume();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (opts.started !== false) await redis.start();
  return redis;
}

/** A TCP listener that accepts connections and never answers (a hung Redis, a wrong port behind a proxy). */
export async function silentListener(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
