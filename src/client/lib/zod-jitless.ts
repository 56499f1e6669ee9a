/*
 * zod compiles object parsers with `new Function` when it may, and finds out by trying it once. Under
 * the app's Content-Security-Policy (no 'unsafe-eval', src/server/plugins/security.ts) that probe is
 * refused and reported as a CSP violation (a DevTools issue; Lighthouse best practices,
 * `inspector-issues`), although zod catches it. Jitless parsing never probes. Imported first by
 * src/client/main.tsx, before any module builds a schema.
 *
 * Set on zod's global configuration object (`globalThis.__zod_globalConfig`, which zod/v4/core's
 * `config()` writes to and every zod copy reads) rather than by importing zod: the entry chunk carries
 * no zod, so pages without forms load none (issue 9: a public page's initial JavaScript ≤ 100 KB gzip).
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;

export {};
