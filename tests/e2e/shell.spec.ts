import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FIELD_MESSAGES, LIMITS, MESSAGES } from '#shared/constants';
import {
  authId,
  baseURL,
  DESKTOP,
  launchBrowser,
  newPage,
  PHONE,
  registerInPage,
  signIn,
  watchChannels,
} from '#test/e2e';

let browser: Browser;
const pages: Page[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

async function page(viewport = DESKTOP) {
  const p = await newPage(browser, viewport);
  pages.push(p);
  return p;
}

describe('pages and sign-in', () => {
  it('serves the app with the CSRF meta tag and page configuration', async () => {
    const p = await page();
    const res = await p.goto('/');
    expect(res!.status()).toBe(200);
    expect(await p.locator('meta[name="csrf-token"]').getAttribute('content')).toMatch(/^[\w-]{20,}$/);
    const config = JSON.parse((await p.locator('#page-config').textContent())!);
    expect(config).toMatchObject({ authId: null, admin: false });
    await expect.poll(() => p.getByRole('heading', { level: 1 }).textContent()).toContain('Become the drummer');
    expect(p.errors).toEqual([]);
  });

  it('a signed-out visitor opening a members page goes to /login?to=, and signing in returns there', async () => {
    const p = await page();
    await p.goto('/notifications');
    expect(new URL(p.url()).pathname + new URL(p.url()).search).toBe('/login?to=%2Fnotifications');
    await p.getByLabel('Email').fill('member@demo.test');
    await p.getByLabel('Password', { exact: true }).fill('wrong-password');
    await p.getByRole('button', { name: 'Sign in' }).click();
    // the server's sentence under the field it names, the field marked, and the summary said
    await p.getByRole('alert').filter({ hasText: 'Please correct this field: Email.' }).waitFor();
    const email = p.getByLabel('Email');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await p.locator(`#${await email.getAttribute('aria-describedby')}`).innerText()).toBe(MESSAGES.signInFailed);
    await p.getByLabel('Password', { exact: true }).fill('drumsdemo1');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.waitForURL('**/notifications');
    await p.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
  });

  it('ignores an off-site ?to= target', async () => {
    const p = await page();
    await signIn(p, 'free@demo.test', 'drumsdemo1', 'https://evil.test/');
    expect(new URL(p.url()).pathname).toBe('/dashboard');
    expect(new URL(p.url()).host).toBe(new URL(baseURL()).host);
    await p.getByText('You are on the free plan').waitFor();
  });
});

