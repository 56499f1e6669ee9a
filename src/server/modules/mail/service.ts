import { eq, sql } from 'drizzle-orm';
import { z } from '#shared/zod';
import { notificationTopic } from '#shared/mail';
import type { AppConfig } from '#server/config';
import type { Database } from '#server/db/client';
import { mailMessages } from '#server/db/schema/index';
import { randomToken } from '#server/lib/crypto';
import { PermanentJobError, type Jobs } from '#server/lib/jobs';
import type { MailKind } from './kind.ts';
import { MailDeliveryError, type Mailer } from '#server/lib/mailer';
import type { UserRow, UserService } from '#server/modules/users/index';
import { MAIL_KINDS, type MailKindName } from './kinds.ts';
import type { DataOf, MailRecipient, MailSendOptions } from './types.ts';
import { createPreferences } from './preferences.ts';
import { unsubscribeTokens } from './unsubscribe.ts';
import { renderMailFor, type RenderedMail } from './render.ts';
import { sweepBillingMail } from './billing-sweep.ts';

export { MAIL_KINDS, type MailKindName } from './kinds.ts';

/** the recurring job that queues billing mail from the billing records (billing-sweep.ts), every minute */
export const BILLING_SWEEP_JOB = 'mail.billing-sweep';
export const BILLING_SWEEP_CRON = '* * * * *';

/** the background job that delivers one mail (its row in mail_messages) */
export const MAIL_JOB = 'mail.deliver';

export type { MailRecipient, MailRequest, MailSender, MailSendOptions } from './types.ts';
export type { RenderedMail } from './render.ts';

