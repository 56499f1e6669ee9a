import { defineConfig, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import zlib from 'node:zlib';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * React Router ships one build with `X.displayName = "X"` after each component. Those assignments are
 * side effects to the bundler, so every component they name stays in the entry chunk, used or not
 * (NavLink, Form, the prefetch links, the RSC error handler: about 3 KB gzip). Names only help React's
 * devtools; a production build drops them (issue 9: initial JavaScript of a public page).
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

// The client lives in src/client; the built files go to dist/client and are served by Fastify.
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [
    react(),
    tailwindcss(),
    // next to each built script, style sheet and SVG a brotli (.br) and a gzip (.gz) copy, sent by
    // @fastify/static (`preCompressed`, src/server/app.ts) to browsers that accept them (issue 9: Lighthouse)
    // (brotli quality 10: within 2 % of 11's size at half its time, so `npm start`'s build stays short)
    compression({
      algorithms: [defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10 } }), 'gzip'],
      include: /\.(js|css|svg)$/,
      threshold: 1024,
    }),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // dist/client/.vite/manifest.json: scripts/initial-js.ts reads what each page loads (issue 9)
    manifest: true,
    // every browser the app supports knows <link rel=modulepreload>: no polyfill in the entry chunk
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // A page that reads constants from a src/shared module must not pay for that module's zod
      // schemas it never uses: building a schema has no side effects, so unused ones are dropped.
      treeshake: { manualPureFunctions: ['z'] },
      plugins: [dropReactRouterDisplayNames()],
    },
  },
});
