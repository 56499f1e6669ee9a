import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The client lives in src/client; the built files go to dist/client and are served by Fastify.
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
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
    },
  },
});
