/**
 * Initial JavaScript of the public pages: each stays within INITIAL_JS_BUDGET (100 KB gzip), so a
 * first visit on a phone's connection is usable soon.
 *
 * `npm run build && npx tsx scripts/initial-js.ts [distDir]` prints, for each public page, the JavaScript
 * a fresh visit loads before it can be used: the entry chunk and its static imports, plus the page's
 * route chunk (src/client/app/router.tsx) and its static imports, and what the router loads beside it (the
 * query cache, `with`), each file counted once, gzip-compressed. Read from the build's manifest (dist/client/.vite/manifest.json). Exits 1 when a
 * page is over the budget. `initialJs()` is what tests/e2e/initial-js.spec.ts and the benchmark call.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const INITIAL_JS_BUDGET = 100 * 1024;

/** the signed-in page frame's menus and notifications (src/server/plugins/preload.ts MEMBER_CHROME_MODULE) */
const MEMBER_CHROME = 'app/layout/member-chrome.tsx';

/** A page's route: the module it loads (a key of the manifest: a path under src/client), with what the router loads beside it. */
export interface PublicPage {
  page: string;
  route: string;
  /** modules the router loads together with the route: `app/query.tsx` for a page that is not a `plainPage` */
  with?: string[];
}

/**
 * The public pages (src/client/app/router.tsx); tests/e2e/initial-js.spec.ts checks a real visit fetches
 * exactly these files. All five are `plainPage`s: none loads the query cache (TanStack Query).
 */
export const PUBLIC_PAGES: PublicPage[] = [
  { page: '/', route: 'app/pages/home.tsx' },
  { page: '/metronome', route: 'app/pages/metronome.tsx' },
  { page: '/diagnostic', route: 'app/pages/diagnostic.tsx' },
  { page: '/join', route: 'app/pages/checkout.tsx' },
  { page: '/mentorship/checkout', route: 'app/pages/mentorship-checkout.tsx' },
];

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface PageJs {
  page: string;
  /** the built files, entry first */
  files: string[];
  /** the page's own route chunk */
  routeFile: string;
  /** bytes on disk (minified) */
  raw: number;
  /** bytes gzip-compressed (level 9, as `vite build` reports), summed over the files */
  gzip: number;
  ok: boolean;
}

export const DEFAULT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/client');

/** The build's manifest (`distDir` = dist/client): each source module's built file and its imports. */
export function readManifest(distDir = DEFAULT_DIST): Manifest {
  return JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The manifest key of the HTML entry (index.html). */
function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!key) throw new Error('The manifest has no entry chunk.');
  return key;
}

/** A chunk and everything it imports statically (what the browser fetches before running it). */
function staticClosure(manifest: Manifest, key: string, into: Set<string>) {
  const chunk = manifest[key];
  if (!chunk)
    throw new Error(`${key} is not in the build's manifest: is it still a lazy route (src/client/app/router.tsx)?`);
  if (into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) staticClosure(manifest, dep, into);
}

/** The initial JavaScript of each public page in a build (`distDir` = dist/client). */
export function initialJs(distDir = DEFAULT_DIST, pages = PUBLIC_PAGES, budget = INITIAL_JS_BUDGET): PageJs[] {
  const manifest = readManifest(distDir);
  const entry = entryKey(manifest);
  const gz = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (file: string) => {
    let s = gz.get(file);
    if (!s) {
      const bytes = readFileSync(path.join(distDir, file));
      s = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
      gz.set(file, s);
    }
    return s;
  };
  return pages.map(({ page, route, with: extra = [] }) => {
    const files = new Set<string>();
    staticClosure(manifest, entry, files);
    if (!manifest[route]?.isDynamicEntry)
      throw new Error(`${route} (${page}) is not a lazily loaded route chunk in this build.`);
    staticClosure(manifest, route, files);
    for (const key of extra) staticClosure(manifest, key, files);
    const list = [...files].filter((f) => f.endsWith('.js'));
    const raw = list.reduce((n, f) => n + sizeOf(f).raw, 0);
    const gzip = list.reduce((n, f) => n + sizeOf(f).gzip, 0);
    return { page, files: list, routeFile: manifest[route]!.file, raw, gzip, ok: gzip <= budget };
  });
}

/**
 * The signed-in reading pages the benchmark's Lighthouse run opens besides the public ones: they load the
 * query cache and the signed-in page frame (menus, notifications). Not held to the public budget, but what
 * they load is checked (tests/e2e/initial-js.spec.ts).
 */
export const READING_PAGES: PublicPage[] = [
  { page: '/lessons/1', route: 'app/pages/learning.tsx', with: ['app/query.tsx', MEMBER_CHROME] },
  { page: '/forums/topic/1', route: 'app/pages/forums.tsx', with: ['app/query.tsx', MEMBER_CHROME] },
];

/** The npm packages whose code a built file holds, from its source map (`node_modules/<name>/…`). */
export function packagesIn(file: string, distDir = DEFAULT_DIST): Set<string> {
  const map = JSON.parse(readFileSync(path.join(distDir, `${file}.map`), 'utf8')) as { sources: string[] };
  const names = new Set<string>();
  for (const src of map.sources) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(src);
    if (m) names.add(m[1]!);
  }
  return names;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export function formatTable(rows: PageJs[], budget = INITIAL_JS_BUDGET): string {
  const lines = [`| page | files | minified | gzip | budget ${kb(budget)} |`, '|---|---:|---:|---:|---|'];
  for (const r of rows)
    lines.push(`| ${r.page} | ${r.files.length} | ${kb(r.raw)} | ${kb(r.gzip)} | ${r.ok ? 'ok' : 'OVER'} |`);
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const rows = initialJs(dir ? path.resolve(dir) : DEFAULT_DIST);
  console.log('Initial JavaScript per public page (entry + route chunk + their static imports, gzip -9)');
  console.log(formatTable(rows));
  if (process.argv.includes('--files')) for (const r of rows) console.log(`${r.page}: ${r.files.join(' ')}`);
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
}
