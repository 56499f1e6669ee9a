import { loadConfig } from '#server/config';
import { buildApp } from '#server/app';

/**
 * A real app process (as src/server/main.ts starts it) that, once it listens, asks for the mails named
 * by MAIL_PROBES ("probe-1,probe-2,…"): each to probe-N@mail.test with the key probe-N, as every
 * process of a deployment may ask for the same mail (a webhook seen twice, a reminder noticed by two
 * sweeps). For tests/node/mail-processes.test.ts.
 */
const config = loadConfig();
const app = await buildApp(config);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void app.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await app.listen({ port: config.port, host: config.host });
for (const key of (process.env.MAIL_PROBES ?? '').split(',').filter(Boolean))
  await app.deps.mail.send('account.welcome', { address: `${key}@mail.test`, name: key }, {}, { key });
