import { defineConfig, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import path from 'node:path';
import zlib from 'node:zlib';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * React Router ships one build with `X.displayName = "X"` after each component. Those assignments are
 * side effects to the bundler, so every component they name stays in the entry chunk, used or not
 * (NavLink, Form, the prefetch links, the RSC error handler: about 3 KB gzip). Names only help React's
 * devtools; a production build drops them (a public page's initial JavaScript: scripts/initial-js.ts).
 */
function dropReactRouterDisplayNames(): Rolldown.Plugin {
  return {
    name: 'drop-react-router-display-names',
    transform: {
      filter: { id: /node_modules[\\/]react-router[\\/]dist[\\/]/ },
      handler(code) {
        const out = code
          .replace(/^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm, '')
          .replace(/^(var [A-Za-z_$][\w$]* = )(React\d*\.forwardRef\()/gm, '$1/* @__PURE__ */ $2');
        return out === code ? null : { code: out, map: null };
      },
    },
  };
}

/**
 * A shared module (src/shared) holds a domain's wording, constants and rules beside its zod schemas; the
 * client imports it for the first and validates with few of the second. A schema is built by a chain of
 * calls (`z.string().trim().max(…)`, `base.extend({…})`) and the bundler cannot tell that such a chain
 * has no side effects (`manualPureFunctions: ['z']` covers `z.object(…)` alone), so every schema stayed
 * in each page that imported anything from the module, and with them zod (a page would build schemas
 * it never uses, and load zod for them). Building a schema has no
 * side effects: a top-level declaration whose value is such a chain is marked pure, so an unused one is
 * dropped.
 */
function pureSharedSchemas(): Rolldown.Plugin {
  return {
    name: 'pure-shared-schemas',
    transform: {
      filter: { id: /[\\/]src[\\/]shared[\\/][^\\/]+\.ts$/ },
      handler(code, id) {
        if (id.endsWith('.test.ts')) return null;
        // each chain that starts a schema (`z.string(`, `z.coerce.number(`, `idSchema.extend(`), nested ones
        // included: a dropped object schema's property chains would otherwise stay as statements. Not
        // `z.config(…)`, the one zod call made for its effect (its result is never used, so it would go).
        const out = code.replace(
          /(?<![\w$.])(?:z\s*\.(?!config\b)[\w$.]+|[A-Za-z_$][\w$]*Schema\s*\.[\w$]+)\(/g,
          '/* @__PURE__ */ $&',
        );
        return out === code ? null : { code: out, map: null };
      },
    },
  };
}

/**
 * React Router's package exports name only its development build, whose warnings and checks run on every
 * render (`ENABLE_DEV_WARNINGS = true`: a warning per route match, invariant messages); the package
 * also ships the same API built for production (dist/production, `ENABLE_DEV_WARNINGS = false`), which
 * React Router's own Vite plugin uses for production. The client build uses it too (less main-thread
 * time on the signed-in pages); the dev server and the tests keep the development build's warnings.
 */
const reactRouterProduction = path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs');

// The client lives in src/client; the built files go to dist/client and are served by Fastify.
export default defineConfig(({ command }) => ({
  root: 'src/client',
  resolve: { alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [] },
  publicDir: 'public',
  plugins: [
    react(),
    tailwindcss(),
    // next to each built script, style sheet and SVG a brotli (.br) and a gzip (.gz) copy, sent by
    // @fastify/static (`preCompressed`, src/server/app.ts) to browsers that accept them
    // (brotli quality 10: within 2 % of 11's size at half its time, so `npm start`'s build stays short)
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10 } }),
        'gzip',
      ],
      include: /\.(js|css|svg)$/,
      threshold: 1024,
    }),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // maps beside the files for developers and error trackers, named by no script: a production
    // server never serves them (src/server/plugins/built-files.ts)
    sourcemap: 'hidden',
    // dist/client/.vite/manifest.json: scripts/initial-js.ts reads what each page loads
    manifest: true,
    // every browser the app supports knows <link rel=modulepreload>: no polyfill in the entry chunk
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // A page that reads constants from a src/shared module must not pay for that module's zod
      // schemas it never uses: building a schema has no side effects, so unused ones are dropped. A
      // schema's arguments read the module's wording and limits (`FORUM_MESSAGES.titleRequired`); no code
      // here or in the client's packages reads a property for a getter's effect, so such reads do not
      // keep an unused schema (and with it zod) alive.
      treeshake: { manualPureFunctions: ['z'], propertyReadSideEffects: false },
      plugins: [dropReactRouterDisplayNames(), pureSharedSchemas()],
      output: {
        // Everything the entry imports statically runs on every visit, so it is one file: one request
        // and one compression window. Left to itself, the bundler splits out of the entry the modules
        // that a page loaded through another lazily loaded module (an area's route table, router.tsx's
        // routeArea) also uses (React, the icon helper, the button), as if that page could load
        // without the entry.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
        // A page's chunk keeps its name (`checkout-<hash>.js`, what a developer looks for in the network
        // panel). A chunk that several pages share (an icon, a form helper: most of the files) is named
        // by its hash alone: every chunk that imports it, and the entry's list of what each page needs
        // (for modulepreload), spell its name out in full.
        chunkFileNames: (chunk) => (chunk.isDynamicEntry ? 'assets/[name]-[hash].js' : 'assets/c-[hash].js'),
      },
    },
  },
}));
