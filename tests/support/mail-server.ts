import { loadConfig } from '#server/config';
import { buildApp } from '#server/app';
import { isUniqueViolation } from '#server/lib/db-errors';
import { MAIL_KINDS, type MailKindName } from '#server/modules/mail/kinds';
import { MAIL_SAMPLES } from './mail-samples.ts';

/**
 * A real app process (as src/server/main.ts starts it) that, once it listens, asks for the mails named
 * by MAIL_PROBES ("probe-1,probe-2,…"): each to probe-N@mail.test with the key probe-N, as every
 * process of a deployment may ask for the same mail (a webhook seen twice, a reminder noticed by two
 * sweeps). With MAIL_EVERY_KIND=forward|backward it also asks for one mail of every kind (the samples
 * of tests/support/mail-samples.ts), each to a member of its own (every-<kind>@mail.test, made by
 * whichever process comes first) with the key every-<kind>, in that order through the kinds.
 * For tests/node/mail-processes.test.ts.
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

const everyKind = process.env.MAIL_EVERY_KIND;
if (everyKind) {
  const users = app.deps.services.users;
  /** the member a kind's mail goes to; both processes ask, the unique address lets one of them make it */
  const memberFor = async (kind: MailKindName) => {
    const email = `every-${kind}@mail.test`;
    const found = await users.findByEmail(email);
    if (found) return found;
    try {
      return await users.create({ name: `Every ${kind}`, email, passwordHash: 'never-signs-in' });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return (await users.findByEmail(email))!;
    }
  };
  const kinds = Object.keys(MAIL_KINDS) as MailKindName[];
  for (const kind of everyKind === 'backward' ? kinds.reverse() : kinds) {
    const member = await memberFor(kind);
    // the digest is off until a member turns it on
    if (kind === 'digest.weekly')
      await app.deps.mail.preferences.update(member.id, [{ topic: 'digest', in_app: false, email: true }]);
    await app.deps.mail.send(kind, member.id, MAIL_SAMPLES[kind] as never, { key: `every-${kind}` });
  }
}
