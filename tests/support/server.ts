import { spawn, type ChildProcess } from 'node:child_process';
import { get as httpsGet } from 'node:https';
import { createServer } from 'node:net';
import path from 'node:path';

/** Real app processes for the browser suite and the multi-process test. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * How many requests for `url` the server has taken on, from its request log (a server started with
 * `LOG_LEVEL: 'info'` logs each as it arrives, before its body).
 */
export function requestsTaken(server: ServerProcess, method: string, url: string): number {
  return server
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"incoming request"'))
    .filter((line) => line.includes(`"method":"${method}","url":"${url}"`)).length;
}

/** /healthz over HTTPS, trusting `ca` (fetch cannot be given a certificate to trust) */
function healthyOverTls(url: string, ca: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpsGet(`${url}/healthz`, { ca }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.once('error', () => resolve(false));
  });
}

/**
 * Start a real app process and wait until /healthz answers. `command`: what runs it (default: the
 * TypeScript through tsx; the bench runs the production bundle, bench/proc.ts). `tls.ca`: the app
 * serves HTTPS (env TLS_CERT_FILE/TLS_KEY_FILE) with this certificate, at https://localhost:port.
 */
export async function startServer(
  env: Record<string, string>,
  timeoutMs = 90_000,
  command?: [file: string, args: string[]],
  tls?: { ca: Buffer },
): Promise<ServerProcess> {
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, '../..');
  const [file, args] = command ?? [path.join(root, 'node_modules/.bin/tsx'), ['src/server/main.ts']];
  const child = spawn(file, args, {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const url = tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${out}`);
    if (tls) {
      if (await healthyOverTls(url, tls.ca)) break;
    } else {
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`The server did not become healthy within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
