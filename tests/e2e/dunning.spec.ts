import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMMERCE_MESSAGES, DEFAULT_CHECKOUT, SANDBOX_CARDS } from '#shared/commerce';
import { DUNNING_MESSAGES } from '#shared/dunning';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot } from '#test/e2e';

// Recovery from a failed payment in the browser (docs/product/dunning.md): a member whose card
// fails the first renewal reads why, with the amount, the next retry and until when lessons stay
// open; updates the card through the card form; pays; and sees the membership active again.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const stamp = Date.now().toString(36);
let seq = 0;
const shot = (p: Page, name: string) => reviewShot(p, `dunning/${name}-${p.viewportSize()!.width}.png`);

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

/** a new member on the monthly plan's free trial with the card that fails renewals; the trial ends and the payment fails */
async function pastDueMember(viewport: typeof PHONE) {
  const p = await newPage(browser, viewport);
  await p.goto('/login');
  const email = `dunning-${stamp}-${++seq}@test.test`;
  let { token } = await api(p, 'POST', '/register', await csrf(p), {
    name: `Dunning Drummer ${seq}`,
    email,
    email_confirmation: email,
    password: 'drumsdemo1',
  });
  const secret = await api<{ clientSecret: string }>(p, 'GET', '/order/stripe-client-secret', token);
  const pm = await api<{ payment_method: string }>(p, 'POST', '/sandbox/setup-intents/confirm', token, {
    client_secret: secret.body.clientSecret,
    number: SANDBOX_CARDS.failsLater,
    exp_month: 12,
    exp_year: 2040,
    cvc: '123',
    name: 'Dunning Drummer',
  });
  ({ token } = await api(p, 'POST', '/order/stripe', token, {
    checkout: 'academy',
    plan: 'monthly',
    stripeToken: pm.body.payment_method,
  }));
  await api(p, 'POST', '/sandbox/clock/advance', token, { days: DEFAULT_CHECKOUT.monthlyTrialDays });
  await p.goto('/account/billing');
  return p;
}

