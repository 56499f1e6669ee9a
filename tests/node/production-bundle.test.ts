import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_TEMPLATE } from '#shared/songmapper';
import { pngBytes } from '#test/images';
import { buildServer } from '../../scripts/build-server.ts';
import { appCommand } from '../../bench/proc.ts';
import { startServer, type ServerProcess } from '#test/server';
import { BrowserSession } from '#test/browser-session';

/**
 * The server as `npm start` runs it: the bundle scripts/build-server.ts
 * writes, run by plain node through the start script's launcher (scripts/start.sh, read by
 * bench/proc.ts, the same command the benchmark measures), on a fresh embedded database with the demo
 * content. It must find its files (migrations, client build, PDF fonts) from the bundle, serve pages
 * and the API, and load the heavy libraries that only rare paths need (sharp's libvips, pdfkit) when
 * they are used.
 * The bundle is built into a folder of its own (.tmp/) so that a running `npm start` is not touched.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
const outDir = mkdtempSync(path.join(ROOT, '.tmp', 'bundle-test-'));
const bundle = path.join(outDir, 'server', 'main.js');
const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-bundle-'));
let server: ServerProcess | undefined;

beforeAll(async () => {
  await buildServer(bundle);
  const [node, args] = appCommand();
  expect(args.at(-1)).toBe(path.join(ROOT, 'dist/server/main.js'));
  server = await startServer(
    {
      NODE_ENV: 'production',
      SERVE_CLIENT: '0',
      DEMO: '1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      TRUST_PROXY: '0',
    },
    90_000,
    [node, [...args.slice(0, -1), bundle]],
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

it("runs under plain node with the launcher's heap limit, not through tsx", () => {
  const pid = server!.child.pid!;
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  expect(cmdline).toContain(bundle);
  expect(cmdline).toContain('--max-old-space-size=1024');
  expect(cmdline.join(' ')).not.toContain('tsx');
});

it("points each module's own location at its source file, so files next to the sources are found", () => {
  const code = readFileSync(bundle, 'utf8');
  const urls = [...code.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1]!);
  // db/client.ts (migrations), app.ts (the client build), lib/pdf-text.ts (the PDFs' fonts) at least
  expect(urls).toEqual(
    expect.arrayContaining([
      '../../../src/server/db/client.ts',
      '../../../src/server/app.ts',
      '../../../src/server/lib/pdf-text.ts',
    ]),
  );
  for (const u of urls) expect(existsSync(path.resolve(path.dirname(bundle), u)), u).toBe(true);
  // no relative or #server/#shared imports left: the project's code is all inside
  expect(code).not.toMatch(/from ["'](\.{1,2}\/|#)/);
});

it('is Latin-1 throughout, so V8 keeps its source at one byte per character', () => {
  const code = readFileSync(bundle, 'utf8');
  expect(code.match(/[\u0100-\uffff]/g) ?? []).toEqual([]);
});

it('imports the Redis libraries only when a Redis address is configured, and the API reference never', () => {
  const code = readFileSync(bundle, 'utf8');
  const staticImports = [...code.matchAll(/^import [^;]*? from "([^"]+)";$/gms)].map((m) => m[1]);
  expect(staticImports).toContain('socket.io');
  for (const onDemand of ['redis', '@socket.io/redis-adapter', '@fastify/swagger', '@fastify/swagger-ui']) {
    expect(staticImports).not.toContain(onDemand);
    expect(code).toContain(`import("${onDemand}")`);
  }
});

it('serves /healthz, the page shell and the API on the migrated, seeded database', async () => {
  const base = server!.url;
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<div id="root"></div>');
  const me = await BrowserSession.open(base);
  expect((await me.signIn('member@demo.test', 'drumsdemo1')).status).toBe(200);
  const user = (await (await me.get('/api/me')).json()) as { user: { email?: string; name: string } };
  expect(user.user.name).toBeTruthy();
});

it('loads libvips (sharp) only when an image is first processed; song PDFs and image uploads work from the bundle', async () => {
  const maps = () => readFileSync(`/proc/${server!.child.pid!}/maps`, 'utf8');
  expect(maps()).not.toMatch(/libvips/);
  const me = await BrowserSession.open(server!.url);
  expect((await me.signIn('member@demo.test', 'drumsdemo1')).status).toBe(200);
  const saved = await me.post('/songmapper', { song: { ...DEFAULT_TEMPLATE, title: 'Back in Black', bpm: '94' } });
  expect(saved.status).toBe(200);
  const { id } = (await saved.json()) as { id: string };
  const pdf = await fetch(`${server!.url}/songmapper/pdf/${id}`);
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  expect(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  const form = new FormData();
  form.append('avatar', new Blob([await pngBytes()], { type: 'image/png' }), 'me.png');
  const upload = await fetch(`${server!.url}/account/avatar/upload`, {
    method: 'POST',
    headers: { cookie: me.cookie, 'x-csrf-token': me.token, accept: 'application/json' },
    body: form,
  });
  expect(upload.status).toBe(200);
  const { avatar } = (await upload.json()) as { avatar: string };
  expect((await fetch(new URL(avatar, server!.url))).headers.get('content-type')).toBe('image/png');
  expect(maps()).toMatch(/libvips/);
});
