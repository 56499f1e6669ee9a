import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ESSENTIAL_MAIL_NOTE, UNSUBSCRIBE_MESSAGES } from '#shared/mail';
import { loadConfig } from '#server/config';
import { renderMailFor } from '#server/modules/mail/render';
import { MAIL_KINDS, type MailKindName } from '#server/modules/mail/kinds';
import { unsubscribeTokens } from '#server/modules/mail/unsubscribe';
import { authId, DESKTOP, launchBrowser, newPage, PHONE, registerInPage, signIn } from '#test/e2e';

/**
 * Mail as members see it: the templates rendered to HTML and opened in Chromium at phone and desktop
 * widths (light and dark), the notification settings page, and the page an unsubscribe link opens,
 * signed out. SHOTS_DIR=dir keeps the screenshots to look at.
 */
let browser: Browser;
let admin: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  admin = await newPage(browser);
  await signIn(admin, 'admin@demo.test');
});
afterAll(async () => browser.close());

const SHOTS = process.env.SHOTS_DIR ?? null;
async function shot(p: Page, name: string) {
  if (SHOTS) await p.screenshot({ path: `${SHOTS}/${name}-${p.viewportSize()!.width}.png`, fullPage: true });
}
const stamp = Date.now().toString(36);

const config = loadConfig({ NODE_ENV: 'test', APP_URL: 'https://academy.backbeat.test' }, []);
const tokens = unsubscribeTokens('look-test');
const member = {
  address: 'maximilian.featherstonehaugh-drumwright@example-long-domain.test',
  name: 'Maximilian Featherstonehaugh-Drumwright',
  userId: 7,
  timeZone: 'Europe/Berlin',
};
const LONG_NAME = 'Annabelle Okonkwo-Castellanos';
const LONG_TOPIC =
  'Help: my left-foot heel-toe technique keeps collapsing above 180 bpm on double-bass metal grooves!!';
const EXCERPT =
  'Try slowing it to 150 and keeping the heel down for the first beat of each pair: the collapse usually comes from lifting the whole leg. https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG';
const RECEIPT = {
  number: 'R-000042',
  refund: false,
  item: 'Backbeat membership (yearly), 26 November 2026 to 26 November 2027',
  amountCents: 24000,
  currency: 'usd',
  paymentMethod: 'Visa ending 4242',
  issuedAt: '2026-11-26T13:05:00.000Z',
};
/** every kind of mail, with data as long as real members' (a unit test below keeps the list complete) */
const MAILS: Record<MailKindName, unknown> = {
  'account.welcome': {},
  'account.password-reset': { link: 'https://academy.backbeat.test/password/reset/Zm9vYmFyYmF6cXV4', minutes: 60 },
  'account.password-changed': {
    at: '2026-11-26T13:05:00.000Z',
    how: 'change',
    ip: '2001:db8:85a3:0000:0000:8a2e:0370:7334',
  },
  'account.email-changed': {
    from: 'maximilian.featherstonehaugh-drumwright@example-long-domain.test',
    to: 'max.drums@example.test',
    at: '2026-11-26T13:05:00.000Z',
  },
  'billing.receipt': RECEIPT,
  'billing.trial-ending': {
    trialEndsAt: '2026-11-29T13:05:00.000Z',
    amountCents: 2900,
    currency: 'usd',
    plan: 'monthly',
  },
  'billing.renewal-coming': {
    renewsAt: '2026-12-03T13:05:00.000Z',
    amountCents: 24900,
    currency: 'usd',
    paymentMethod: 'Mastercard ending 5100',
  },
  'billing.payment-failed': {
    amountCents: 2900,
    currency: 'usd',
    paymentMethod: 'Mastercard ending 5100',
    graceEndsAt: '2026-12-10T13:05:00.000Z',
  },
  'billing.membership': { change: 'cancelled', accessEndsAt: '2026-12-26T13:05:00.000Z' },
  'billing.instalment-receipt': {
    ...RECEIPT,
    item: 'Backbeat mentorship: payment 2 of 6',
    amountCents: 41700,
    paid: 2,
    total: 6,
  },
  'billing.instalment-failed': { amountCents: 41700, currency: 'usd', paymentMethod: 'Visa ending 4242' },
  'community.friend-request': { from: LONG_NAME, profile: '/profile/annabelle-okonkwo-castellanos' },
  'community.reply': { from: LONG_NAME, where: LONG_TOPIC, excerpt: EXCERPT, url: '/forums/topic/12#post-340' },
  'community.mention': { from: LONG_NAME, where: LONG_TOPIC, excerpt: EXCERPT, url: '/forums/topic/12#post-341' },
  'community.watched-topic': {
    topic: LONG_TOPIC,
    url: '/forums/topic/12',
    count: 7,
    posts: [
      { from: LONG_NAME, excerpt: EXCERPT, url: '/forums/topic/12#post-342' },
      {
        from: 'Kenji Watanabe',
        excerpt: 'Same here: heel-toe only clicked once I lowered the throne.',
        url: '/forums/topic/12#post-343',
      },
    ],
  },
  'community.live-show-soon': {
    title: 'Live Q&A: odd time signatures, metric modulation and the art of the linear fill (with Dr. Sofia Marangoni)',
    startsAt: '2026-11-26T19:00:00.000Z',
    url: '/live/3',
  },
  'community.wall-comment': {
    from: LONG_NAME,
    wall: 'yours',
    reply: false,
    excerpt: EXCERPT,
    url: '/profile/max#comment-9',
  },
  'mentorship.feedback': {
    video: 'Paradiddle-diddle groove at 96 bpm, second take (left hand leading, ride on the bell)',
    mentor: 'Dr. Sofia Marangoni',
    excerpt: EXCERPT,
    url: '/mentorship/videos/4',
  },
  'mentorship.practice-plan-updated': { mentor: 'Dr. Sofia Marangoni', url: '/mentorship/practice-plan' },
  'digest.weekly': {
    from: '2026-11-16',
    to: '2026-11-22',
    minutes: 245,
    daysPracticed: 5,
    streak: 12,
    longestStreak: 31,
    tempos: [
      {
        exercise: 'Single-stroke roll, sixteenth notes on the practice pad with accents on every third note',
        bpm: 132,
        change: 8,
      },
      { exercise: 'Heel-toe doubles', bpm: 170, change: -4 },
    ],
    topics: [{ title: LONG_TOPIC, url: '/forums/topic/12', posts: 23 }],
  },
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
