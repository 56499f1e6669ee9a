import type { RouteSchemas } from './types.ts';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomToken } from './lib/crypto.ts';
import { requestSerializer } from './lib/log-urls.ts';
import type { AppConfig } from './config.ts';
import { createDeps, type AppDeps } from './deps.ts';
import type { DatabaseHandle } from './db/client.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { utf8BodiesPlugin } from './plugins/utf8-bodies.ts';
import { sessionPlugin } from './plugins/session.ts';
import { hotReadsPlugin } from './plugins/hot-reads.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { addressLimitsPlugin } from './plugins/address-limits.ts';
import { accessPlugin, declaredAccess, registerWithAccess } from './plugins/access.ts';
import type { RouteAccess } from './lib/access.ts';
import { securityPlugin } from './plugins/security.ts';
import { socketPlugin } from './plugins/socket.ts';
import { registerApiDocs } from './plugins/api-docs.ts';
import { builtFilesPlugin } from './plugins/built-files.ts';
import { bareHtmlSource, builtHtmlSource, type HtmlSource } from './plugins/pages.ts';
import { modules } from './modules/index.ts';
import { seedDemo } from './demo/seed.ts';
import { createResponseSerializer } from './lib/response-serializer.ts';
import { fileResponse } from './lib/responses.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST_CLIENT = path.join(ROOT, 'dist/client');

export { IMMUTABLE } from './plugins/built-files.ts';

/** Largest upload body any route accepts (chunked uploads keep each request under it). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface BuildOptions {
  /** an already-open database (tests) */
  database?: DatabaseHandle;
}

export async function buildApp(config: AppConfig, opts: BuildOptions = {}): Promise<FastifyInstance> {
  // request ids for the logs: unique per process, cheap (no random bytes per request)
  const reqPrefix = randomToken(4);
  let reqCount = 0;
  // With TLS_CERT_FILE/TLS_KEY_FILE the server is Node's HTTP/2 server, answering HTTP/1.1 too
  // (allowHTTP1: WebSocket upgrades, clients without HTTP/2). Fastify's request and reply are the same API
  // over both, and nothing in the app reaches the raw server's HTTP/1-only calls (main.ts checks), so the
  // instance keeps the HTTP/1 server's types: the options go in as a plain object.
  const transport: object = config.tls
    ? { http2: true, https: { allowHTTP1: true, cert: config.tls.cert, key: config.tls.key } }
    : {};
  const app = Fastify({
    ...transport,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]'],
      serializers: { req: requestSerializer },
    },
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    genReqId: () => `${reqPrefix}${(++reqCount).toString(36)}`,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  const deps: AppDeps = await createDeps(config, {
    log: app.log,
    ...(opts.database ? { database: opts.database } : {}),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createResponseSerializer({ refuseUnlistedFields: config.env !== 'production' }));
  app.decorate('deps', deps);
  // every route as registered (method + url + access class): the proof suites check each one is
  // covered. A route without an access class stops the start here (plugins/access.ts).
  const routes: Array<{ method: string; url: string; access: RouteAccess; csrf: boolean; schema: RouteSchemas }> = [];
  app.decorate('routeList', routes);
  app.addHook('onRoute', function (route) {
    const access = declaredAccess(route, this);
    // one place to read it from, also for routes whose class came with their plugin
    route.config = { ...route.config, access };
    for (const method of [route.method].flat())
      if (method !== 'HEAD')
        routes.push({
          method,
          url: route.url,
          access,
          csrf: (route.config as { csrf?: boolean } | undefined)?.csrf !== false,
          schema: (route.schema ?? {}) as RouteSchemas,
        });
  });
  app.addHook('onClose', async () => deps.close());

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 1024 * 1024 });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 50, parts: 60, fieldSize: 100_000 },
    // files arrive as {filename, mimetype, data}; routes check them by content, never by name
    onFile: async (part) => {
      const data = await part.toBuffer();
      (part as unknown as { value: unknown }).value = { filename: part.filename, mimetype: part.mimetype, data };
    },
  });
  // after multipart: its check of text fields runs once @fastify/multipart has read them
  await app.register(utf8BodiesPlugin);
  await app.register(securityPlugin, { dev: config.viteDev });
  await app.register(errorsPlugin);
  await app.register(sessionPlugin);
  await app.register(hotReadsPlugin);
  await app.register(csrfPlugin);
  await app.register(accessPlugin);
  await app.register(addressLimitsPlugin);
  await app.register(socketPlugin);
  // the generated API reference at /api/docs: a development tool, never served in production
  if (config.env !== 'production') await registerApiDocs(app);

  // uploaded files: our own names only, served with their real type and a locked-down CSP; anyone
  // may read one by its address (the names are random)
  await registerWithAccess(
    app,
    'public',
    fastifyStatic,
    {
      root: deps.storage.root,
      prefix: `${deps.fileBaseUrl}/`,
      decorateReply: false,
      index: false,
      serveDotFiles: false,
      // listed in the API reference like every other route
      schemaHide: false,
      setHeaders: (res) => {
        res.header('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
        res.header('Content-Disposition', 'inline');
      },
    },
    fileResponse('An uploaded file (an avatar, a post attachment), as stored'),
  );

  app.decorate('htmlSource', bareHtmlSource as HtmlSource);
  if (config.serveClient) await registerClient(app, config);

  for (const mod of modules) await app.register(mod);
  // background jobs are worked by a process that serves; one built only to answer injected requests
  // (tests) queues them for whoever listens. Stopped in deps.close.
  app.addHook('onListen', async () => {
    await deps.jobs
      .start()
      .catch((err: unknown) => app.log.error({ err }, 'background jobs did not start; trying again shortly'));
  });

  if (config.demo) await seedDemo(deps);
  return app;
}

async function registerClient(app: FastifyInstance, config: AppConfig) {
  if (config.viteDev) {
    const { createServer } = await import('vite');
    const middie = (await import('@fastify/middie')).default;
    const { readFile } = await import('node:fs/promises');
    const vite = await createServer({
      configFile: path.join(ROOT, 'vite.config.ts'),
      server: { middlewareMode: true, hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
      appType: 'custom',
    });
    await app.register(middie);
    app.use(vite.middlewares);
    app.htmlSource = {
      async template(url) {
        return vite.transformIndexHtml(url, await readFile(path.join(ROOT, 'src/client/index.html'), 'utf8'));
      },
    };
    app.addHook('onClose', async () => vite.close());
    return;
  }
  // CLIENT_DIST: serve another build (benchmarks and measurements of a build made outside dist/client)
  const distDir = process.env.CLIENT_DIST ? path.resolve(process.env.CLIENT_DIST) : DIST_CLIENT;
  if (!existsSync(path.join(distDir, 'index.html'))) {
    throw new Error('The client is not built: run `npm run build` (npm start does it for you).');
  }
  // The build's files, from memory, sent as their brotli or gzip copy (vite.config.ts) to browsers that accept it.
  await app.register(builtFilesPlugin, { distDir, sourceMaps: config.env !== 'production' });
  app.htmlSource = builtHtmlSource(distDir);
}
