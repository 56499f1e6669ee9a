import { loadConfig, productionWarnings } from './config.ts';
import { buildApp } from './app.ts';
import { trackHttpsConnections } from './lib/https-connections.ts';

const config = loadConfig();
const app = await buildApp(config);
// HTTPS (HTTP/2 answering HTTP/1.1 too): its connections, which the HTTP/2 server cannot close when idle
const https = config.tls ? trackHttpsConnections(app.server) : null;

/**
 * Graceful shutdown: stop accepting (new requests get 503, so a load balancer retries elsewhere),
 * finish the requests in flight, close each kept-alive connection as soon as it falls idle (it would
 * otherwise hold the process for the keep-alive timeout); sockets are dropped first so that clients
 * reconnect to another process (plugins/socket.ts). Anything still open after 10 s is cut.
 */
const shutdown = async (signal: string) => {
  app.log.info({ signal }, 'shutting down');
  const sweep = setInterval(() => (https ? https.closeIdle() : app.server.closeIdleConnections()), 100);
  const force = setTimeout(() => (https ? https.closeAll() : app.server.closeAllConnections()), 10_000);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(force);
  }
  process.exit(0);
};
// a second signal (a supervisor repeating itself, or tsx relaying the one the group got) must not
// kill the process half-way through shutting down
let shuttingDown = false;
const onSignal = (signal: string) => {
  if (shuttingDown) return;
  shuttingDown = true;
  void shutdown(signal);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

await app.listen({ port: config.port, host: config.host });
app.log.info(
  {
    url: config.appUrl,
    database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})`,
    redis: app.deps.redisMonitor ? (app.deps.redisMonitor.up ? 'up' : 'down') : 'off',
    demo: config.demo,
  },
  'Backbeat is ready',
);
for (const warning of productionWarnings(config)) app.log.warn(warning);

/*
 * Starting allocates far more than the running app keeps: the migrations, the demo content on a first
 * start, every route's schemas compiled. V8 keeps the pages that garbage filled, and with no traffic it
 * has no reason to collect, so an idle academy would hold them for good. One compacting collection once
 * the app is listening hands them back to the system (the start script's `--expose-gc` provides `gc`;
 * docs/decisions/0015-server-bundle.md). It runs as a task of its own, not inside a request.
 */
void globalThis.gc?.({ type: 'major', flavor: 'last-resort', execution: 'async' });
