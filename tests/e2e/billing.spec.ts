/* eslint-disable max-lines -- one member's billing life in the browser (pay, pause, change, cancel, win back) on the data its first steps create */
import { DUNNING_MESSAGES } from '#shared/dunning';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CANCEL_REASONS, COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { BILLING_MESSAGES } from '#shared/billing';
import { formatMoney } from '#shared/money';
import { LEARNING } from '#shared/learning';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const stamp = Date.now().toString(36);
let seq = 0;
const shot = (p: Page, name: string) => reviewShot(p, `billing/${name}-${p.viewportSize()!.width}.png`);

async function csrf(p: Page) {
  return (await p.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '';
}

async function api<T>(p: Page, method: 'GET' | 'POST', url: string, token: string, data?: Record<string, unknown>) {
  const res = await p.request.fetch(url, {
    method,
    ...(data ? { data } : {}),
    headers: { 'X-CSRF-TOKEN': token, Accept: 'application/json' },
  });
  const body = await res.json().catch(() => null);
  if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${JSON.stringify(body)}`);
  return { body: body as T, token: res.headers()['x-csrf-token'] ?? token };
}

/** a new member who buys the monthly membership in the sandbox, by card (4242…) or through PayPal's approval */
async function member(viewport: typeof PHONE, pay: 'card' | 'paypal'): Promise<Page & { errors: string[] }> {
  const p = await newPage(browser, viewport);
  await p.goto('/login');
  const email = `billing-${stamp}-${++seq}@test.test`;
  let { token } = await api(p, 'POST', '/register', await csrf(p), {
    name: `Billing Drummer ${seq}`,
    email,
    email_confirmation: email,
    password: 'drumsdemo1',
  });
  if (pay === 'card') {
    const secret = await api<{ clientSecret: string }>(p, 'GET', '/order/stripe-client-secret', token);
    const pm = await api<{ payment_method: string }>(p, 'POST', '/sandbox/setup-intents/confirm', token, {
      client_secret: secret.body.clientSecret,
      number: SANDBOX_CARDS.succeeds,
      exp_month: 12,
      exp_year: 2040,
      cvc: '123',
      name: 'Billing Drummer',
    });
    ({ token } = await api(p, 'POST', '/order/stripe', token, {
      checkout: 'academy',
      plan: 'monthly',
      stripeToken: pm.body.payment_method,
    }));
  } else {
    const approval = await api<{ url: string }>(p, 'POST', '/paypal/get-approval-url', token, {
      checkout: 'academy',
      plan: 'monthly',
    });
    const ref = approval.body.url.split('?')[0]!.split('/').pop()!;
    const back = await api<{ url: string }>(p, 'POST', `/sandbox/paypal/approve/${ref}`, token);
    await p.goto(back.body.url);
  }
  await p.goto('/account/billing');
  await p.getByTestId('billing-plan').waitFor();
  return p;
}

const dialog = (p: Page) => p.getByRole('dialog');
const step = (p: Page, n: number) => dialog(p).getByTestId(`cancel-step-${n}`);
const cont = (p: Page) => dialog(p).getByRole('button', { name: 'Continue', exact: true });

async function openCancel(p: Page) {
  await p.getByRole('button', { name: 'Cancel or pause membership' }).click();
  await step(p, 1).waitFor();
}

/** steps 1 and 2, with the cancel flow's messages on the way */
async function throughReason(p: Page, reason: string, description: string, name: string) {
  await shot(p, `${name}-step1`);
  await cont(p).click();
  await step(p, 2).waitFor();
  await cont(p).click();
  await dialog(p).getByText(COMMERCE_MESSAGES.reasonRequired).waitFor();
  await dialog(p).getByLabel(reason, { exact: true }).check();
  if (reason === 'Other' || reason.startsWith('Switching')) {
    await cont(p).click();
    await dialog(p).getByText(COMMERCE_MESSAGES.reasonDescriptionRequired).waitFor();
    await shot(p, `${name}-step2-error`);
  }
  await dialog(p).getByRole('textbox').fill(description);
  await cont(p).click();
  await step(p, 3).waitFor();
}

describe('billing and the card cancel modal', () => {
  it('discount: steps 1-3 with the validation messages, the offer applies once, and the modal resets on open', async () => {
    const p = await member(PHONE, 'card');
    await shot(p, 'billing');
    expect(await p.getByTestId('billing-method').textContent()).toContain('Visa ending 4242');
    await openCancel(p);
    await throughReason(p, 'Other', `Money is tight ${stamp}`, 'card');
    await shot(p, 'card-step3');
    await cont(p).click();
    await dialog(p).getByText(COMMERCE_MESSAGES.choiceRequired).waitFor();
    await dialog(p).getByTestId('choice-discount').click();
    await cont(p).click();
    await step(p, 0).getByText(BILLING_MESSAGES.discount('month')).waitFor();
    await shot(p, 'card-step0');
    await dialog(p).getByRole('button', { name: 'Back to billing' }).click();
    await p.getByTestId('billing-price').getByText('30% off').waitFor();
    // opening again starts over, and the discount is not offered twice
    await openCancel(p);
    await cont(p).click();
    expect(await dialog(p).getByLabel('Other', { exact: true }).isChecked()).toBe(false);
    await dialog(p).getByLabel(CANCEL_REASONS[0].value, { exact: true }).check();
    await cont(p).click();
    await step(p, 3).waitFor();
    expect(await dialog(p).getByTestId('choice-discount').count()).toBe(0);
    expect(p.errors).toEqual([]);
  });

  it('upgrade to yearly with $50.00 off', async () => {
    const p = await member(DESKTOP, 'card');
    await shot(p, 'billing');
    await openCancel(p);
    await throughReason(p, CANCEL_REASONS[1].value, '', 'card');
    await shot(p, 'card-step3');
    await dialog(p).getByTestId('choice-upgrade-yearly').click();
    await cont(p).click();
    await step(p, 0).getByText(BILLING_MESSAGES.upgradeYearly).waitFor();
    await p.keyboard.press('Escape');
    await expect.poll(() => p.getByTestId('billing-plan').textContent()).toContain('Yearly');
    // the plan renews at the full yearly price; the $50.00 offer came off the first year's invoice
    expect(await p.getByTestId('billing-price').textContent()).toContain('$249.00 a year');
    // the first year was charged: a row of the payments list, with its receipt
    await p.getByRole('list', { name: 'Payments' }).getByText('$199.00').waitFor();
    await shot(p, 'billing-payments');
    await p.setViewportSize(PHONE);
    await shot(p, 'billing-payments');
    expect(p.errors).toEqual([]);
  });

  it('the Upgrade modal: a monthly member upgrades to yearly at the full price', async () => {
    const p = await member(PHONE, 'card');
    await p.getByRole('button', { name: 'Upgrade', exact: true }).click();
    const yearly = dialog(p).getByTestId('upgrade-yearly');
    await yearly.waitFor();
    expect(await yearly.textContent()).toContain('$249.00 a year');
    expect(await dialog(p).getByTestId('upgrade-lifetime').textContent()).toContain('$750.00 once');
    await shot(p, 'upgrade-modal');
    await yearly.click();
    const confirm = dialog(p).getByRole('button', { name: 'Confirm upgrade' });
    // a double click is one upgrade
    await confirm.dblclick();
    await dialog(p).getByText(BILLING_MESSAGES.upgradeYearlyFull).waitFor();
    await dialog(p).getByRole('button', { name: 'Back to billing' }).click();
    await expect.poll(() => p.getByTestId('billing-plan').textContent()).toContain('Yearly');
    expect(await p.getByTestId('billing-price').textContent()).toContain('$249.00 a year');
    await p.getByRole('list', { name: 'Payments' }).getByText('$249.00').waitFor();
    expect(await p.getByRole('list', { name: 'Payments' }).getByText('$249.00').count()).toBe(1);
    expect(p.errors).toEqual([]);
  });

  it('pause for $5.00 a month from step 4, then resume', async () => {
    const p = await member(PHONE, 'card');
    await openCancel(p);
    await throughReason(p, CANCEL_REASONS[2].value, '', 'card');
    await dialog(p).getByTestId('choice-cancel').click();
    await cont(p).click();
    await step(p, 4).waitFor();
    await shot(p, 'card-step4');
    await dialog(p).getByLabel('Pause for $5.00 a month').check();
    await cont(p).click();
    await step(p, 0).getByText(BILLING_MESSAGES.pause).waitFor();
    await p.keyboard.press('Escape');
    await expect.poll(() => p.getByTestId('billing-next').textContent()).toBe('Paused');
    await shot(p, 'billing-paused');
    // a paused membership is resumed or cancelled, never upgraded
    expect(await p.getByRole('button', { name: 'Upgrade', exact: true }).count()).toBe(0);
    await p.getByRole('button', { name: 'Resume membership' }).click();
    await expect.poll(() => p.getByTestId('billing-next').textContent()).not.toBe('Paused');
    // the one pause is used: the page says so, and the cancel flow no longer offers it
    await p.getByTestId('billing-pause-used').getByText(BILLING_MESSAGES.pauseUsedNote).waitFor();
    await shot(p, 'billing-pause-used');
    expect(await p.getByRole('button', { name: 'Cancel or pause membership' }).count()).toBe(0);
    await p.getByRole('button', { name: 'Cancel membership', exact: true }).click();
    await step(p, 1).waitFor();
    await throughReason(p, CANCEL_REASONS[2].value, '', 'card-pause-used');
    await dialog(p).getByTestId('choice-cancel').click();
    await cont(p).click();
    await step(p, 5).waitFor();
    expect(await step(p, 4).count()).toBe(0);
    expect(p.errors).toEqual([]);
  });

  it('cancel through steps 1-5: access kept to the end of the period', async () => {
    const p = await member(DESKTOP, 'card');
    await openCancel(p);
    await throughReason(p, 'Switching to other website or lessons', `Trying another site ${stamp}`, 'card');
    await dialog(p).getByTestId('choice-cancel').click();
    await cont(p).click();
    await step(p, 4).waitFor();
    await shot(p, 'card-step4');
    await cont(p).click();
    await step(p, 5).waitFor();
    await shot(p, 'card-step5');
    await dialog(p).getByRole('button', { name: 'Cancel membership' }).click();
    await step(p, 0)
      .getByText(/Your membership is cancelled/)
      .waitFor();
    await p.keyboard.press('Escape');
    await expect.poll(() => p.getByTestId('billing-next').textContent()).toMatch(/^Ends on /);
    await shot(p, 'billing-cancelled');
    expect(p.errors).toEqual([]);
  });
});

describe('the PayPal cancel modal', () => {
  it('pause (free) from step 4, confirmed at step 5; the page reloads; resume', async () => {
    const p = await member(PHONE, 'paypal');
    expect(await p.getByTestId('billing-method').textContent()).toContain('PayPal');
    await openCancel(p);
    await throughReason(p, CANCEL_REASONS[3].value, '', 'paypal');
    expect(await dialog(p).getByTestId('lifetime-offer').textContent()).toContain('$600.00');
    await shot(p, 'paypal-step3');
    await cont(p).click();
    await step(p, 4).waitFor();
    await dialog(p).getByLabel('Pause my membership for free').check();
    await shot(p, 'paypal-step4');
    await cont(p).click();
    await step(p, 5).getByText('Pause your membership?').waitFor();
    await shot(p, 'paypal-step5-pause');
    await Promise.all([p.waitForEvent('load'), dialog(p).getByRole('button', { name: 'Pause membership' }).click()]);
    await expect.poll(() => p.getByTestId('billing-next').textContent()).toBe('Paused');
    await p.getByRole('button', { name: 'Resume membership' }).click();
    await expect.poll(() => p.getByTestId('billing-next').textContent()).not.toBe('Paused');
    await p.getByTestId('billing-pause-used').waitFor();
    // suspended once already: cancelling goes straight to the confirmation, with no switch to pause
    await p.getByRole('button', { name: 'Cancel membership', exact: true }).click();
    await step(p, 1).waitFor();
    await throughReason(p, CANCEL_REASONS[3].value, '', 'paypal-pause-used');
    await cont(p).click();
    await step(p, 5).getByText('Cancel your membership?').waitFor();
    expect(await dialog(p).getByRole('button', { name: 'Pause instead (free)' }).count()).toBe(0);
    expect(p.errors).toEqual([]);
  });

  it('cancel at step 5 offers the switch to pause; after cancelling access lasts to the period end', async () => {
    const p = await member(DESKTOP, 'paypal');
    await openCancel(p);
    await throughReason(p, 'Other', `PayPal leaver ${stamp}`, 'paypal');
    await cont(p).click();
    await step(p, 4).waitFor();
    await cont(p).click();
    await step(p, 5).getByText('Cancel your membership?').waitFor();
    expect(await dialog(p).getByRole('button', { name: 'Pause instead (free)' }).isVisible()).toBe(true);
    await shot(p, 'paypal-step5-cancel');
    await Promise.all([p.waitForEvent('load'), dialog(p).getByRole('button', { name: 'Cancel membership' }).click()]);
    await expect.poll(() => p.getByTestId('billing-next').textContent()).toMatch(/^Ends on /);
    expect(p.errors).toEqual([]);
  });
});

describe('the PayPal discounted lifetime', () => {
  it('a cancelled approval comes back with nothing charged; an approved one makes a lifetime member', async () => {
    const p = await member(PHONE, 'paypal');
    const toLifetime = async () => {
      await openCancel(p);
      await throughReason(p, CANCEL_REASONS[0].value, '', 'paypal-lifetime');
      await dialog(p)
        .getByLabel(/Yes, upgrade me to lifetime for \$600\.00/)
        .check();
      await Promise.all([
        p.waitForURL(/\/sandbox\/paypal\/approve\//),
        dialog(p).getByRole('button', { name: 'Check out with PayPal' }).click(),
      ]);
      expect(await p.getByTestId('sandbox-amount').textContent()).toBe('$600.00');
    };
    await toLifetime();
    await Promise.all([
      p.waitForURL(/\/account\/billing\?lifetime=canceled/),
      p.getByRole('button', { name: 'Cancel and return' }).click(),
    ]);
    await p.getByText(COMMERCE_MESSAGES.paymentCanceled).waitFor();
    expect(await p.getByTestId('billing-lifetime').count()).toBe(0);
    await toLifetime();
    await Promise.all([
      p.waitForURL((u) => u.pathname === '/account/billing' && !u.search),
      p.getByRole('button', { name: 'Approve payment' }).click(),
    ]);
    await p.getByTestId('billing-lifetime').waitFor();
    await shot(p, 'billing-lifetime');
    expect(await p.getByRole('button', { name: 'Cancel or pause membership' }).count()).toBe(0);
    expect(p.errors).toEqual([]);
  });
});

describe('pause, then resume days later', () => {
  const lesson = async (p: Page) => {
    const id = await p.evaluate(
      async () =>
        ((await (await fetch('/api/courses/groove-foundations')).json()) as { data: { lessons: { id: number }[] } })
          .data.lessons[0]!.id,
    );
    await p.goto(`/lessons/${id}`);
    await p.getByRole('heading', { level: 1 }).waitFor();
    return (await p.getByText(LEARNING.membersOnly).count()) === 0;
  };

  it.each([
    ['card', PHONE, '/account/billing/stripe/pause'],
    ['paypal', DESKTOP, '/account/billing/paypal/suspend'],
  ] as const)('%s: the lessons open again and the billing page says active', async (pay, viewport, pauseUrl) => {
    const p = await member(viewport, pay);
    expect(await lesson(p)).toBe(true);
    await p.goto('/account/billing');
    await api(p, 'POST', pauseUrl, await csrf(p), { reason: CANCEL_REASONS[2].value, reason_description: '' });
    expect(await lesson(p)).toBe(false);

    // five days go by at the provider (the sandbox's clock)
    await api(p, 'POST', '/sandbox/clock/advance', '', { days: 5 });
    await p.goto('/account/billing');
    await expect.poll(() => p.getByTestId('billing-next').textContent()).toBe('Paused');
    await p.getByRole('button', { name: 'Resume membership' }).click();
    await p.getByRole('status').filter({ hasText: BILLING_MESSAGES.resume }).waitFor();
    await expect.poll(() => p.getByTestId('billing-plan').textContent()).toContain('Active');
    await shot(p, `billing-resumed-${pay}`);

    // it stays so: after a reload, and the lesson plays
    await p.reload();
    expect(await p.getByTestId('billing-plan').textContent()).toContain('Active');
    expect(await p.getByTestId('billing-next').textContent()).not.toBe('Paused');
    expect(await p.getByRole('button', { name: 'Resume membership' }).count()).toBe(0);
    expect(await lesson(p)).toBe(true);
    expect(p.errors).toEqual([]);
  });
});

describe('the demo accounts see everything they have', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`member@demo.test: the monthly membership bought by card, with Upgrade and Cancel or pause (${viewport.width} px)`, async () => {
      const p = await newPage(browser, viewport);
      await signIn(p, 'member@demo.test', undefined, '/account/billing');
      await p.getByTestId('billing-plan').waitFor();
      expect(await p.getByText('You do not have a membership yet.').count()).toBe(0);
      expect(await p.getByTestId('billing-plan').textContent()).toContain('Monthly membership');
      expect(await p.getByTestId('billing-price').textContent()).toBe('$29.00 a month');
      expect(await p.getByTestId('billing-method').textContent()).toContain('Visa ending 4242');
      expect(await p.getByTestId('billing-next').textContent()).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
      await p.getByRole('button', { name: 'Upgrade', exact: true }).waitFor();
      await p.getByRole('button', { name: 'Cancel or pause membership' }).waitFor();
      // the dunning spec moves this academy's sandbox clock too, so renewals may have come since
      await p.getByRole('list', { name: 'Payments' }).getByText('$29.00').first().waitFor();
      await shot(p, 'demo-member');
      expect(p.errors).toEqual([]);
    });

    it(`student@demo.test: the mentorship in 6 card payments with its schedule, and no membership to upgrade (${viewport.width} px)`, async () => {
      const p = await newPage(browser, viewport);
      await signIn(p, 'student@demo.test', undefined, '/account/billing');
      const mentorship = p.getByTestId('billing-mentorship');
      await mentorship.waitFor();
      expect(await p.getByTestId('billing-mentorship-payment').textContent()).toBe('6 monthly payments of $650.00');
      // the first instalment at least (the dunning spec's moves of the sandbox clock may have brought more); what is left matches it
      const made = Number(
        /(\d) of 6 payments made/.exec((await mentorship.getByText(/\d of 6 payments made/).textContent()) ?? '')?.[1],
      );
      expect(made).toBeGreaterThanOrEqual(1);
      expect(await p.getByTestId('billing-next-instalment').textContent()).toMatch(
        /^\$650\.00 on [A-Z][a-z]+ \d{1,2}, \d{4}$/,
      );
      expect(await p.getByTestId('billing-remaining').textContent()).toBe(formatMoney((6 - made) * 650_00));
      await mentorship.getByText('Alex Rivera').waitFor();
      await p.getByText('You do not have a membership yet.').waitFor();
      expect(await p.getByRole('button', { name: 'Upgrade', exact: true }).count()).toBe(0);
      await shot(p, 'demo-student');
      expect(p.errors).toEqual([]);
    });
  }
});

describe('change card', () => {
  it('a card member replaces the card on file without any payment due', async () => {
    const p = await member(PHONE, 'card');
    await p.goto('/account/billing');
    expect(await p.getByTestId('billing-method').textContent()).toContain('ending 4242');
    await p.getByRole('button', { name: 'Change card' }).click();
    const form = p.getByRole('form', { name: 'Update your card' });
    await form.getByLabel('Name on card').fill('Maximiliana Featherstonehaugh-Okonkwo');
    await form.getByLabel('Card number').fill(SANDBOX_CARDS.failsLater);
    await form.getByLabel('Expiry (MM / YY)').fill('12 / 40');
    await form.getByLabel('CVC').fill('123');
    await form.getByRole('button', { name: 'Save card' }).click();
    await p.getByRole('status').filter({ hasText: DUNNING_MESSAGES.cardUpdated }).first().waitFor();
    await expect.poll(() => p.getByTestId('billing-method').textContent()).toContain('ending 0341');
    expect(await form.count()).toBe(0);
    // kept: the server has the new card
    await p.reload();
    expect(await p.getByTestId('billing-method').textContent()).toContain('ending 0341');
    expect(p.errors).toEqual([]);
  });
});

describe('access granted as well as bought', () => {
  it('a member with a subscription, a membership and a course granted by an admin sees each, the grant with its end date', async () => {
    const p = await member(DESKTOP, 'card');
    const me = await api<{ user: { id: number } }>(p, 'GET', '/api/me', await csrf(p));
    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test', undefined, '/admin');
    const token = await csrf(admin);
    await api(admin, 'POST', `/api/admin/members/${me.body.user.id}/entitlements`, token, {
      kind: 'membership',
      ends_at: '2031-03-04',
    });
    await api(admin, 'POST', `/api/admin/members/${me.body.user.id}/entitlements`, token, {
      kind: 'course:fills-that-flow',
    });
    for (const viewport of [PHONE, DESKTOP]) {
      await p.setViewportSize(viewport);
      await p.reload();
      await p.getByRole('heading', { name: 'Your memberships' }).waitFor();
      expect(await p.getByTestId('billing-plan').textContent()).toContain('Monthly membership');
      await p.getByTestId('billing-granted').getByText('the Backbeat team').waitFor();
      expect(await p.getByTestId('billing-granted-end').textContent()).toBe('Until March 4, 2031');
      const courses = p.getByTestId('billing-courses');
      await courses.getByText('Fills That Flow').waitFor();
      expect(await courses.getByRole('link', { name: 'Open course: Fills That Flow' }).getAttribute('href')).toBe(
        '/courses/fills-that-flow',
      );
      await shot(p, 'granted-and-bought');
    }
    expect(p.errors).toEqual([]);
  });
});

describe('admins', () => {
  it('see the stored reasons on /admin/cancellations', async () => {
    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'admin@demo.test', undefined, '/admin/cancellations');
    await p.getByText(`Money is tight ${stamp}`).waitFor();
    await p.getByText(`PayPal leaver ${stamp}`).waitFor();
    await p.getByText(`Trying another site ${stamp}`).waitFor();
    await shot(p, 'admin-cancellations');
    expect(p.errors).toEqual([]);
  });

  it('members cannot open it', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'member@demo.test', undefined, '/admin/cancellations');
    expect(await p.getByText(`Money is tight ${stamp}`).count()).toBe(0);
  });
});
