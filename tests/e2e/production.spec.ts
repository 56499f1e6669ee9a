import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BrowserSession } from '#test/browser-session';
import { freePort } from '#test/server';
import {
  DEPLOYMENT_SANDBOX_SECRET,
  postgresAvailable,
  startDeployment,
  type Deployment,
  type DeploymentKind,
} from '#test/deployment';
import { brokenImages } from '#test/images';
import { signSandboxPayload } from '#server/modules/payments/sandbox/index';

/**
 * The hostile checks, against Backbeat deployed as its operators deploy it (tests/support/deployment.ts):
 * the production posture of docs/security.md. No browser: each check is the HTTP an attacker would send.
 */
const DIST = path.resolve(import.meta.dirname, '../../dist/client');
const kinds: DeploymentKind[] = postgresAvailable ? ['embedded', 'postgresql'] : ['embedded'];

const html = { accept: 'text/html' };
const pageConfig = (page: string) =>
  JSON.parse(/<script type="application\/json" id="page-config">(.*?)<\/script>/s.exec(page)![1]!) as { dev: boolean };

describe.each(kinds)('production on the %s database', (kind) => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment(kind);
  }, 240_000);
  afterAll(async () => d?.stop());
  const url = (p: string) => `${d.server.url}${p}`;
  let registered = 0;
  /** a new account, registered through the app (its own address when the deployment trusts a proxy) */
  const newAccountWithBrowser = async (address?: string) => {
    const who = { email: `acct${++registered}-${Date.now()}@academy.test`, password: 'first-passphrase-1' };
    const browser = await BrowserSession.open(d.server.url, address);
    expect((await browser.register(who.email, 'Sam Groove', who.password)).status).toBe(200);
    return { who, browser };
  };
  const newAccount = async (address?: string) => (await newAccountWithBrowser(address)).who;
  /** the mail kept for `to`, newest first, as an admin reads it */
  const mailTo = async (to: string) => {
    const admin = await d.as(d.admin);
    const { messages } = (await (await admin.get('/api/admin/mail')).json()) as {
      messages: { to: string; subject: string; text: string }[];
    };
    return messages.filter((m) => m.to === to);
  };
  const resetToken = (text: string) => /\/password\/reset\/([\w-]+)/.exec(text)![1]!;

  it('serves no development tool: no mail outbox, no API reference, no sandbox clock or test tools, no dev flag', async () => {
    expect((await fetch(url('/api/dev/outbox'))).status).toBe(404);
    for (const docs of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/yaml'])
      expect((await fetch(url(docs))).status, docs).toBe(404);
    const outboxPage = await fetch(url('/dev/outbox'), { headers: html });
    expect(outboxPage.status).toBe(404);
    expect(pageConfig(await outboxPage.text()).dev).toBe(false);
    expect(pageConfig(await (await fetch(url('/'), { headers: html })).text()).dev).toBe(false);
    const visitor = await BrowserSession.open(d.server.url);
    for (const call of [
      '/sandbox/clock/advance',
      '/sandbox/test/setup-intents',
      '/sandbox/test/paypal',
      '/sandbox/test/paypal/I-X/funding',
    ]) {
      expect((await visitor.post(call, { days: 31 })).status, call).toBe(404);
    }
    expect((await fetch(url('/sandbox/clock'))).status).toBe(404);
  });

  it('publishes no source map, and no script names one', async () => {
    const assets = readdirSync(path.join(DIST, 'assets'));
    const maps = assets.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps.slice(0, 5)) expect((await fetch(url(`/assets/${map}`))).status, map).toBe(404);
    for (const script of assets.filter((f) => f.endsWith('.js'))) {
      expect(readFileSync(path.join(DIST, 'assets', script), 'utf8'), script).not.toContain('sourceMappingURL');
    }
  });

  it('says at start that mail is not delivered without SMTP_URL, and that payments are in test mode', () => {
    expect(d.server.output()).toContain('SMTP_URL is not set');
    expect(d.server.output()).toContain('Payments are in test mode');
  });

  it('says on checkout pages that payments are in test mode', async () => {
    const page = await fetch(url('/join'), { headers: html });
    const config = JSON.parse(
      /<script type="application\/json" id="page-config">(.*?)<\/script>/s.exec(await page.text())![1]!,
    );
    expect(config.payments.testMode).toBe(true);
  });

  it('keeps a reset mail where only admins can read it', async () => {
    const visitor = await BrowserSession.open(d.server.url);
    expect((await visitor.post('/password/forgot', { email: d.admin.email })).status).toBe(200);
    // not at a public address, not for a signed-out visitor, not for a member
    expect((await fetch(url('/api/dev/outbox'))).status).toBe(404);
    expect((await visitor.get('/api/admin/mail')).status).toBe(401);
    const adminPage = await fetch(url('/admin/mail'), { headers: html, redirect: 'manual' });
    expect(adminPage.status).toBe(302);
    expect(adminPage.headers.get('location')).toBe('/login?to=%2Fadmin%2Fmail');
    const member = await d.as(d.member);
    expect((await member.get('/api/admin/mail')).status).toBe(403);
    // the admin sees it
    const admin = await d.as(d.admin);
    type Kept = { delivery: string; messages: { to: string; subject: string; text: string }[] };
    const read = async () => (await (await admin.get('/api/admin/mail')).json()) as Kept;
    expect((await read()).delivery).toBe('kept');
    // the mail is a background job: it is kept a moment after the answer
    await expect
      .poll(async () => (await read()).messages.some((m) => m.to === d.admin.email && /reset/i.test(m.subject)), {
        timeout: 30_000,
      })
      .toBe(true);
    const mail = (await read()).messages.find((m) => m.to === d.admin.email && /reset/i.test(m.subject));
    expect(mail?.text).toMatch(/\/password\/reset\/[\w-]+/);
  });

  // `npm start` loads the demo content: its accounts' password is in the README
  it.runIf(kind === 'embedded')('warns at start that the demo accounts use a published password', () => {
    expect(d.server.output()).toContain('Demo content is loaded');
  });

  it.runIf(kind === 'embedded')("lets no visitor read the demo admin's reset link", async () => {
    const visitor = await BrowserSession.open(d.server.url);
    expect((await visitor.post('/password/forgot', { email: 'admin@demo.test' })).status).toBe(200);
    for (const where of ['/api/dev/outbox', '/api/admin/mail'])
      expect((await visitor.get(where)).status, where).not.toBe(200);
    expect(await (await fetch(url('/dev/outbox'), { headers: html })).text()).not.toMatch(/password\/reset\/[\w-]+/);
  });

  it('sends nobody off the site after sign-in or registration, whatever the address looks like', async () => {
    const tricky = [
      '/.//evil.example/x',
      '/\\evil.example',
      '/%2e%2e//evil.example',
      '/%2f%2fevil.example',
      '/\t/evil.example',
      '//evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/\uFF0Fevil.example',
      'x'.repeat(2100),
    ];
    // behind the proxy each try is its own visitor; `npm start` sees one address, whose sign-ins are limited per minute
    const tries = kind === 'postgresql' ? tricky : tricky.slice(0, 1);
    for (const [i, to] of tries.entries()) {
      const s = await BrowserSession.open(d.server.url, kind === 'postgresql' ? `198.51.100.${100 + i}` : undefined);
      const res = await s.send('POST', '/login', { email: d.member.email, password: d.member.password, to });
      expect(res.status, to).toBe(200);
      const { redirect } = (await res.json()) as { redirect: string };
      expect(new URL(redirect, d.server.url).origin, to).toBe(new URL(d.server.url).origin);
      expect(redirect.startsWith('//') || redirect.startsWith('/\\'), to).toBe(false);
      if (!to.startsWith('/\uFF0F')) expect(redirect, to).toBe('/dashboard');
    }
    // a plain form post is answered with a redirect the browser follows
    const form = await BrowserSession.open(d.server.url);
    const posted = await fetch(url('/login'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', cookie: form.cookie },
      body: new URLSearchParams({
        email: d.member.email,
        password: d.member.password,
        to: '/\\evil.example',
        _token: form.token,
      }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/dashboard');
    const s = await BrowserSession.open(d.server.url);
    const email = `redirect-${Date.now()}@academy.test`;
    const registered = await s.post('/register', {
      name: '\u202Eevil\u200B',
      email,
      email_confirmation: email,
      password: 'register-pass-1',
      password_confirmation: 'register-pass-1',
      redirect: '/.//evil.example/x',
    });
    expect(await registered.json()).toMatchObject({ name: 'evil', redirect: '/dashboard' });
  });

  it('refuses an admin link that leaves the site', async () => {
    const admin = await d.as(d.admin);
    const member = await d.as(d.member);
    const memberId = await member.userId();
    const res = await admin.post('/api/admin/notifications', {
      user_id: memberId,
      body: 'Look at this',
      url: '/\\example.com',
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.url).toBeTruthy();
  });

  it('answers bad input with a 4xx: bodies that are not UTF-8, broken images, signed webhooks that cannot be read', async () => {
    const visitor = await BrowserSession.open(d.server.url);
    const notUtf8 = await fetch(url('/login'), {
      method: 'POST',
      headers: { ...visitor.headers() },
      body: Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xc3, 0x28]), Buffer.from('","password":"x"}')]),
    });
    expect(notUtf8.status).toBe(400);
    expect(((await notUtf8.json()) as { message: string }).message).toBe(
      'The request could not be read: it is not valid UTF-8 text.',
    );

    const member = await d.as(d.member);
    for (const image of await brokenImages()) {
      for (const [route, field] of [
        ['/attachments', 'file'],
        ['/account/avatar/upload', 'avatar'],
      ] as const) {
        const form = new FormData();
        form.append(field, new Blob([new Uint8Array(image.data)], { type: image.type }), image.filename);
        const res = await fetch(url(route), {
          method: 'POST',
          headers: { cookie: member.cookie, 'x-csrf-token': member.token, accept: 'application/json' },
          body: form,
        });
        expect(res.status, `${route}: ${image.label}`).toBe(422);
      }
    }

    const body = JSON.stringify({
      id: `evt_broken_${kind}`,
      type: 'charge.succeeded',
      created: Math.floor(Date.now() / 1000),
    });
    const webhook = (signature: string) =>
      fetch(url('/webhooks/sandbox'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
        body,
      });
    expect((await webhook('t=1,v1=00')).status).toBe(400);
    expect((await webhook(signSandboxPayload(DEPLOYMENT_SANDBOX_SECRET, body))).status).toBe(400);
    const admin = await d.as(d.admin);
    const failures = (await (await admin.get('/api/admin/webhook-failures')).json()) as {
      data: { event_id: string | null; kind: string }[];
    };
    expect(failures.data).toEqual([expect.objectContaining({ event_id: `evt_broken_${kind}`, kind: 'rejected' })]);
    expect(d.server.output()).not.toMatch(/"level":50/);
  });

  it('a reset ends every other reset link and session, and tells the owner by mail', async () => {
    const owner = await newAccount();
    const before = await d.signedIn(owner);
    const visitor = await BrowserSession.open(d.server.url);
    for (let i = 0; i < 2; i++)
      expect((await visitor.post('/password/forgot', { email: owner.email })).status).toBe(200);
    // mail is a background job: both links are kept a moment after the answers
    const resets = async () => (await mailTo(owner.email)).filter((m) => /reset/i.test(m.subject));
    await expect.poll(async () => (await resets()).length, { timeout: 30_000 }).toBe(2);
    const [second, first] = (await resets()).map((m) => resetToken(m.text));
    expect((await visitor.get(`/api/password/reset/${first}`)).status).toBe(200);
    const reset = await visitor.post('/password/reset', {
      token: second,
      password: 'second-passphrase-2',
      password_confirmation: 'second-passphrase-2',
    });
    expect(reset.status).toBe(200);
    // the other link is over, and says so before any form is filled
    const check = await visitor.get(`/api/password/reset/${first}`);
    expect(check.status).toBe(410);
    expect(((await check.json()) as { message: string }).message).toBe(
      'This password reset link has expired or has already been used.',
    );
    expect(
      (
        await visitor.post('/password/reset', {
          token: first,
          password: 'third-passphrase-3',
          password_confirmation: 'third-passphrase-3',
        })
      ).status,
    ).toBe(422);
    // the session from before the reset is signed out
    expect(((await (await before.get('/api/me')).json()) as { user: unknown }).user).toBeNull();
    await expect
      .poll(async () => (await mailTo(owner.email))[0]?.subject, { timeout: 30_000 })
      .toBe('Your Backbeat password was changed');
  });

  it('ten wrong passwords from one place do not lock the owner out', async () => {
    const proxied = kind === 'postgresql';
    // the owner's browser: it registered the account, so it carries the app's device cookie
    const { who: owner, browser: ownersBrowser } = await newAccountWithBrowser(proxied ? '198.51.100.10' : undefined);
    const attacker = await BrowserSession.open(d.server.url, proxied ? '203.0.113.66' : undefined);
    for (let i = 0; i < 10; i++) expect((await attacker.signIn(owner.email, `guess-${i}-wrong`)).status).toBe(422);
    // the attacker's place is shut out of this account, even with the right password
    const shut = await attacker.signIn(owner.email, owner.password);
    expect(shut.status).toBe(429);
    expect(Number(shut.headers.get('retry-after'))).toBeGreaterThan(60);
    // the owner is not
    expect((await ownersBrowser.signIn(owner.email, owner.password)).status).toBe(200);
    if (proxied) {
      const elsewhere = await BrowserSession.open(d.server.url, '192.0.2.44');
      expect((await elsewhere.signIn(owner.email, owner.password)).status).toBe(200);
    }
  });
});

