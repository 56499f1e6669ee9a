import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN_SECTIONS } from '#shared/admin';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

describe('admin console shell', () => {
  it('an admin finds the console from the academy menu, sees the figures and every section', async () => {
    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'admin@demo.test', undefined, '/dashboard');
    await p.getByRole('button', { name: 'Admin' }).click();
    await p.getByRole('link', { name: 'Admin console' }).click();
    await p.waitForURL('**/admin');
    await p.getByRole('heading', { name: 'Admin console', level: 1 }).waitFor();
    await p.getByText('Members', { exact: true }).first().waitFor();
    const main = p.locator('main');
    for (const section of ADMIN_SECTIONS) await main.getByRole('heading', { name: section.title, level: 2 }).waitFor();
    // the side menu holds the console's sections, and the way back
    const menu = p.getByRole('navigation', { name: 'Side menu' });
    await menu.getByRole('button', { name: 'People' }).click();
    await menu.getByRole('link', { name: 'Audit log' }).waitFor();
    await menu.getByRole('button', { name: 'Academy' }).click();
    await menu.getByRole('link', { name: 'Back to the academy' }).waitFor();
    expect(p.errors).toEqual([]);
  });

  it('members and visitors cannot open the console', async () => {
    const member = await newPage(browser);
    await signIn(member, 'member@demo.test');
    const res = await member.goto('/admin/members');
    expect(res!.status()).toBe(403);
    await expect.poll(() => member.locator('main').textContent()).not.toContain('Admin console');

    const visitor = await newPage(browser);
    await visitor.goto('/admin');
    expect(new URL(visitor.url()).pathname).toBe('/login');
  });

  it('shows an admin the mail the server kept (no SMTP_URL), a reset link included', async () => {
    // a visitor asks for a reset link: the mail is kept on the server, not sent
    const visitor = await newPage(browser);
    await visitor.goto('/password/forgot');
    await visitor.getByLabel('Email').fill('free@demo.test');
    await visitor.getByRole('button', { name: 'Email me a reset link' }).click();
    await visitor.getByText(/we have sent a link/i).waitFor();

    const p = await newPage(browser, PHONE);
    await signIn(p, 'admin@demo.test', undefined, '/admin/mail');
    // the mail is a background job: wait until the server has kept it, then read the page
    await expect
      .poll(
        async () => {
          const res = await p.request.get('/api/admin/mail', { headers: { Accept: 'application/json' } });
          const { messages } = (await res.json()) as { messages: { to: string; subject: string }[] };
          return messages.some((m) => m.to.includes('free@demo.test') && /^Reset your/.test(m.subject));
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await p.reload();
    await p.getByRole('heading', { name: 'Mail', level: 1 }).waitFor();
    await p.getByText(/No SMTP server is set/).waitFor();
    // other specs mail the same member too: pick the reset mail by its subject
    const mail = p
      .getByRole('listitem')
      .filter({ hasText: 'To free@demo.test' })
      .filter({ has: p.getByRole('heading', { name: /^Reset your/ }) })
      .first();
    // the reset link, as the mail's button and written out for mail clients that show no buttons
    await mail
      .getByRole('link', { name: /\/password\/reset\// })
      .first()
      .waitFor();
    const overflow = await p.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(p.errors).toEqual([]);
  });

  it('shows an admin the background jobs: each recurring job with its schedule, and no failures', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'admin@demo.test', undefined, '/admin/jobs');
    await p.getByRole('heading', { name: 'Background jobs', level: 1 }).waitFor();
    const jobs = p.getByRole('table', { name: 'Background jobs and how many are in each state' });
    const sweep = jobs
      .getByRole('row')
      .filter({ hasText: 'Mentorship instalments: end plans past their grace period' });
    await sweep.getByText('Every hour at minute 17').waitFor();
    const cleanup = jobs.getByRole('row').filter({ hasText: 'Uploads: remove abandoned upload sessions' });
    await cleanup.getByText('Every hour at minute 41').waitFor();
    await p.getByText('No job has failed.').waitFor();
    const overflow = await p.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(p.errors).toEqual([]);
  });

  it('works on a phone: the menu drawer carries the console sections', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'admin@demo.test', undefined, '/admin');
    await p.getByRole('heading', { name: 'Admin console', level: 1 }).waitFor();
    await p.getByRole('button', { name: 'Open menu' }).click();
    const drawer = p.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('button', { name: 'Commerce' }).click();
    await drawer.getByRole('link', { name: 'Orders' }).waitFor();
    const overflow = await p.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await reviewShot(p, 'admin-console/admin-overview-phone.png');
  });
});
