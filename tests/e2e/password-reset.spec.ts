import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '#shared/constants';
import { launchBrowser, newPage, PHONE, registerInPage, signIn } from '#test/e2e';

let browser: Browser;
/** an admin's page: the server keeps mail for admins (no SMTP_URL in the browser suite) */
let admin: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  admin = await newPage(browser);
  await signIn(admin, 'admin@demo.test');
});
afterAll(async () => browser.close());

interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
}
/** the mail the server kept, newest first, as the admin console's mail page reads it */
const outbox = async () =>
  ((await (await admin.request.get('/api/admin/mail')).json()) as { messages: OutboxMessage[] }).messages;

/** a new drummer, registered from their own browser */
async function register(): Promise<string> {
  const p = await newPage(browser);
  const email = `reset-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@test.test`;
  const status = await registerInPage(p, { name: 'Reset Drummer', email, password: 'first-password-1' });
  expect(status).toBe(200);
  await p.context().close();
  return email;
}

/** asks for a link through the forgot-password page; the link's path, from the mail */
async function askForLink(p: Page, email: string): Promise<string> {
  const isReset = (m: OutboxMessage) => m.to === email && m.subject === 'Reset your Backbeat password';
  const before = (await outbox()).filter(isReset).length;
  await p.goto('/password/forgot');
  await p.getByLabel('Email').fill(email);
  await p.getByRole('button', { name: 'Email me a reset link' }).click();
  await p.getByRole('status').filter({ hasText: MESSAGES.passwordResetSent }).waitFor();
  // the mail is a background job: it is kept a moment after the page answers
  await expect.poll(async () => (await outbox()).filter(isReset).length, { timeout: 30_000 }).toBeGreaterThan(before);
  const mail = (await outbox()).find(isReset);
  return new URL(/https?:\/\/\S+\/password\/reset\/[\w-]+/.exec(mail!.text)![0]).pathname;
}

describe('password reset links', () => {
  it('a used link says so as the page opens, with no form to fill, and leads to a new link', async () => {
    const email = await register();
    const owner = await newPage(browser);
    const link = await askForLink(owner, email);
    await owner.goto(link);
    await owner.getByLabel('New password', { exact: true }).fill('second-password-2');
    await owner.getByLabel('Confirm new password').fill('second-password-2');
    await owner.getByRole('button', { name: 'Set new password' }).click();
    await owner.waitForURL((url) => url.pathname === '/dashboard');
    await expect
      .poll(
        async () => (await outbox()).some((m) => m.to === email && m.subject === 'Your Backbeat password was changed'),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);

    // the same link, opened again (another browser, on a phone): no form, the reason at once
    const again = await newPage(browser, PHONE);
    const posts: string[] = [];
    again.on('request', (r) => {
      if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
    });
    const checked = again.waitForResponse((r) => r.url().includes('/api/password/reset/'));
    await again.goto(link);
    expect((await checked).status()).toBe(410);
    await again.getByRole('heading', { name: 'This reset link cannot be used' }).waitFor();
    expect(await again.getByRole('alert').textContent()).toBe(MESSAGES.passwordResetExpired);
    expect(await again.getByLabel('New password', { exact: true }).count()).toBe(0);
    expect(await again.getByRole('button', { name: 'Set new password' }).count()).toBe(0);
    expect(posts).toEqual([]);
    await again.getByRole('link', { name: 'Email me a new link' }).click();
    await again.waitForURL((url) => url.pathname === '/password/forgot');
    await again.getByLabel('Email').waitFor();
    expect(again.errors).toEqual([]);
  });

  it('a link that was never sent says so too', async () => {
    const p = await newPage(browser);
    await p.goto('/password/reset/this-link-was-cut-short');
    await p.getByRole('heading', { name: 'This reset link cannot be used' }).waitFor();
    expect(await p.getByRole('alert').textContent()).toBe(MESSAGES.passwordResetUnknown);
    expect(await p.getByLabel('New password', { exact: true }).count()).toBe(0);
  });

  it('a link that still works shows the form, and asking did not use it', async () => {
    const email = await register();
    const p = await newPage(browser);
    const link = await askForLink(p, email);
    await p.goto(link);
    await p.getByLabel('New password', { exact: true }).waitFor();
    await p.reload();
    await p.getByLabel('New password', { exact: true }).fill('second-password-2');
    await p.getByLabel('Confirm new password').fill('second-password-2');
    await p.getByRole('button', { name: 'Set new password' }).click();
    await p.waitForURL((url) => url.pathname === '/dashboard');
  });
});
