import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ESSENTIAL_MAIL_NOTE, UNSUBSCRIBE_MESSAGES } from '#shared/mail';
import { loadConfig } from '#server/config';
import { renderMailFor } from '#server/modules/mail/render';
import { MAIL_KINDS } from '#server/modules/mail/kinds';
import { MAIL_SAMPLES as MAILS, SAMPLE_SITE } from '#test/mail-samples';
import { unsubscribeTokens } from '#server/modules/mail/unsubscribe';
import { authId, DESKTOP, launchBrowser, newPage, PHONE, registerInPage, reviewShot, signIn } from '#test/e2e';

/**
 * Mail as members see it: the templates rendered to HTML and opened in Chromium at phone and desktop
 * widths (light and dark), the notification settings page, and the page an unsubscribe link opens,
 * signed out. The pictures for review land in test-results/mail/.
 */
let browser: Browser;
let admin: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  admin = await newPage(browser);
  await signIn(admin, 'admin@demo.test');
});
afterAll(async () => browser.close());

const shot = (p: Page, name: string) => reviewShot(p, `mail/${name}-${p.viewportSize()!.width}.png`);
const stamp = Date.now().toString(36);

const config = loadConfig({ NODE_ENV: 'test', APP_URL: SAMPLE_SITE }, []);
const tokens = unsubscribeTokens('look-test');
const member = {
  address: 'maximilian.featherstonehaugh-drumwright@example-long-domain.test',
  name: 'Maximilian Featherstonehaugh-Drumwright',
  userId: 7,
  timeZone: 'Europe/Berlin',
};

describe('the mails', () => {
  it('are every kind the academy sends', () => {
    expect(Object.keys(MAILS).sort()).toEqual(Object.keys(MAIL_KINDS).sort());
  });

  it.each(Object.entries(MAILS))(
    'the %s mail fits a phone and a desktop, in light and dark, with a tappable button and the academy in the footer',
    async (kind, data) => {
      const mail = await renderMailFor(config, tokens, kind, data, member);
      for (const viewport of [PHONE, DESKTOP]) {
        const p = await newPage(browser, viewport);
        await p.setContent(mail.html);
        // nothing wider than the screen
        const widths = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: innerWidth }));
        expect(widths.scroll, `${kind} at ${viewport.width}`).toBeLessThanOrEqual(widths.view);
        // the 600 px column
        const column = await p.locator('table[role="presentation"][style*="max-width:600px"]').first().boundingBox();
        expect(column!.width).toBeLessThanOrEqual(600);
        await expect.poll(() => p.getByText(config.mail.postalAddress, { exact: false }).isVisible()).toBe(true);
        const button = p.locator('a[style*="background-color:#c2410c"]').first();
        if (await button.count()) expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
        await shot(p, `mail-${kind}-light`);
        await p.emulateMedia({ colorScheme: 'dark' });
        const background = await p.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background).toBe('rgb(12, 10, 9)');
        // rules and table lines take the dark theme's line colour, not a bright line across a dark card
        const lines = await p.evaluate(() =>
          [...document.querySelectorAll('hr, td[style*="border-bottom"]')].map((el) =>
            getComputedStyle(el).getPropertyValue(el.tagName === 'HR' ? 'border-top-color' : 'border-bottom-color'),
          ),
        );
        for (const colour of lines) expect(colour, `${kind}: a line in dark mode`).toBe('rgb(68, 64, 60)');
        await shot(p, `mail-${kind}-dark`);
        await p.context().close();
      }
    },
  );
});

describe('notification settings and unsubscribe', () => {
  async function newMember(name: string) {
    const p = await newPage(browser);
    const email = `mail-${stamp}-${Math.random().toString(36).slice(2, 7)}@test.test`;
    expect(await registerInPage(p, { name, email, password: 'first-password-1' })).toBe(200);
    await p.goto('/dashboard');
    return { page: p, email, id: await authId(p) };
  }

  it('the settings page keeps account and billing on, and saves a choice', async () => {
    const { page: p } = await newMember('Settings Drummer With A Rather Long Name');
    for (const viewport of [PHONE, DESKTOP]) {
      await p.setViewportSize(viewport);
      await p.goto('/account/notifications');
      await p.getByRole('heading', { name: 'Notification settings' }).waitFor();
      await expect.poll(() => p.getByText(ESSENTIAL_MAIL_NOTE).isVisible()).toBe(true);
      const billing = p.getByRole('group', { name: 'Billing' });
      expect(await billing.getByRole('checkbox', { name: 'By e-mail' }).isDisabled()).toBe(true);
      expect(await billing.getByRole('checkbox', { name: 'By e-mail' }).isChecked()).toBe(true);
      const widths = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: innerWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.view);
      await shot(p, 'notification-settings');
    }
    const digest = p.getByRole('group', { name: 'Weekly digest' }).getByRole('checkbox', { name: 'By e-mail' });
    expect(await digest.isChecked()).toBe(false);
    await digest.check();
    await p.getByText('Your notification settings are saved.').waitFor();
    await p.reload();
    await expect
      .poll(() =>
        p.getByRole('group', { name: 'Weekly digest' }).getByRole('checkbox', { name: 'By e-mail' }).isChecked(),
      )
      .toBe(true);
  });

  it("a friend request mail's unsubscribe link works signed out, after a confirmation", async () => {
    const target = await newMember('Popular Drummer');
    const asker = await newMember('Friendly Drummer');
    const status = await asker.page.evaluate(async (id) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch('/friends', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ user_id: id }),
      });
      return res.status;
    }, target.id);
    expect(status).toBe(200);
    // the kept mail (no SMTP_URL in this suite), as an admin reads it
    const kept = async () =>
      (
        (await (await admin.request.get('/api/admin/mail')).json()) as {
          messages: Array<{ to: string; subject: string; text: string }>;
        }
      ).messages.find((m) => m.to === target.email && /wants to be your friend/.test(m.subject));
    await expect.poll(async () => !!(await kept()), { timeout: 30_000 }).toBe(true);
    const link = /https?:\/\/\S+\/unsubscribe\/[\w.-]+/.exec((await kept())!.text)![0];

    for (const viewport of [PHONE, DESKTOP]) {
      const p = await newPage(browser, viewport);
      await p.goto(new URL(link).pathname);
      await p.getByText(`Stop sending “Friend requests” e-mails to ${target.email}?`).waitFor();
      await shot(p, 'unsubscribe-confirm');
      if (viewport === DESKTOP) {
        await p.getByRole('button', { name: 'Unsubscribe' }).click();
        await p.getByText(UNSUBSCRIBE_MESSAGES.done).waitFor();
        await shot(p, 'unsubscribe-done');
      }
      await p.context().close();
    }
    // signed in, the settings say so
    await target.page.goto('/account/notifications');
    const friendMail = target.page
      .getByRole('group', { name: 'Friend requests' })
      .getByRole('checkbox', { name: 'By e-mail' });
    await expect.poll(() => friendMail.isChecked()).toBe(false);
  });
});