describe('registration modal', () => {
  it('shows the first server error in red, then registers and redirects', async () => {
    const p = await page(PHONE);
    await p.goto('/');
    await p.getByRole('button', { name: 'Join' }).click();
    const dialog = p.getByRole('dialog', { name: 'Create Your Account' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByText(FIELD_MESSAGES.nameRequired).waitFor();
    const email = `e2e-${Date.now()}@test.test`;
    await dialog.getByLabel('Name').fill('Stewart Copeland');
    await dialog.getByLabel('Email', { exact: true }).fill(email);
    await dialog.getByLabel('Confirm Email').fill(email);
    await dialog.getByLabel('Password').fill('short');
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByText(FIELD_MESSAGES.passwordMin).waitFor();
    expect(await dialog.getByText(FIELD_MESSAGES.passwordMin).evaluate((el) => getComputedStyle(el).color)).toMatch(
      /rgb\((1[5-9]\d|2\d\d), \d{1,2}, \d{1,2}\)/,
    );
    await dialog.getByLabel('Password').fill('long-enough-1');
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await p.waitForURL('**/dashboard');
    await p.getByRole('heading', { name: 'Welcome back, Stewart' }).waitFor();
  });
});

describe('modal, dropdowns, side menu, toasts', () => {
  it('a modal opens and closes by window event, by Escape and by an overlay click', async () => {
    const p = await page();
    await p.goto('/');
    // the page has rendered (the first render is a transition and may finish after the load event)
    await p.getByRole('button', { name: 'Join' }).waitFor();
    const dialog = p.getByRole('dialog', { name: 'Create Your Account' });
    await p.evaluate(() => window.dispatchEvent(new CustomEvent('open-register')));
    await dialog.waitFor();
    // focus is inside the modal
    expect(await p.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await p.keyboard.press('Tab');
    await p.keyboard.press('Tab');
    await p.keyboard.press('Tab');
    await p.keyboard.press('Tab');
    await p.keyboard.press('Tab');
    await p.keyboard.press('Tab');
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await p.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await p.evaluate(() => window.dispatchEvent(new CustomEvent('open-register')));
    await dialog.waitFor();
    await p.evaluate(() => window.dispatchEvent(new CustomEvent('close-register')));
    await dialog.waitFor({ state: 'detached' });
    await p.evaluate(() => window.dispatchEvent(new CustomEvent('open-register')));
    await dialog.waitFor();
    await p.mouse.click(5, 400);
    await dialog.waitFor({ state: 'detached' });
  });

  it('header menus open on click, close on an outside click, and link where they should', async () => {
    const p = await page();
    await signIn(p, 'member@demo.test');
    await p.getByRole('button', { name: 'Account menu' }).click();
    const menu = p.getByRole('menu');
    await menu.waitFor();
    expect(await menu.evaluate((el) => getComputedStyle(el.parentElement!).zIndex)).toBe('1000');
    expect(await menu.getByRole('menuitem', { name: 'Account' }).getAttribute('href')).toBe('/account/profile');
    expect(await menu.getByRole('menuitem', { name: 'Billing' }).getAttribute('href')).toBe('/account/billing');
    expect(await menu.getByRole('menuitem', { name: 'My Profile' }).getAttribute('href')).toBe('/profile/maya-chen');
    await p.mouse.click(600, 600);
    await menu.waitFor({ state: 'detached' });

    await p.getByRole('button', { name: /^Notifications/ }).click();
    await p.getByRole('menu').getByText('Sunday Groove Clinic').waitFor();
    await p.getByRole('menu').getByRole('menuitem', { name: 'See all notifications' }).click();
    await p.waitForURL('**/notifications');

    await p.getByRole('button', { name: 'Account menu' }).click();
    await p.getByRole('menuitem', { name: 'Sign Out' }).click();
    await p.waitForURL((u) => u.pathname === '/');
    await p.getByRole('button', { name: 'Join' }).waitFor();
  });

  it('the mentorship version of the menus is dark and links to the mentorship pages', async () => {
    const p = await page(PHONE);
    await signIn(p, 'student@demo.test', 'drumsdemo1', '/mentorship');
    expect(await p.evaluate(() => document.documentElement.classList.contains('theme-dark'))).toBe(true);
    await p.getByRole('button', { name: 'Account menu' }).click();
    expect(await p.getByRole('menuitem', { name: 'Account' }).getAttribute('href')).toBe('/mentorship/account');
    await p.keyboard.press('Escape');
    await p.getByRole('button', { name: /^Notifications/ }).click();
    await p.getByRole('menu').getByText('Week 1').waitFor();
    expect(await p.getByRole('menuitem', { name: 'See all notifications' }).getAttribute('href')).toBe(
      '/mentorship/notifications',
    );
  });

  it('a member without notifications sees "Nothing here yet"', async () => {
    const p = await page();
    const email = `quiet-${Date.now()}@test.test`;
    const status = await registerInPage(p, { name: 'Quiet Drummer', email, password: 'quiet-drummer-1' });
    expect(status).toBe(200);
    await p.goto('/dashboard');
    await p.getByRole('button', { name: 'Notifications' }).click();
    await p.getByRole('menu').getByText(MESSAGES.notificationsEmpty).waitFor();
  });

  it('the side menu is an accordion, and a drawer on phones', async () => {
    const desktop = await page();
    await signIn(desktop, 'member@demo.test');
    const nav = desktop.getByRole('navigation', { name: 'Side menu' });
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Metronome' }).count()).toBe(0);
    await nav.getByRole('button', { name: 'Practice' }).click();
    await nav.getByRole('link', { name: 'Metronome' }).waitFor();
    await nav.getByRole('button', { name: 'Learn' }).click();
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor({ state: 'detached' });

    const phone = await page(PHONE);
    await signIn(phone, 'member@demo.test');
    // on a phone the side menu beside the page is not there at all (not merely hidden): the drawer holds it
    await phone.getByRole('button', { name: 'Open menu' }).waitFor();
    expect(await phone.locator('nav[aria-label="Side menu"]').count()).toBe(0);
    await phone.getByRole('button', { name: 'Open menu' }).click();
    const drawer = phone.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('button', { name: 'Community' }).click();
    await drawer.getByRole('link', { name: 'Forums' }).waitFor();
    await phone.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    // the window grows to a desktop's width: the side menu appears beside the page
    await phone.setViewportSize(DESKTOP);
    await phone.getByRole('navigation', { name: 'Side menu' }).getByRole('button', { name: 'Learn' }).waitFor();
  });

  it('a toast closes by itself after 10 s and is removed 1 s later; a click closes it', async () => {
    const p = await page();
    await p.goto('/');
    await p.getByRole('button', { name: 'Join' }).waitFor();
    // the page's clock is the test's from here: the toast's own timers run when it is moved on
    await p.clock.install();
    await p.evaluate(() =>
      window.dispatchEvent(new CustomEvent('toast', { detail: { message: 'Saved to My Practice!', type: 'success' } })),
    );
    const toastEl = p.getByRole('status').filter({ hasText: 'Saved to My Practice!' });
    await toastEl.waitFor();
    await p.clock.runFor(LIMITS.toastAutoDismissMs - 100);
    expect(await toastEl.getAttribute('data-state')).toBe('open');
    await p.clock.runFor(100);
    await p.waitForSelector('[data-toast-type="success"][data-state="closed"]');
    // fading out, it no longer takes the clicks meant for what lies under it
    const takesClicks = await p.evaluate(() => {
      const closed = document.querySelector('[data-toast-type="success"]')!;
      const box = closed.getBoundingClientRect();
      return closed.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
    });
    expect(takesClicks).toBe(false);
    await p.clock.runFor(LIMITS.toastRemoveAfterCloseMs - 100);
    expect(await toastEl.count()).toBe(1);
    await p.clock.runFor(100);
    await toastEl.waitFor({ state: 'detached' });

    await p.evaluate(() =>
      window.dispatchEvent(new CustomEvent('toast', { detail: { message: 'Careful', type: 'danger' } })),
    );
    const danger = p.getByRole('status').filter({ hasText: 'Careful' });
    await danger.click();
    await p.waitForSelector('[data-toast-type="danger"][data-state="closed"]');
    await p.clock.runFor(LIMITS.toastRemoveAfterCloseMs);
    await danger.waitFor({ state: 'detached' });
  });
});

describe('realtime', () => {
  it('a new notification appears in the open page at once', async () => {
    const member = await page();
    const channels = watchChannels(member);
    await signIn(member, 'member@demo.test');
    const bell = member.getByRole('button', { name: /^Notifications/ });
    const before = Number(await member.getByTestId('unread-badge').textContent());
    const memberId = await authId(member);

    const admin = await page();
    await signIn(admin, 'admin@demo.test');
    await channels.joined(`user.${memberId}`);
    const status = await admin.evaluate(async (userId) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch('/api/admin/notifications', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ user_id: userId, body: 'The live show starts in 5 minutes', url: '/live' }),
      });
      return res.status;
    }, memberId);
    expect(status).toBe(201);
    await member.getByRole('status').filter({ hasText: 'The live show starts in 5 minutes' }).waitFor();
    await expect.poll(async () => Number(await member.getByTestId('unread-badge').textContent())).toBe(before + 1);
    await bell.click();
    await member.getByRole('menu').getByText('The live show starts in 5 minutes').waitFor();
  });
});