interface MailDeps {
  db: Database;
  jobs: Jobs;
  mailer: Mailer;
  users: UserService;
  config: AppConfig;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * The mail module's front door (docs/mail.md): `send(kind, to, data)` records the mail and queues the
 * job that delivers it, and returns at once; the job renders the React template to HTML and plain
 * text and hands it to nodemailer (SMTP_URL), or keeps it for admins (no SMTP_URL). A temporary
 * failure (an SMTP 4xx answer, no connection) is retried with a growing wait; a permanent one (5xx) is
 * kept as failed at once. A mail's row is delivered once, whichever process and try takes its job.
 */
export function createMail(deps: MailDeps) {
  const { db, config } = deps;
  const preferences = createPreferences(db);
  const tokens = unsubscribeTokens(config.mail.unsubscribeSecret);
  const kinds = MAIL_KINDS as Record<string, MailKind>;

  const renderMail = (kindName: string, data: unknown, to: { address: string; name: string; user: UserRow | null }) =>
    renderMailFor(config, tokens, kindName, data, {
      address: to.address,
      name: to.name,
      userId: to.user?.id ?? null,
      timeZone: to.user?.timezone ?? null,
    });

  const done = (id: number, status: 'sent' | 'kept' | 'skipped' | 'failed', error: string | null, wipe = false) =>
    db
      .update(mailMessages)
      .set({ status, error, doneAt: new Date(), ...(wipe ? { data: {} } : {}) })
      .where(eq(mailMessages.id, id));

  async function deliver(id: number) {
    const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, id)).limit(1);
    // delivered already (a job run again after its process died mid-way, or a duplicate): never twice
    if (!row || row.status !== 'queued') return;
    await db
      .update(mailMessages)
      .set({ tries: sql`${mailMessages.tries} + 1` })
      .where(eq(mailMessages.id, id));
    const kind = kinds[row.kind];
    if (!kind) return done(id, 'failed', `No mail is defined as "${row.kind}".`);
    const user = row.userId !== null ? ((await deps.users.findById(row.userId)) ?? null) : null;
    const topic = notificationTopic(kind.topic)!;
    if (row.userId !== null && !user) return done(id, 'skipped', 'The member no longer exists.');
    if (user && !topic.essential) {
      if (user.suspendedAt) return done(id, 'skipped', 'The account is suspended.');
      if (!(await preferences.allows(user.id, kind.topic, 'email')))
        return done(id, 'skipped', 'The member turned these e-mails off.');
    }
    const address = row.address ?? user?.email;
    if (!address) return done(id, 'failed', 'The mail has no address.');
    const name = user?.name ?? ((row.data as { name?: unknown }).name as string | undefined) ?? 'there';
    const mail = await renderMail(row.kind, row.data, { address, name, user });
    try {
      await deps.mailer.send(mail);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof MailDeliveryError && err.permanent) {
        await done(id, 'failed', message);
        throw new PermanentJobError(message);
      }
      await db.update(mailMessages).set({ error: message }).where(eq(mailMessages.id, id));
      throw err;
    }
    await done(id, config.smtpUrl ? 'sent' : 'kept', null, kind.secret === true);
  }

  deps.jobs.define(MAIL_JOB, z.object({ id: z.number().int().positive() }), (data) => deliver(data.id), {
    label: 'Send an e-mail',
    // about 30 s, 1, 2, 4... minutes apart: a mail server down for an hour or two still gets the mail
    retryLimit: 8,
    retryDelay: config.mail.retrySeconds,
    retryBackoff: true,
    expireInSeconds: config.mail.expireSeconds,
  });

  const service = {
    preferences,
    tokens,

    /**
     * Queues a mail and returns once it is recorded (never waits for the mail server). Answers false
     * when the same `key` was queued before. Data that does not fit the kind, or mail a member can turn
     * off sent to an address alone, throws (a bug); a database that cannot take the mail is logged
     * and answers false, so the caller's own work goes on.
     */
    async send<K extends MailKindName>(
      kind: K,
      to: MailRecipient,
      data: DataOf<K>,
      options: MailSendOptions = {},
    ): Promise<boolean> {
      const payload = (MAIL_KINDS[kind].schema as z.ZodType).parse(data) as object;
      const userId = typeof to === 'number' ? to : 'userId' in to ? to.userId : null;
      // mail that can be turned off must carry its unsubscribe link, which names a member
      if (userId === null && !notificationTopic(MAIL_KINDS[kind].topic)!.essential)
        throw new Error(
          `The "${kind}" mail can be turned off, so it goes to a member (an id), not to an address alone.`,
        );
      const address = typeof to === 'number' ? null : to.address;
      const stored = typeof to !== 'number' && 'name' in to && to.name ? { ...payload, name: to.name } : payload;
      const key = `${kind}:${options.key ?? randomToken(16)}`;
      try {
        const [row] = await db
          .insert(mailMessages)
          .values({ key, kind, userId, address, data: stored })
          .onConflictDoNothing({ target: mailMessages.key })
          .returning({ id: mailMessages.id });
        if (!row) return false;
        try {
          await deps.jobs.send(MAIL_JOB, { id: row.id }, options.at ? { startAfter: options.at } : {});
        } catch (err) {
          // no job, no mail: the row goes too, so that asking again later queues it
          await db.delete(mailMessages).where(eq(mailMessages.id, row.id));
          throw err;
        }
        return true;
      } catch (err) {
        deps.log.error({ err, kind, key }, 'a mail could not be queued');
        return false;
      }
    },

    /** the mail as it would be sent to this member now (previews, the look test) */
    async preview<K extends MailKindName>(kind: K, user: UserRow, data: DataOf<K>): Promise<RenderedMail> {
      return renderMail(kind, data, { address: user.email, name: user.name, user });
    },

    /** queues the billing mails due now (the recurring job's work; tests run it through the queue too) */
    sweepBilling: (now?: Date) => sweepBillingMail(db, service, now),
  };

  deps.jobs.define(BILLING_SWEEP_JOB, z.object({}), () => service.sweepBilling(), {
    label: 'Queue billing e-mails (receipts, reminders, failed payments, membership changes)',
  });
  deps.jobs.schedule(BILLING_SWEEP_JOB, BILLING_SWEEP_CRON);
  return service;
}
export type MailService = ReturnType<typeof createMail>;
