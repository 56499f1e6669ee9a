import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pageEncoding } from './pages.ts';

/**
 * The client build's files (dist/client), answered from memory.
 *
 * A page asks for its entry, its route's chunks and its style sheet at once: 60 requests on a
 * signed-in thread page. Served from disk, each one would cost a `stat`, an `open`, a `read` and a
 * `close` on libuv's four-thread pool, and the answers would arrive together only once the pool had
 * worked through them all (figures: docs/benchmarks.md). The build is a few MB without maps and never changes while
 * the server runs, so it is read once at start-up: each answer is a buffer with headers worked out
 * in advance. Source maps (only developer tools ask for them) are read from disk when asked for, and
 * never served by a production server: they would publish the whole client source (docs/security.md).
 * The build does not name them in its scripts (vite.config.ts, `sourcemap: 'hidden'`), so no browser
 * asks for them in production.
 *
 * - the brotli (`.br`) and gzip (`.gz`) copies made at build time (vite.config.ts) go to browsers that
 *   accept them (`Vary: Accept-Encoding`);
 * - names under `assets/` carry a hash of their content: cached for a year as immutable; the rest
 *   (favicon, images, metronome sounds) for an hour, revalidated by ETag;
 * - `index.html` is the shell's template (plugins/pages.ts), never a file; `.vite/` is the build's own.
 */

/** Cache-Control of the build's hashed files (/assets/*): their names change whenever their content does. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const HOUR = 'public, max-age=3600';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.txt': 'text/plain; charset=utf-8',
};

interface BuiltFile {
  /** the address: `/` and the path under the build, with forward slashes */
  url: string;
  type: string;
  cacheControl: string;
  etag: string;
  /** null: read from disk when asked for (source maps) */
  body: Buffer | null;
  file: string;
  br?: Buffer;
  gzip?: Buffer;
}

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '.vite' && dir === base ? [] : walk(full, base);
    return entry.isFile() ? [path.relative(base, full)] : [];
  });
}

function statTag(file: string): string {
  const { size, mtimeMs } = statSync(file);
  return `"${size.toString(36)}-${Math.round(mtimeMs).toString(36)}"`;
}

/** Every file of a build, read once (its compressed copies beside it). */
function readBuild(distDir: string, sourceMaps: boolean): BuiltFile[] {
  const names = walk(distDir).filter((name) => sourceMaps || !name.endsWith('.map'));
  const present = new Set(names);
  return names
    .filter((name) => name !== 'index.html' && !name.endsWith('.br') && !name.endsWith('.gz'))
    .map((name) => {
      const file = path.join(distDir, name);
      const url = `/${name.split(path.sep).join('/')}`;
      const ext = path.extname(name).toLowerCase();
      const lazy = ext === '.map';
      const body = lazy ? null : readFileSync(file);
      // a kept file's validator is its content's hash; a source map's, its size and time (it is not read here)
      const etag = body ? `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"` : statTag(file);
      const copy = (suffix: string) => (!lazy && present.has(name + suffix) ? readFileSync(file + suffix) : undefined);
      return {
        url,
        type: TYPES[ext] ?? 'application/octet-stream',
        cacheControl: url.startsWith('/assets/') ? IMMUTABLE : HOUR,
        etag,
        body,
        file,
        br: copy('.br'),
        gzip: copy('.gz'),
      };
    });
}

/** `If-None-Match` names this ETag (a list, weak or strong, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

export const builtFilesPlugin = fp(async (app: FastifyInstance, opts: { distDir: string; sourceMaps: boolean }) => {
  for (const f of readBuild(opts.distDir, opts.sourceMaps)) {
    // each coding is its own representation, with its own validator
    const copies = {
      br: f.br && { body: f.br, etag: `${f.etag.slice(0, -1)}-br"` },
      gzip: f.gzip && { body: f.gzip, etag: `${f.etag.slice(0, -1)}-gzip"` },
    };
    const compressed = Boolean(f.br ?? f.gzip);
    app.get(f.url, { config: { access: 'public', builtFile: true } }, async (request, reply) => {
      const coding = compressed ? pageEncoding(request.headers['accept-encoding']) : null;
      const copy = coding ? copies[coding] : undefined;
      const etag = copy?.etag ?? f.etag;
      reply.header('Content-Type', f.type).header('Cache-Control', f.cacheControl).header('ETag', etag);
      if (compressed) reply.header('Vary', 'Accept-Encoding');
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      if (copy && coding) return reply.header('Content-Encoding', coding).send(copy.body);
      return reply.send(f.body ?? (await readFile(f.file)));
    });
  }
});
