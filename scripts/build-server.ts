/**
 * `npm run build:server`: the server as one ES module, dist/server/main.js, which `npm start` runs with
 * plain `node`, to keep the server's memory small: running the TypeScript through tsx at run time keeps every
 * transformed module's source and source map in the process (tens of MB of strings); the bundle is
 * compiled once, here, and holds only the server's own code: packages stay in node_modules (imported
 * from the bundle as usual, native addons and PGlite's WASM included).
 *
 * The server's modules find files next to themselves through `import.meta.url` (the client build, the
 * migrations, the PDF fonts). In the bundle that would be the bundle's own URL, so each module's
 * `import.meta.url` is replaced by its source file's URL, computed relative to the bundle: the
 * project can move as a whole (dist/ next to src/ and drizzle/), as with tsx.
 *
 * Development (`npm run dev`) and the tests keep running the TypeScript directly.
 */
import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER_ENTRY = path.join(ROOT, 'src/server/main.ts');
export const SERVER_BUNDLE = path.join(ROOT, 'dist/server/main.js');

/** `import.meta.url` / `import.meta.dirname` / `import.meta.filename` of each project module: its own file's. */
function sourceLocation(outfile: string): Plugin {
  const outDir = path.dirname(outfile);
  return {
    name: 'source-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        let contents = await readFile(args.path, 'utf8');
        if (contents.includes('import.meta.')) {
          const rel = path.relative(outDir, args.path).split(path.sep).join('/');
          const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
          const paths = /import\.meta\.(?:filename|dirname)\b/.test(contents);
          contents = contents
            .replaceAll('import.meta.url', `(${url})`)
            .replaceAll('import.meta.filename', `__bbFileURLToPath(${url})`)
            .replaceAll('import.meta.dirname', `__bbDirname(__bbFileURLToPath(${url}))`);
          if (paths)
            contents = `import { fileURLToPath as __bbFileURLToPath } from 'node:url';\nimport { dirname as __bbDirname } from 'node:path';\n${contents}`;
        }
        return { contents, loader: 'ts' };
      });
    },
  };
}

/**
 * V8 keeps a module's source in memory for as long as the process runs, one byte per character when
 * every character is Latin-1 and two bytes per character for the whole source otherwise. esbuild writes
 * code as ASCII (its default charset escapes strings and identifiers), but copies the comments it keeps
 * as they are, and one "…" in a kept comment doubles the bundle's share of the heap. Those characters
 * are written as `\uXXXX` text: in a comment, where esbuild leaves them, that changes nothing else.
 */
async function keepLatin1(file: string): Promise<void> {
  const code = await readFile(file, 'utf8');
  const latin1 = code.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (latin1 !== code) await writeFile(file, latin1);
}

export async function buildServer(outfile = SERVER_BUNDLE): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  const result = await build({
    entryPoints: [SERVER_ENTRY],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // packages are imported from node_modules at run time, as they are under tsx
    packages: 'external',
    sourcemap: 'linked',
    // readable stack traces in logs without source maps at run time
    minify: false,
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [sourceLocation(outfile)],
    banner: { js: `// Built by scripts/build-server.ts from ${path.relative(ROOT, SERVER_ENTRY)}; do not edit.` },
  });
  // test support (tests/, *.test.ts) is for the tests only; a production import of it fails the build
  const testOnly = Object.keys(result.metafile.inputs).filter((f) => /(^|\/)tests\/|\.test\.tsx?$/.test(f));
  if (testOnly.length > 0) throw new Error(`The server bundle would include test-only files: ${testOnly.join(', ')}`);
  await keepLatin1(outfile);
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + (o.entryPoint ? o.bytes : 0), 0);
  return { seconds: (performance.now() - started) / 1000, bytes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { seconds, bytes } = await buildServer();
  console.log(`dist/server/main.js: ${(bytes / 1024).toFixed(0)} KB in ${seconds.toFixed(1)} s`);
}