describe.runIf(postgresAvailable)('production on PostgreSQL with its Redis missing', () => {
  let d: Deployment;
  beforeAll(async () => {
    // nothing listens on this port: Redis is down from the start
    d = await startDeployment(
      'postgresql',
      { REDIS_URL: `redis://backbeat:redis-secret@127.0.0.1:${await freePort()}` },
      { accounts: false },
    );
  }, 240_000);
  afterAll(async () => d?.stop());

  it('starts anyway, says so in /healthz and in the log (without the password)', async () => {
    const health = await fetch(`${d.server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ database: 'up', redis: 'down' });
    expect(d.server.output()).toContain('Redis is unavailable');
    expect(d.server.output()).not.toContain('redis-secret');
  });

  it('serves visitors, and tells a member the service is briefly unavailable rather than signed out', async () => {
    expect((await fetch(`${d.server.url}/`, { headers: html })).status).toBe(200);
    const member = { accept: 'application/json', cookie: `bb_session=${'A'.repeat(43)}` };
    const me = await fetch(`${d.server.url}/api/me`, { headers: member });
    expect(me.status).toBe(503);
    expect(me.headers.get('retry-after')).toBeTruthy();
    expect(((await me.json()) as { message: string }).message).toBe(
      'Backbeat is briefly unavailable. Please try again in a moment.',
    );
    const visitor = await BrowserSession.open(d.server.url);
    expect((await visitor.signIn('anyone@academy.test', 'whatever-password')).status).toBe(503);
  });
});
