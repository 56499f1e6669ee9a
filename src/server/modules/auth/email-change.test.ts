import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { FIELD_MESSAGES, MESSAGES } from '#shared/constants';
import { users } from '#server/db/schema/index';
import type { TestApp } from '#test/api-harness';
import type { TestSmtpServer } from '#test/smtp';
import { startMailApp } from '#test/mail-app';

/**
 * POST /account/email (docs/product/accounts.md): a member moves their account to a new sign-in
 * address with their password, and the old address is told, through the background jobs to a real
 * SMTP server (tests/support/smtp.ts).
 */
let t: TestApp;
let smtp: TestSmtpServer;

let mailApp: Awaited<ReturnType<typeof startMailApp>>;
beforeAll(async () => {
  mailApp = await startMailApp();
  ({ t, smtp } = mailApp);
}, 60_000);

afterAll(async () => mailApp?.close());

const addressOf = async (id: number) =>
  (await t.app.deps.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0]!.email;

const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@test.test`;

describe('POST /account/email', () => {
  it('moves the account to the new address, keeps this browser signed in and tells the old address', async () => {
    const { user, client } = await t.signedIn({ name: 'Moving Drummer' });
    const next = `  ${unique('New.Home')}  `;
    const res = await client.post('/account/email', {
      email: next,
      email_confirmation: next.trim().toLowerCase(),
      current_password: user.password,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.emailChanged, email: next.trim() });
    // this browser is remembered for sign-in under the new address (auth/device.ts)
    expect(String(res.headers['set-cookie'])).toMatch(/bb_device=[^;]+;.*Path=\/login/);
    expect(await addressOf(user.id)).toBe(next.trim());
    // still signed in, as the same member at the new address
    const me = (await client.get('/api/me')).json();
    expect(me.user.id).toBe(user.id);
    expect(me.user.email).toBe(next.trim());

    // sign-in: the new address works (whatever its case), the old one no longer does
    await (await t.client()).signIn(next.trim().toUpperCase(), user.password);
    const old = await (await t.client()).post('/login', { email: user.email, password: user.password });
    expect(old.statusCode).toBe(422);

    const mail = await smtp.waitFor(user.email);
    expect(mail.to).toEqual([user.email]);
    expect(mail.subject).toBe('Your Backbeat e-mail address was changed');
    expect(mail.text).toContain('Hi Moving Drummer');
    expect(mail.text).toContain(user.email);
    expect(mail.text).toContain(next.trim());
    expect(mail.html).toContain(next.trim());
    // nothing goes to the new address
    expect(smtp.to(next.trim())).toHaveLength(0);
  });

  it('ends the reset links mailed to the old address', async () => {
    const { user, client } = await t.signedIn();
    expect((await (await t.client()).post('/password/forgot', { email: user.email })).statusCode).toBe(200);
    const reset = await smtp.waitFor((m) => m.to.includes(user.email) && /Reset your/.test(m.subject));
    const token = /\/password\/reset\/([\w-]+)/.exec(reset.text)![1]!;
    const next = unique('after-reset');
    const res = await client.post('/account/email', {
      email: next,
      email_confirmation: next,
      current_password: user.password,
    });
    expect(res.statusCode).toBe(200);
    const used = await (await t.client()).post('/password/reset', { token, password: 'taken-over-1' });
    expect(used.statusCode).toBe(422);
    expect(used.json().errors.token[0]).toBe(MESSAGES.passwordResetInvalid);
    await (await t.client()).signIn(next, user.password);
  });

  it('refuses a wrong password under current_password, and changes nothing', async () => {
    const { user, client } = await t.signedIn();
    const next = unique('never');
    const res = await client.post('/account/email', {
      email: next,
      email_confirmation: next,
      current_password: 'not-my-password',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.current_password[0]).toBe(FIELD_MESSAGES.currentPasswordIncorrect);
    expect(res.json().errors.email).toBeUndefined();
    expect(await addressOf(user.id)).toBe(user.email);
  });

  it('refuses a confirmation that does not match under email, as registration does', async () => {
    const { user, client } = await t.signedIn();
    const res = await client.post('/account/email', {
      email: unique('one'),
      email_confirmation: unique('other'),
      current_password: user.password,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email[0]).toBe(FIELD_MESSAGES.emailConfirmationMismatch);
    expect(res.json().errors.email_confirmation[0]).toBe(FIELD_MESSAGES.emailConfirmationMismatch);
    expect(await addressOf(user.id)).toBe(user.email);
  });

  it("refuses another account's address (any case) with registration's words", async () => {
    const { user, client } = await t.signedIn();
    const other = await t.createUser();
    const res = await client.post('/account/email', {
      email: other.email.toUpperCase(),
      email_confirmation: other.email,
      current_password: user.password,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email[0]).toBe(FIELD_MESSAGES.emailTaken);
    expect(await addressOf(user.id)).toBe(user.email);
    expect(await addressOf(other.id)).toBe(other.email);
  });

  it('refuses the address the account already has, and says so', async () => {
    const { user, client } = await t.signedIn();
    const res = await client.post('/account/email', {
      email: user.email.toUpperCase(),
      email_confirmation: user.email,
      current_password: user.password,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email[0]).toBe(FIELD_MESSAGES.emailUnchanged);
    expect(await addressOf(user.id)).toBe(user.email);
  });

  it('says what is missing or not an address, field by field', async () => {
    const { user, client } = await t.signedIn();
    const empty = (await client.post('/account/email', {})).json();
    expect(empty.errors.email[0]).toBe(FIELD_MESSAGES.emailRequired);
    expect(empty.errors.current_password[0]).toBe(FIELD_MESSAGES.currentPasswordRequired);
    const res = await client.post('/account/email', {
      email: 'not-an-address',
      email_confirmation: 'not-an-address',
      current_password: user.password,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email[0]).toBe(FIELD_MESSAGES.emailInvalid);
    expect(await addressOf(user.id)).toBe(user.email);
  });

  it('two accounts racing for one address: one gets it, the other hears it is taken', async () => {
    const a = await t.signedIn();
    const b = await t.signedIn();
    const next = unique('contested');
    const body = (password: string) => ({ email: next, email_confirmation: next, current_password: password });
    const answers = await Promise.all([
      a.client.post('/account/email', body(a.user.password)),
      b.client.post('/account/email', body(b.user.password)),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const lost = answers.find((r) => r.statusCode === 422)!;
    expect(lost.json().errors.email[0]).toBe(FIELD_MESSAGES.emailTaken);
  });

  it('an address taken between the check and the write: the unique index decides, with the same words', async () => {
    const { user, client } = await t.signedIn();
    const other = await t.createUser();
    // the other account takes the address just after this request looked for it
    const look = vi.spyOn(t.app.deps.services.users, 'findByEmail').mockResolvedValueOnce(null);
    try {
      const res = await client.post('/account/email', {
        email: other.email,
        email_confirmation: other.email,
        current_password: user.password,
      });
      expect(look).toHaveBeenCalled();
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.email[0]).toBe(FIELD_MESSAGES.emailTaken);
    } finally {
      look.mockRestore();
    }
    expect(await addressOf(user.id)).toBe(user.email);
  });

  it('is for signed-in members only', async () => {
    const visitor = await t.client();
    const res = await visitor.post('/account/email', {
      email: 'x@test.test',
      email_confirmation: 'x@test.test',
      current_password: 'whatever-1',
    });
    expect(res.statusCode).toBe(401);
  });
});
