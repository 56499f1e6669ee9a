import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { UNSUBSCRIBE_MESSAGES } from '#shared/mail';
import type { AdminJobsResponse } from '#shared/jobs';
import { mailMessages } from '#server/db/schema/index';
import type { TestApp } from '#test/api-harness';
import type { TestSmtpServer } from '#test/smtp';
import { startMailApp } from '#test/mail-app';

/**
 * Mail through the background jobs to a real SMTP server started here (tests/support/smtp.ts), read
 * back with mailparser: the account mails as members meet them, retries after a temporary refusal,
 * no retry after a permanent one, one mail per key, and unsubscribing with the signed token alone.
 */
let t: TestApp;
let smtp: TestSmtpServer;

let mailApp: Awaited<ReturnType<typeof startMailApp>>;
beforeAll(async () => {
  mailApp = await startMailApp({
    mail: {
      academyName: 'Backbeat',
      postalAddress: 'Backbeat Drum Academy, 12 Groove Street, Nashville, TN 37203, USA',
      unsubscribeMailto: 'unsubscribe@backbeat.test',
      unsubscribeSecret: 'mail-test-secret',
      retrySeconds: 1,
      expireSeconds: 20,
    },
  });
  ({ t, smtp } = mailApp);
}, 60_000);

afterAll(async () => mailApp?.close());

