/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES, MESSAGES } from '#shared/constants';
import { SIGN_IN_THROTTLE_MESSAGES } from '#shared/auth';
import { eq } from 'drizzle-orm';
import { passwordResets, users } from '#server/db/schema/index';
import { RATE_LIMITS } from '#server/lib/rate-limits';
import { PASSWORD_CHANGED_SUBJECT } from '#server/modules/auth/service';
import { createTestApp, type TestApp } from '#test/api-harness';
import type { OutboxMessage } from '#server/lib/mailer';

let t: TestApp;
beforeAll(async () => {
  // mail is delivered by background jobs: this app works them (into its outbox) as a serving process does
  t = await createTestApp({ jobsPollSeconds: 0.2 });
  await t.app.deps.jobs.start();
});

/** the kept mails that match (newest first), once more than `before` of them have been delivered */
async function delivered(match: (m: OutboxMessage) => boolean, before = 0): Promise<OutboxMessage[]> {
  for (let i = 0; ; i++) {
    const found = (await t.app.deps.mailer.outbox()).filter(match);
    if (found.length > before) return found;
    if (i > 300) throw new Error('The mail was not delivered.');
    await new Promise((r) => setTimeout(r, 100));
  }
}
afterAll(async () => t.close());

describe('POST /register', () => {
  it('says what is wrong with each field, first message first (422)', async () => {
    const c = await t.client();
    const res = await c.post('/register', { name: '', email: 'nope', email_confirmation: 'x', password: 'short' });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe(FIELD_MESSAGES.nameRequired);
    expect(body.errors.name[0]).toBe(FIELD_MESSAGES.nameRequired);
    expect(body.errors.email[0]).toBe(FIELD_MESSAGES.emailInvalid);
    expect(body.errors.password[0]).toBe(FIELD_MESSAGES.passwordMin);
  });

  it('requires every field when the body is empty', async () => {
    const c = await t.client();
    const body = (await c.post('/register', {})).json();
    expect(body.errors.name[0]).toBe(FIELD_MESSAGES.nameRequired);
    expect(body.errors.email[0]).toBe(FIELD_MESSAGES.emailRequired);
    expect(body.errors.password[0]).toBe(FIELD_MESSAGES.passwordRequired);
  });

  it('requires the email confirmation to match, saying so where the page reads it (errors.email[0])', async () => {
    const c = await t.client();
    const res = await c.post('/register', {
      name: 'Ann',
      email: 'ann@x.test',
      email_confirmation: 'other@x.test',
      password: 'longenough',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email[0]).toBe(FIELD_MESSAGES.emailConfirmationMismatch);
    expect(res.json().errors.email_confirmation[0]).toBe(FIELD_MESSAGES.emailConfirmationMismatch);
  });

  it('signs the new member in and answers {name, email, redirect}', async () => {
    const c = await t.client();
    const before = c.csrfToken;
    const res = await c.post('/register', {
      name: 'Neil P',
      email: 'Neil@X.test',
      email_confirmation: 'neil@x.test',
      password: 'longenough',
      redirect: '/order',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'Neil P', email: 'Neil@X.test', redirect: '/order' });
    expect(c.csrfToken).not.toBe(before);
    const me = (await c.get('/api/me')).json();
    expect(me.user.email).toBe('Neil@X.test');
    expect(me.user.slug).toBe('neil-p');
  });

  it('refuses a taken email, whatever its case', async () => {
    const c = await t.client();
    await t.createUser({ email: 'taken@x.test' });
    const res = await c.post('/register', {
      name: 'Ann',
      email: 'TAKEN@x.test',
      email_confirmation: 'TAKEN@x.test',
      password: 'longenough',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email[0]).toBe(FIELD_MESSAGES.emailTaken);
  });

  it('never redirects off the site', async () => {
    const c = await t.client();
    const res = await c.post('/register', {
      name: 'Ann',
      email: 'ann2@x.test',
      email_confirmation: 'ann2@x.test',
      password: 'longenough',
      redirect: 'https://evil.test/',
    });
    expect(res.json().redirect).toBe('/dashboard');
  });
});

describe('POST /login and /logout', () => {
  it('rejects wrong credentials with one message and no hint which part was wrong', async () => {
    const user = await t.createUser();
    const c = await t.client();
    const wrong = await c.post('/login', { email: user.email, password: 'wrong-password' });
    const unknown = await c.post('/login', { email: 'nobody@x.test', password: 'wrong-password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.email[0]).toBe(MESSAGES.signInFailed);
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('rotates the session id at sign-in and honours only same-site `to`', async () => {
    const user = await t.createUser();
    const c = await t.client();
    const anonymous = c.cookies.get('bb_session');
    const res = await c.post('/login', { email: user.email, password: user.password, to: '/notifications?x=1' });
    expect(res.json().redirect).toBe('/notifications?x=1');
    const cookie = res.cookies.find((k) => k.name === 'bb_session')!;
    expect(cookie.value).not.toBe(anonymous);
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    for (const to of ['//evil.test/x', 'https://evil.test', '/\\evil.test', 'javascript:alert(1)']) {
      const again = await (await t.client()).post('/login', { email: user.email, password: user.password, to });
      expect(again.json().redirect).toBe('/dashboard');
    }
  });

  it('a remembered session gets a lasting cookie', async () => {
    const user = await t.createUser();
    const c = await t.client();
    const res = await c.post('/login', { email: user.email, password: user.password, remember: true });
    expect(res.cookies.find((k) => k.name === 'bb_session')!.maxAge).toBeGreaterThan(60 * 60 * 24 * 7);
  });

  it('throttles repeated failures for one email from one address (429 with Retry-After)', async () => {
    const user = await t.createUser();
    const c = await t.client();
    for (let i = 0; i < 10; i++)
      expect((await c.post('/login', { email: user.email, password: 'bad-password' })).statusCode).toBe(422);
    const blocked = await c.post('/login', { email: user.email, password: user.password });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().message).toBe(SIGN_IN_THROTTLE_MESSAGES.pausedHere(Number(blocked.headers['retry-after'])));
  });

  it('sign-out ends the session on the server', async () => {
    const user = await t.createUser();
    const c = await t.client();
    await c.signIn(user.email, user.password);
    const oldCookie = c.cookies.get('bb_session')!;
    expect((await c.post('/logout')).json().redirect).toBe('/');
    expect((await c.get('/api/me')).json().user).toBeNull();
    // replaying the old cookie does not bring the session back
    const replay = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `bb_session=${oldCookie}` },
    });
    expect(replay.json().user).toBeNull();
  });

  it('a plain form post (no JavaScript) gets a 303 to the target', async () => {
    const user = await t.createUser();
    const c = await t.client();
    const res = await c.request(
      'POST',
      '/login',
      { email: user.email, password: user.password, to: '/notifications', _token: c.csrfToken },
      { form: true, csrf: false, headers: { accept: 'text/html' } },
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/notifications');
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request without the token (419) and changes nothing', async () => {
    const c = await t.client();
    const res = await c.post(
      '/register',
      { name: 'Eve', email: 'eve@x.test', email_confirmation: 'eve@x.test', password: 'longenough' },
      { csrf: false },
    );
    expect(res.statusCode).toBe(419);
    expect(res.json()).toEqual({ message: MESSAGES.csrfMismatch });
    expect(await t.app.deps.services.users.findByEmail('eve@x.test')).toBeNull();
  });

  it("refuses another browser's token", async () => {
    const a = await t.client();
    const b = await t.client();
    const res = await a.post('/logout', {}, { csrf: false, headers: { 'x-csrf-token': b.csrfToken } });
    expect(res.statusCode).toBe(419);
  });

  it('accepts the token as form field _token in urlencoded and multipart bodies', async () => {
    const user = await t.createUser();
    const c = await t.client();
    const form = await c.request(
      'POST',
      '/login',
      { email: user.email, password: user.password, _token: c.csrfToken },
      { form: true, csrf: false },
    );
    expect(form.statusCode).toBe(200);
    const d = await t.client();
    const boundary = '----bb' + Date.now();
    const multipart =
      [
        ['email', user.email],
        ['password', user.password],
        ['_token', d.csrfToken],
      ]
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join('') + `--${boundary}--\r\n`;
    const res = await d.request('POST', '/login', multipart, {
      csrf: false,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('password reset', () => {
  /** asks for a link, and reads it from the newest reset mail to `email` */
  async function resetLink(email: string) {
    const c = await t.client();
    const isReset = (m: OutboxMessage) => m.to === email && m.subject === 'Reset your Backbeat password';
    const before = (await t.app.deps.mailer.outbox()).filter(isReset).length;
    expect((await c.post('/password/forgot', { email })).json().message).toBe(MESSAGES.passwordResetSent);
    const [mail] = await delivered(isReset, before);
    return /\/password\/reset\/([\w-]+)/.exec(mail!.text)![1]!;
  }
  const resetWith = async (token: string, password = 'brand-new-pass') =>
    (await t.client()).post('/password/reset', { token, password, password_confirmation: password });
  const changedMails = async (email: string) =>
    (await t.app.deps.mailer.outbox()).filter((m) => m.to === email && m.subject === PASSWORD_CHANGED_SUBJECT);

  it('gives the same answer for unknown addresses and sends nothing', async () => {
    const c = await t.client();
    const before = (await t.app.deps.mailer.outbox()).length;
    expect((await c.post('/password/forgot', { email: 'ghost@x.test' })).json().message).toBe(
      MESSAGES.passwordResetSent,
    );
    expect((await t.app.deps.mailer.outbox()).length).toBe(before);
  });

  it('works once, sets the new password and signs out every other session', async () => {
    const user = await t.createUser();
    const other = await t.client();
    await other.signIn(user.email, user.password);
    const token = await resetLink(user.email);
    const c = await t.client();
    const res = await c.post('/password/reset', {
      token,
      password: 'brand-new-pass',
      password_confirmation: 'brand-new-pass',
    });
    expect(res.statusCode).toBe(200);
    expect((await other.get('/api/me')).json().user).toBeNull();
    expect((await c.get('/api/me')).json().user.email).toBe(user.email);
    const again = await (
      await t.client()
    ).post('/password/reset', { token, password: 'another-pass1', password_confirmation: 'another-pass1' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.token[0]).toBe(MESSAGES.passwordResetInvalid);
    await (await t.client()).signIn(user.email, 'brand-new-pass');
  });

  it('refuses an expired link', async () => {
    const user = await t.createUser();
    const token = await resetLink(user.email);
    await t.app.deps.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await (await t.client()).post('/password/reset', { token, password: 'brand-new-pass' });
    expect(res.statusCode).toBe(422);
  });

  it('changing the password signs out the other sessions but keeps this one', async () => {
    const user = await t.createUser();
    const here = await t.client();
    const there = await t.client();
    await here.signIn(user.email, user.password);
    await there.signIn(user.email, user.password);
    const bad = await here.post('/account/password', {
      current_password: 'nope',
      password: 'new-password1',
      password_confirmation: 'new-password1',
    });
    expect(bad.statusCode).toBe(422);
    const res = await here.post('/account/password', {
      current_password: user.password,
      password: 'new-password1',
      password_confirmation: 'new-password1',
    });
    expect(res.statusCode).toBe(200);
    expect((await here.get('/api/me')).json().user.id).toBe(user.id);
    expect((await there.get('/api/me')).json().user).toBeNull();
  });

  it('using one link ends every other link of the account, in the same step', async () => {
    const user = await t.createUser();
    const first = await resetLink(user.email);
    const second = await resetLink(user.email);
    expect(first).not.toBe(second);
    expect((await resetWith(second)).statusCode).toBe(200);
    const other = await resetWith(first, 'attacker-pass1');
    expect(other.statusCode).toBe(422);
    expect(other.json().errors.token[0]).toBe(MESSAGES.passwordResetInvalid);
    await (await t.client()).signIn(user.email, 'brand-new-pass');
  });

  it('two links used at the same moment: one sets the password, the other is refused, nothing fails', async () => {
    const user = await t.createUser();
    const [first, second] = [await resetLink(user.email), await resetLink(user.email)];
    const answers = await Promise.all([resetWith(first, 'pass-from-first'), resetWith(second, 'pass-from-second')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const won = answers[0]!.statusCode === 200 ? 'pass-from-first' : 'pass-from-second';
    await (await t.client()).signIn(user.email, won);
  });

  it('changing the password ends every outstanding reset link', async () => {
    const { user, client } = await t.signedIn();
    const token = await resetLink(user.email);
    expect(
      (
        await client.post('/account/password', {
          current_password: user.password,
          password: 'changed-pass1',
          password_confirmation: 'changed-pass1',
        })
      ).statusCode,
    ).toBe(200);
    expect((await (await t.client()).get(`/api/password/reset/${token}`)).statusCode).toBe(410);
    const res = await resetWith(token, 'attacker-pass1');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.token[0]).toBe(MESSAGES.passwordResetInvalid);
    await (await t.client()).signIn(user.email, 'changed-pass1');
  });

  it('a reset mails the member that the password changed, with when and what to do if it was not them', async () => {
    const user = await t.createUser({ name: 'Mail Reader' });
    const token = await resetLink(user.email);
    expect(await changedMails(user.email)).toEqual([]);
    const c = await t.client();
    expect(
      (await c.post('/password/reset', { token, password: 'brand-new-pass', password_confirmation: 'brand-new-pass' }))
        .statusCode,
    ).toBe(200);
    const [mail, ...more] = await delivered((m) => m.to === user.email && m.subject === PASSWORD_CHANGED_SUBJECT);
    expect(more).toEqual([]);
    expect(mail!.text).toContain('Hi Mail Reader,');
    expect(mail!.text).toContain('with a password reset link');
    expect(mail!.text).toContain(`from the address ${c.remoteAddress}`);
    // when: the day it happened, in UTC for a member without a time zone
    expect(mail!.text).toContain(
      new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date()),
    );
    expect(mail!.text).toContain('(UTC)');
    expect(mail!.text).toContain(`${t.config.appUrl}/password/forgot`);
    expect(mail!.text).toContain('Contact our support team by replying to this email');
  });

  it('a password change mails the member too, in their own time zone', async () => {
    const { user, client } = await t.signedIn();
    await t.app.deps.db.update(users).set({ timezone: 'America/New_York' }).where(eq(users.id, user.id));
    expect(
      (
        await client.post('/account/password', {
          current_password: 'wrong-one',
          password: 'changed-pass1',
          password_confirmation: 'changed-pass1',
        })
      ).statusCode,
    ).toBe(422);
    expect(await changedMails(user.email)).toEqual([]);
    expect(
      (
        await client.post('/account/password', {
          current_password: user.password,
          password: 'changed-pass1',
          password_confirmation: 'changed-pass1',
        })
      ).statusCode,
    ).toBe(200);
    const [mail] = await delivered((m) => m.to === user.email && m.subject === PASSWORD_CHANGED_SUBJECT);
    expect(mail!.text).toContain('from your account settings');
    expect(mail!.text).toContain('(America/New_York)');
    expect(mail!.text).toContain(`${t.config.appUrl}/password/forgot`);
  });

  it('a reset signs out every session of the account, a change every one but the current', async () => {
    const user = await t.createUser();
    const [a, b] = [await t.client(), await t.client()];
    await a.signIn(user.email, user.password);
    await b.signIn(user.email, user.password);
    const c = await t.client();
    expect(
      (
        await c.post('/password/reset', {
          token: await resetLink(user.email),
          password: 'brand-new-pass',
          password_confirmation: 'brand-new-pass',
        })
      ).statusCode,
    ).toBe(200);
    expect((await a.get('/api/me')).json().user).toBeNull();
    expect((await b.get('/api/me')).json().user).toBeNull();
    expect((await c.get('/api/me')).json().user.id).toBe(user.id);
    await a.signIn(user.email, 'brand-new-pass');
    expect(
      (
        await c.post('/account/password', {
          current_password: 'brand-new-pass',
          password: 'changed-pass1',
          password_confirmation: 'changed-pass1',
        })
      ).statusCode,
    ).toBe(200);
    expect((await a.get('/api/me')).json().user).toBeNull();
    expect((await c.get('/api/me')).json().user.id).toBe(user.id);
  });
});

describe('GET /api/password/reset/:token (the reset page asks before showing the form)', () => {
  async function resetLink(email: string) {
    await (await t.client()).post('/password/forgot', { email });
    const [mail] = await delivered((m) => m.to === email && m.subject === 'Reset your Backbeat password');
    return /\/password\/reset\/([\w-]+)/.exec(mail!.text)![1]!;
  }

  it('a link that works: 200 {valid: true, expires_at}, and asking does not use it', async () => {
    const user = await t.createUser();
    const token = await resetLink(user.email);
    const c = await t.client();
    for (let i = 0; i < 2; i++) {
      const res = await c.get(`/api/password/reset/${token}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ valid: true, expires_at: expect.any(String) });
      expect(new Date(res.json().expires_at).getTime()).toBeGreaterThan(Date.now());
    }
    expect(
      (await c.post('/password/reset', { token, password: 'brand-new-pass', password_confirmation: 'brand-new-pass' }))
        .statusCode,
    ).toBe(200);
  });

  it('a used link: 410 with the sentence the page shows', async () => {
    const user = await t.createUser();
    const token = await resetLink(user.email);
    expect((await (await t.client()).post('/password/reset', { token, password: 'brand-new-pass' })).statusCode).toBe(
      200,
    );
    const res = await (await t.client()).get(`/api/password/reset/${token}`);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ message: MESSAGES.passwordResetExpired });
  });

  it('an expired link: 410', async () => {
    const user = await t.createUser();
    const token = await resetLink(user.email);
    await t.app.deps.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user.id));
    const res = await (await t.client()).get(`/api/password/reset/${token}`);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ message: MESSAGES.passwordResetExpired });
  });

  it('an unknown link: 404 with its own sentence; an over-long one is a 4xx too', async () => {
    const c = await t.client();
    const res = await c.get('/api/password/reset/not-a-token-we-sent');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: MESSAGES.passwordResetUnknown });
    const long = await c.get(`/api/password/reset/${'x'.repeat(300)}`);
    expect(long.statusCode).toBeGreaterThanOrEqual(400);
    expect(long.statusCode).toBeLessThan(500);
  });

  it('is limited per address (429 with Retry-After); other addresses go on', async () => {
    const c = await t.client();
    for (let i = 0; i < RATE_LIMITS.passwordResetCheckPerIp.points; i++)
      expect((await c.get(`/api/password/reset/guess-${i}`)).statusCode).toBe(404);
    const refused = await c.get('/api/password/reset/guess-again');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await (await t.client()).get('/api/password/reset/guess-again')).statusCode).toBe(404);
  });
});