describe('a failed renewal on /account/billing', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`explains it, takes a new card and pays: active again (${viewport.width}px)`, async () => {
      const p = await pastDueMember(viewport);
      const section = p.getByRole('region', { name: DUNNING_MESSAGES.heading });
      await section.waitFor();
      await expect
        .poll(() => section.getByTestId('past-due-explain').textContent())
        .toContain('We could not collect your membership payment of $29.00 from Visa ending 0341');
      expect(await section.getByTestId('past-due-retry').textContent()).toMatch(
        /We will try again automatically on \w+ \d{1,2}, \d{4} \(retry 1 of 3\)\./,
      );
      expect(await section.getByTestId('past-due-grace').textContent()).toMatch(
        /Your lessons stay open until \w+ \d{1,2}, \d{4}\./,
      );
      expect(await p.getByTestId('billing-plan').textContent()).toContain('Payment due');
      // nothing to upgrade to while a payment is due
      expect(await p.getByRole('button', { name: 'Upgrade' }).count()).toBe(0);
      await shot(p, 'past-due');

      await section.getByRole('button', { name: 'Update card' }).click();
      const form = p.getByRole('form', { name: 'Update your card' });
      // the name is required, and its error belongs to the field
      await form.getByRole('button', { name: 'Save card and pay $29.00' }).click();
      const name = form.getByLabel('Name on card');
      await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
      expect(await p.locator(`#${await name.getAttribute('aria-describedby')}`).textContent()).toBe(
        'Please enter the name on your card.',
      );
      await name.fill('Maximiliana Featherstonehaugh-Okonkwo');
      // a declined card: the provider's words, tied to the card fields
      await form.getByLabel('Card number').fill(SANDBOX_CARDS.declined);
      await form.getByLabel('Expiry (MM / YY)').fill('12 / 40');
      await form.getByLabel('CVC').fill('123');
      await form.getByRole('button', { name: 'Save card and pay $29.00' }).click();
      const cardNumber = form.getByLabel('Card number');
      await expect.poll(() => cardNumber.getAttribute('aria-invalid')).toBe('true');
      expect(await p.locator(`#${await cardNumber.getAttribute('aria-describedby')}`).textContent()).toBe(
        COMMERCE_MESSAGES.cardDeclined,
      );
      await shot(p, 'past-due-card-declined');

      await cardNumber.fill(SANDBOX_CARDS.succeeds);
      await form.getByRole('button', { name: 'Save card and pay $29.00' }).click();
      await p.getByText(DUNNING_MESSAGES.paid).first().waitFor();
      await expect.poll(() => p.getByTestId('billing-plan').textContent()).toContain('Active');
      expect(await p.getByTestId('billing-method').textContent()).toContain('Visa ending 4242');
      expect(await section.count()).toBe(0);
      await p.reload();
      await p.getByTestId('billing-plan').waitFor();
      expect(await p.getByTestId('billing-plan').textContent()).toContain('Active');
      expect(await p.getByTestId('past-due').count()).toBe(0);
      await shot(p, 'recovered');
      expect(p.errors).toEqual([]);
      await p.context().close();
    });
  }

  it('ends the membership with a clear notice when the last retry fails', async () => {
    const p = await pastDueMember(PHONE);
    await p.getByTestId('past-due').waitFor();
    const { token } = await api(p, 'GET', '/api/billing', await csrf(p));
    for (const days of [3, 2, 2]) await api(p, 'POST', '/sandbox/clock/advance', token, { days });
    await p.reload();
    const ended = p.getByRole('region', { name: DUNNING_MESSAGES.endedHeading });
    await ended.waitFor();
    expect(await ended.textContent()).toMatch(
      /Your membership ended on \w+ \d{1,2}, \d{4} because we could not collect the payment of \$29\.00 after 3 retries\./,
    );
    expect(await ended.getByRole('link', { name: 'See membership plans' }).getAttribute('href')).toBe('/join');
    expect(await p.getByTestId('past-due').count()).toBe(0);
    expect(await p.getByRole('button', { name: /Upgrade|Cancel/ }).count()).toBe(0);
    await shot(p, 'ended');
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('sends a PayPal member to PayPal to fix the funding source, then shows the membership active', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/login');
    const email = `dunning-${stamp}-${++seq}@test.test`;
    let { token } = await api(p, 'POST', '/register', await csrf(p), {
      name: `Dunning PayPal Drummer ${seq}`,
      email,
      email_confirmation: email,
      password: 'drumsdemo1',
    });
    const approval = await api<{ url: string }>(p, 'POST', '/paypal/get-approval-url', token, {
      checkout: 'academy',
      plan: 'monthly',
    });
    token = approval.token;
    const ref = approval.body.url.split('?')[0]!.split('/').pop()!;
    const back = await api<{ url: string }>(p, 'POST', `/sandbox/paypal/approve/${ref}`, token);
    await p.goto(back.body.url);
    await api(p, 'POST', `/sandbox/test/paypal/${ref}/funding`, token, { fails: true });
    await api(p, 'POST', '/sandbox/clock/advance', token, { days: DEFAULT_CHECKOUT.monthlyTrialDays });
    await p.goto('/account/billing');
    const section = p.getByRole('region', { name: DUNNING_MESSAGES.heading });
    await section.waitFor();
    expect(await section.getByTestId('past-due-explain').textContent()).toContain('$29.00 from PayPal');
    expect(await section.textContent()).toContain(DUNNING_MESSAGES.paypalHint);
    expect(await section.getByRole('button', { name: 'Update card' }).count()).toBe(0);
    const fix = section.getByRole('link', { name: 'Fix my payment at PayPal' });
    expect(await fix.getAttribute('href')).toBe(`/sandbox/paypal/approve/${ref}`);
    await shot(p, 'past-due-paypal');

    await fix.click();
    await p.getByRole('button', { name: 'Approve payment' }).click();
    await p.waitForURL((url) => url.pathname === '/account/billing' && url.searchParams.get('paypal') === 'fixed');
    await p.getByRole('status').filter({ hasText: DUNNING_MESSAGES.paid }).waitFor();
    await expect.poll(() => p.getByTestId('billing-plan').textContent()).toContain('Active');
    expect(await p.getByTestId('past-due').count()).toBe(0);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });
});