/** the mail's row once its job has finished with it (sent, skipped or failed) */
async function settled(key: string) {
  for (let i = 0; i < 300; i++) {
    const [row] = await t.app.deps.db.select().from(mailMessages).where(eq(mailMessages.key, key));
    if (row && row.status !== 'queued') return row;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The mail ${key} was never settled.`);
}

describe('account mail', () => {
  it('welcomes a new member: HTML and plain text, the academy and its address in the footer, no unsubscribe', async () => {
    const c = await t.client();
    const email = `welcome-${Date.now()}@test.test`;
    const res = await c.post('/register', {
      name: 'Ringo Newcomer',
      email,
      email_confirmation: email,
      password: 'first-password-1',
      password_confirmation: 'first-password-1',
      terms: true,
    });
    expect(res.statusCode).toBe(200);
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe('Welcome to Backbeat');
    expect(mail.from).toBe('hello@backbeat.test');
    expect(mail.html).toContain('Welcome to Backbeat, Ringo Newcomer!');
    expect(mail.html).toContain('max-width:600px');
    expect(mail.html).toContain('12 Groove Street, Nashville');
    expect(mail.text).toContain('Welcome to Backbeat, Ringo Newcomer!');
    expect(mail.text).toContain(`${t.config.appUrl}/placement`);
    expect(mail.text).toContain('12 Groove Street, Nashville');
    expect(mail.text).toContain('cannot be turned off');
    expect(mail.header('list-unsubscribe')).toBeUndefined();
  });

  it('sends a reset link that works, then tells the member the password changed', async () => {
    const user = await t.createUser({ name: 'Reset Reader' });
    const c = await t.client();
    expect((await c.post('/password/forgot', { email: user.email })).statusCode).toBe(200);
    const reset = await smtp.waitFor((m) => m.to.includes(user.email) && /Reset your/.test(m.subject));
    const token = /\/password\/reset\/([\w-]+)/.exec(reset.text)![1]!;
    expect(reset.html).toContain(`/password/reset/${token}`);
    const changed = await c.post('/password/reset', {
      token,
      password: 'brand-new-pass',
      password_confirmation: 'brand-new-pass',
    });
    expect(changed.statusCode).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(user.email) && /was changed/.test(m.subject));
    expect(mail.text).toContain('with a password reset link');
    // the link is a secret: once delivered it is no longer kept with the mail's record
    const [row] = await t.app.deps.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.kind, 'account.password-reset'));
    expect(JSON.stringify(row!.data)).not.toContain(token);
  });

  it('sends the e-mail change notice to the old address', async () => {
    const user = await t.createUser({ name: 'Mover' });
    await t.app.deps.mail.send(
      'account.email-changed',
      { userId: user.id, address: user.email },
      { from: user.email, to: 'new-home@test.test', at: new Date().toISOString() },
    );
    const mail = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('Your Backbeat e-mail address was changed');
    expect(mail.text).toContain('new-home@test.test');
  });
});

describe('delivery', () => {
  it('a mail asked for twice with the same key is sent once', async () => {
    const user = await t.createUser();
    const mail = t.app.deps.mail;
    expect(await mail.send('account.welcome', user.id, {}, { key: `twice-${user.id}` })).toBe(true);
    expect(await mail.send('account.welcome', user.id, {}, { key: `twice-${user.id}` })).toBe(false);
    await smtp.waitFor(user.email);
    await settled(`account.welcome:twice-${user.id}`);
    expect(smtp.to(user.email)).toHaveLength(1);
  });

  it('retries after a temporary refusal (451) and delivers once', async () => {
    const user = await t.createUser();
    smtp.refuse(2, 451, 'Mailbox busy, try again later');
    await t.app.deps.mail.send('account.welcome', user.id, {}, { key: `busy-${user.id}` });
    await smtp.waitFor(user.email);
    const row = await settled(`account.welcome:busy-${user.id}`);
    expect(row.status).toBe('sent');
    expect(row.tries).toBe(3);
    expect(smtp.to(user.email)).toHaveLength(1);
  });

  it('does not retry a permanent refusal (550): the mail and its job are kept as failed for admins', async () => {
    const user = await t.createUser();
    smtp.refuse(1, 550, 'No such mailbox here');
    const before = smtp.attempts;
    await t.app.deps.mail.send('account.welcome', user.id, {}, { key: `gone-${user.id}` });
    const row = await settled(`account.welcome:gone-${user.id}`);
    expect(row.status).toBe('failed');
    expect(row.tries).toBe(1);
    expect(row.error).toMatch(/550/);
    expect(smtp.attempts).toBe(before + 1);
    const admin = (await t.signedIn({ role: 'admin' })).client;
    const jobs = (await admin.get('/api/admin/jobs')).json() as AdminJobsResponse;
    expect(jobs.failed.some((j) => j.name === 'mail.deliver' && /550/.test(j.error) && j.attempts === 1)).toBe(true);
  });
});

describe('preferences and unsubscribe', () => {
  it('a community mail carries one-click unsubscribe; a plain POST with no session turns it off', async () => {
    const asker = await t.signedIn({ name: 'Friendly Drummer' });
    const target = await t.createUser({ name: 'Popular Drummer' });
    expect((await asker.client.post('/friends', { user_id: target.id })).statusCode).toBe(200);
    const mail = await smtp.waitFor(target.email);
    expect(mail.subject).toBe('Friendly Drummer wants to be your friend');
    expect(mail.header('list-unsubscribe-post')).toMatch(/List-Unsubscribe=One-Click/);
    const header = mail.header('list-unsubscribe')!;
    const url = /<(https?:\/\/[^>]+\/api\/unsubscribe\/[^>]+)>/.exec(header)![1]!;
    expect(header).toContain('mailto:unsubscribe@backbeat.test');
    // the footer link: a page of the site with the same token
    const token = url.split('/').pop()!;
    expect(mail.html).toContain(`/unsubscribe/${token}`);

    // a plain POST as a mail provider sends it: no cookie, no CSRF token
    const res = await t.app.inject({
      method: 'POST',
      url: new URL(url).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(UNSUBSCRIBE_MESSAGES.done);
    const info = await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${token}` });
    expect(info.json()).toMatchObject({ topic: 'friend-requests', subscribed: false, email: target.email });

    // the next request mails nothing, but still shows in the bell
    const other = await t.signedIn({ name: 'Second Asker' });
    expect((await other.client.post('/friends', { user_id: target.id })).statusCode).toBe(200);
    const rows = await t.app.deps.db.select().from(mailMessages).where(eq(mailMessages.userId, target.id));
    for (const row of rows) if (row.status === 'queued') await settled(row.key);
    const last = (await t.app.deps.db.select().from(mailMessages).where(eq(mailMessages.userId, target.id))).find(
      (r) => (r.data as { from?: string }).from === 'Second Asker',
    );
    expect((await settled(last!.key)).status).toBe('skipped');
    expect(smtp.to(target.email)).toHaveLength(1);
  });

  it('mail a member can turn off goes to a member, never to an address alone (it could not carry its unsubscribe)', async () => {
    const address = `no-member-${Date.now()}@test.test`;
    await expect(
      t.app.deps.mail.send('community.friend-request', { address }, { from: 'Someone', profile: '/profile/someone' }),
    ).rejects.toThrow(/can be turned off/);
    expect(await t.app.deps.db.select().from(mailMessages).where(eq(mailMessages.address, address))).toEqual([]);
    // account mail to an address alone is fine (an address that is not a member's yet)
    expect(await t.app.deps.mail.send('account.welcome', { address, name: 'Not Yet' }, {})).toBe(true);
    expect((await smtp.waitFor(address)).header('list-unsubscribe')).toBeUndefined();
  });

  it('refuses a forged or altered token (404 with a sentence), and never turns off account mail', async () => {
    const user = await t.createUser();
    const good = t.app.deps.mail.tokens.create(user.id, 'friend-requests');
    const forged = good.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    for (const token of [forged, 'nonsense', `${Buffer.from(`${user.id}.account`).toString('base64url')}.x`]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${token}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(UNSUBSCRIBE_MESSAGES.invalid);
    }
  });

  it('the settings API lists every topic, saves choices, and refuses to turn off essential mail', async () => {
    const { client } = await t.signedIn();
    const list = (await client.get('/api/account/notifications')).json();
    const billing = list.settings.find((s: { topic: string }) => s.topic === 'billing');
    expect(billing).toMatchObject({ essential: true, email: true });
    const digest = list.settings.find((s: { topic: string }) => s.topic === 'digest');
    expect(digest).toMatchObject({ essential: false, email: false, has_in_app: false });

    const saved = await client.request('PUT', '/api/account/notifications', {
      settings: [
        { topic: 'digest', in_app: false, email: true },
        { topic: 'replies', in_app: false, email: true },
      ],
    });
    expect(saved.statusCode).toBe(200);
    const after = saved.json().settings as Array<{ topic: string; email: boolean; in_app: boolean }>;
    expect(after.find((s) => s.topic === 'digest')!.email).toBe(true);
    expect(after.find((s) => s.topic === 'replies')).toMatchObject({ in_app: false, email: true });

    const refused = await client.request('PUT', '/api/account/notifications', {
      settings: [{ topic: 'billing', in_app: true, email: false }],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Billing e-mails cannot be turned off.');
  });
});
