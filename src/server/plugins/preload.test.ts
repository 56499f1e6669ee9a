import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE } from '#server/app';
import { createTestApp, type TestApp } from '#test/api-harness';

/*
 * The built client as the server sends it, on a small build laid out as
 * `vite build` lays it out (index.html, hashed files under assets/ with their .br and .gz copies,
 * .vite/manifest.json): compressed, cached for good, and the page's own chunks named in the shell.
 * tests/e2e/page-load.spec.ts checks the same against the real build in a browser (the shell names every script a visit loads).
 */
const dist = mkdtempSync(path.join(tmpdir(), 'bb-dist-'));
const ENTRY = `console.log(${JSON.stringify('entry '.repeat(400))});`;
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="csrf-token" content="">
    <script type="application/json" id="page-config">{}</script>
    <title>Backbeat</title>
    <script type="module" crossorigin src="/assets/index-E1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-R1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-C1.css">
  </head>
  <body><div id="root"></div></body>
</html>`;
const SOURCE_MAP = JSON.stringify({ version: 3, sources: ['main.tsx'], mappings: '' });
const MANIFEST = {
  'index.html': {
    file: 'assets/index-E1.js',
    isEntry: true,
    imports: ['_react-R1.js'],
    css: ['assets/index-C1.css'],
    assets: ['assets/inter-greek-wght-normal-G1.woff2', 'assets/inter-latin-wght-normal-L1.woff2'],
  },
  '_react-R1.js': { file: 'assets/react-R1.js' },
  '_icon-I1.js': { file: 'assets/icon-I1.js', imports: ['_react-R1.js'] },
  '_cache-Q2.js': { file: 'assets/cache-Q2.js' },
  'app/pages/home.tsx': {
    file: 'assets/home-H1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_react-R1.js', '_icon-I1.js'],
  },
  'app/pages/learning.tsx': {
    file: 'assets/learning-L1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_icon-I1.js'],
  },
  'app/pages/mentorship.tsx': { file: 'assets/mentorship-M1.js', isDynamicEntry: true, imports: ['index.html'] },
  'app/pages/checkout.tsx': {
    file: 'assets/checkout-K1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_icon-I1.js'],
  },
  'components/payments/sandbox-card-fields.tsx': {
    file: 'assets/sandbox-card-fields-S1.js',
    isDynamicEntry: true,
    imports: ['index.html'],
  },
  'app/mentorship/routes.tsx': { file: 'assets/routes-A1.js', isDynamicEntry: true, imports: ['index.html'] },
  'app/admin/routes.tsx': { file: 'assets/routes-A2.js', isDynamicEntry: true, imports: ['index.html'] },
  'app/query.tsx': { file: 'assets/query-Q1.js', isDynamicEntry: true, imports: ['_cache-Q2.js', 'index.html'] },
  'app/layout/member-chrome.tsx': {
    file: 'assets/member-chrome-C1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_icon-I1.js'],
  },
};

let t: TestApp;
beforeAll(async () => {
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, '.vite'));
  writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(MANIFEST));
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  for (const chunk of Object.values(MANIFEST)) writeFileSync(path.join(dist, chunk.file), `/* ${chunk.file} */`);
  writeFileSync(path.join(dist, 'assets/index-E1.js'), ENTRY);
  writeFileSync(path.join(dist, 'assets/index-E1.js.br'), brotliCompressSync(ENTRY));
  writeFileSync(path.join(dist, 'assets/index-E1.js.gz'), gzipSync(ENTRY));
  writeFileSync(path.join(dist, 'assets/index-E1.js.map'), SOURCE_MAP);
  process.env.CLIENT_DIST = dist;
  t = await createTestApp({ serveClient: true, viteDev: false });
});
afterAll(async () => {
  delete process.env.CLIENT_DIST;
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

/** the modulepreload links the server added (the build's own, for the entry's imports, stay as they are) */
const preloads = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/(assets\/[^"]+)">/g)]
    .map((m) => m[1])
    .filter((f) => f !== 'assets/react-R1.js');
const fontPreload =
  '<link rel="preload" as="font" type="font/woff2" crossorigin href="/assets/inter-latin-wght-normal-L1.woff2">';

describe('the built files', () => {
  it('go to a browser that accepts brotli as brotli, to one that accepts only gzip as gzip, to others as they are', async () => {
    const br = await t.app.inject({ url: '/assets/index-E1.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(ENTRY);
    expect(br.rawPayload.length).toBeLessThan(ENTRY.length / 4);

    const gz = await t.app.inject({ url: '/assets/index-E1.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(ENTRY);

    const plain = await t.app.inject({ url: '/assets/index-E1.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(ENTRY);
  });

  it('under /assets/ (hashed names) are cached for a year as immutable; other files for an hour', async () => {
    const asset = await t.app.inject({ url: '/assets/home-H1.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe(IMMUTABLE);
    const favicon = await t.app.inject({ url: '/favicon.svg' });
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['cache-control']).toBe('public, max-age=3600');
    // the shell itself is never cached, nor served as a file
    expect((await t.app.inject({ url: '/', headers: { accept: 'text/html' } })).headers['cache-control']).toBe(
      'no-store',
    );
    expect((await t.app.inject({ url: '/index.html' })).statusCode).toBe(404);
  });

  it("are revalidated by ETag (304, no body), carry no session cookie, and keep the build's manifest to itself", async () => {
    // a first visit has no cookie yet: the page gets one, a file never does (a cacheable answer)
    const first = await t.app.inject({ url: '/favicon.svg' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.headers['content-type']).toBe('image/svg+xml');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({ url: '/favicon.svg', headers: { 'if-none-match': `"other", ${etag}` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const changed = await t.app.inject({ url: '/favicon.svg', headers: { 'if-none-match': '"other"' } });
    expect(changed.statusCode).toBe(200);
    // the brotli copy is its own representation, with its own validator
    const plainTag = String((await t.app.inject({ url: '/assets/index-E1.js' })).headers.etag);
    const brTag = String(
      (await t.app.inject({ url: '/assets/index-E1.js', headers: { 'accept-encoding': 'br' } })).headers.etag,
    );
    expect(brTag).not.toBe(plainTag);
    expect(
      (await t.app.inject({ url: '/assets/index-E1.js', headers: { 'accept-encoding': 'br', 'if-none-match': brTag } }))
        .statusCode,
    ).toBe(304);
    expect(
      (
        await t.app.inject({
          url: '/assets/index-E1.js',
          headers: { 'accept-encoding': 'br', 'if-none-match': plainTag },
        })
      ).statusCode,
    ).toBe(200);
    // source maps, for developer tools
    const map = await t.app.inject({ url: '/assets/index-E1.js.map' });
    expect(map.statusCode).toBe(200);
    expect(map.headers['content-type']).toMatch(/^application\/json/);
    expect(map.body).toBe(SOURCE_MAP);
    for (const url of ['/.vite/manifest.json', '/assets/index-E1.js.br', '/assets/missing.js'])
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
  });
});

describe('the HTML shell', () => {
  it("names the page's route chunk and its imports (not the entry's), and the text font", async () => {
    const c = await t.client();
    const home = await c.page('/');
    expect(preloads(home.body)).toEqual(['assets/home-H1.js', 'assets/icon-I1.js']);
    expect(home.body).toContain(fontPreload);
    // before </head>, after what the build put there
    expect(home.body.indexOf(fontPreload)).toBeGreaterThan(home.body.indexOf('index-C1.css'));
    expect(home.body.indexOf(fontPreload)).toBeLessThan(home.body.indexOf('</head>'));
    expect(home.body).not.toContain('theme-dark');
  });

  it("adds the query cache beside a page that uses server data, and a member's menus for a member", async () => {
    const { client } = await t.signedIn();
    const lesson = await client.page('/lessons/7?tab=notes');
    expect(lesson.statusCode).toBe(200);
    expect(preloads(lesson.body)).toEqual([
      'assets/learning-L1.js',
      'assets/icon-I1.js',
      'assets/query-Q1.js',
      'assets/cache-Q2.js',
      'assets/member-chrome-C1.js',
    ]);
  });

  it('names no route on an error page, and starts the mentorship area dark', async () => {
    const c = await t.client();
    const missing = await c.page('/no/such/page');
    expect(missing.statusCode).toBe(404);
    expect(preloads(missing.body)).toEqual([]);
    expect(missing.body).not.toContain('theme-dark');
    const { client } = await t.signedIn({ entitlements: ['mentorship'] });
    // an address in the area that names no page: its not-found page, in the area's dark frame
    const missingInArea = await client.page('/mentorship/no/such/page');
    expect(missingInArea.statusCode).toBe(404);
    expect(preloads(missingInArea.body)).toEqual(['assets/member-chrome-C1.js', 'assets/icon-I1.js']);
    expect(missingInArea.body).toContain('<html lang="en" class="theme-dark">');
    const area = await client.page('/mentorship');
    expect(area.statusCode).toBe(200);
    expect(area.body).toContain('<html lang="en" class="theme-dark">');
    expect(preloads(area.body)).toEqual([
      'assets/mentorship-M1.js',
      'assets/query-Q1.js',
      'assets/cache-Q2.js',
      'assets/routes-A1.js',
      'assets/member-chrome-C1.js',
      'assets/icon-I1.js',
    ]);
  });

  it("names the console's route table on an admin page, which then loads the page itself", async () => {
    const { client } = await t.signedIn({ role: 'admin' });
    for (const url of ['/admin', '/admin/orders']) {
      const page = await client.page(url);
      expect(page.statusCode, url).toBe(200);
      expect(preloads(page.body), url).toEqual([
        'assets/routes-A2.js',
        'assets/query-Q1.js',
        'assets/cache-Q2.js',
        'assets/member-chrome-C1.js',
        'assets/icon-I1.js',
      ]);
    }
  });

  it("names the sandbox's card fields beside a checkout page whose card form shows at once, on the card sandbox", async () => {
    expect(t.app.deps.config.payments.card).toBe('sandbox');
    const join = await (await t.client()).page('/join');
    expect(join.statusCode).toBe(200);
    expect(preloads(join.body)).toEqual([
      'assets/checkout-K1.js',
      'assets/icon-I1.js',
      'assets/sandbox-card-fields-S1.js',
    ]);
  });
});
