import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MEMBER_TEXT } from '#shared/admin-members';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

// The console's people pages. This spec file registers its own member and only changes them,
// so the demo accounts stay as they were for the other specs.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function open(viewport = DESKTOP) {
  const page = await newPage(browser, viewport);
  page.setDefaultTimeout(15_000);
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource.*(401|422|404)/.test(msg.text()))
      page.errors.push(msg.text());
  });
  return page;
}
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
const name = `People Drummer ${tag}`;
const email = `people-${tag}@test.test`;
const noSideScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
/** the member's courses: whether every members-only course is locked for them */
const allLocked = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch('/api/courses', { headers: { accept: 'application/json' } });
    const { data } = (await res.json()) as { data: Array<{ members_only: boolean; locked: boolean }> };
    return data.filter((c) => c.members_only).every((c) => c.locked);
  });

let admin: Page & { errors: string[] };
let member: Page & { errors: string[] };
let memberUrl = '';

describe('admin console: people', () => {
  it('finds a newly registered member, grants membership (the member side opens), suspends them (signed out on the next navigation)', async () => {
    member = await open();
    await member.goto('/');
    await member.evaluate(
      async ({ name, email }) => {
        const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
        const res = await fetch('/register', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': token },
          body: JSON.stringify({ name, email, email_confirmation: email, password: 'people-drummer-1' }),
        });
        if (!res.ok) throw new Error(`register: ${res.status}`);
      },
      { name, email },
    );
    await member.goto('/dashboard');
    expect(new URL(member.url()).pathname).toBe('/dashboard');
    expect(await allLocked(member)).toBe(true);

    admin = await open();
    await signIn(admin, 'admin@demo.test', undefined, '/admin/members');
    await admin.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await admin.getByLabel('Search members').fill(email);
    await admin.locator('tbody tr', { hasText: name }).waitFor();
    await admin.getByRole('link', { name }).click();
    await admin.getByRole('heading', { name, level: 1 }).waitFor();
    memberUrl = new URL(admin.url()).pathname;

    // grant membership
    await admin.getByLabel('Grant access').fill('membership');
    await admin.getByRole('button', { name: 'Grant' }).click();
    await admin.getByText('Granted membership.').waitFor();
    await admin.getByRole('button', { name: 'Revoke' }).waitFor();
    await expect.poll(() => allLocked(member)).toBe(false);

    // suspend: the reason is required (shown next to the field before anything is sent)
    await admin.getByRole('button', { name: 'Suspend member' }).click();
    await admin.getByText(MEMBER_TEXT.reasonRequired).waitFor();
    expect(await admin.getByLabel('Reason').getAttribute('aria-invalid')).toBe('true');
    await admin.getByLabel('Reason').fill('E2E: spamming the forum');
    await admin.getByRole('button', { name: 'Suspend member' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Suspend' }).click();
    await admin.getByText(/Suspended on/).waitFor();
    await reviewShot(admin, 'admin-people/member-desktop.png');

    // the member's other browser is signed out on its next navigation
    await member.goto('/dashboard');
    await member.waitForURL((url) => url.pathname === '/login');
    expect(member.errors).toEqual([]);
  });

  it('the audit log shows the entries, each opening to before and after', async () => {
    await admin.goto('/admin/audit-log');
    await admin.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await admin.getByLabel('Search the log').fill(name);
    const suspended = admin.getByRole('button', { name: new RegExp(`Suspended ${name}`) });
    await suspended.waitFor();
    await admin.getByRole('button', { name: new RegExp(`Granted membership to ${name}`) }).waitFor();
    await suspended.click();
    const diff = admin.getByTestId('audit-diff');
    await diff.waitFor();
    expect(await diff.locator('[data-changed]').count()).toBeGreaterThanOrEqual(2);
    await diff.getByText('E2E: spamming the forum').waitFor();
    await reviewShot(admin, 'admin-people/audit-desktop.png');
    expect(admin.errors).toEqual([]);
  });

  it('works at phone width', async () => {
    const phone = await open(PHONE);
    await signIn(phone, 'admin@demo.test', undefined, memberUrl);
    await phone.getByRole('heading', { name, level: 1 }).waitFor();
    await phone.getByText(/Suspended on/).waitFor();
    await noSideScroll(phone);
    await reviewShot(phone, 'admin-people/member-phone.png');
    // lift the suspension again from the phone
    await phone.getByRole('button', { name: 'Lift the suspension' }).click();
    await phone.getByRole('button', { name: 'Suspend member' }).waitFor();
    for (const [path, heading] of [
      ['/admin/members', 'Members'],
      ['/admin/audit-log', 'Audit log'],
      ['/admin/mentors', 'Mentors'],
      ['/admin/leads', 'Foot-speed leads'],
      ['/admin/reviews', 'Reviews'],
    ] as const) {
      await phone.goto(path);
      await phone.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await noSideScroll(phone);
      await reviewShot(phone, `admin-people/${path.split('/').pop()}-phone.png`);
    }
    expect(phone.errors).toEqual([]);
  });
});
