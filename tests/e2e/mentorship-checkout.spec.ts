import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { MENTORSHIP_MESSAGES } from '#shared/mentorship-checkout';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

let seq = 0;
const uniqueEmail = () => `student${Date.now()}${++seq}@mentorship.test`;
const expiry = `12/${(new Date().getUTCFullYear() + 2) % 100}`;

/** step 1 → "Create account" → the create step → step 2 */
async function createAccount(page: Page) {
  const answers: string[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/register'))
      void r.text().then(
        (t) => answers.push(`${r.status()} ${t}`),
        () => answers.push(`${r.status()}`),
      );
  });
  page.on('console', (m) => answers.push(`console ${m.type()} ${m.text()}`));
  await page.getByRole('button', { name: 'Create account' }).click();
  const email = uniqueEmail();
  await page.getByLabel('Your name').fill('Robin Rimshot');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Confirm email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('paradiddle-88');
  await page.getByRole('button', { name: 'Create account and continue' }).click();
  try {
    await page.getByText(`Signed in as ${email}`).waitFor({ timeout: 15_000 });
  } catch (err) {
    await reviewShot(page, `mentorship-checkout/failed-create-${seq}.png`);
    throw new Error(`${String(err)}\n${answers.join('\n')}\n${(await page.locator('body').innerText()).slice(0, 600)}`);
  }
  return email;
}

async function entitlements(page: Page): Promise<string[]> {
  const res = await page.request.get('/api/me', { headers: { accept: 'application/json' } });
  return ((await res.json()) as { user: { entitlements: string[] } | null }).user?.entitlements ?? [];
}

const atMentorship = (page: Page) => page.waitForURL((url) => url.pathname === '/mentorship', { timeout: 20_000 });

describe('mentorship checkout', () => {
  it('(a) a visitor creates an account in the checkout, pays in full on the hosted page with 4242 and lands in the mentorship', async () => {
    const page = await newPage(browser, PHONE);
    await page.goto('/mentorship/checkout');
    await page.getByRole('heading', { name: 'Join the mentorship programme' }).waitFor();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(await page.getByTestId('account-sign-in').getAttribute('href')).toBe('/login?to=%2Fmentorship%2Fcheckout');
    await reviewShot(page, 'mentorship-checkout/checkout-step1-390.png');
    await createAccount(page);
    await page.getByRole('heading', { name: 'Choose how to pay' }).waitFor();
    // the default options: pay in full (saves $700.00) and 3 × $1,200.00
    await page.getByTestId('option-onetime').getByText('$3,200.00').waitFor();
    await page.getByTestId('option-onetime').getByText('Save $700.00', { exact: true }).waitFor();
    await page.getByTestId('option-3').getByText('3 × $1,200.00').waitFor();
    expect(await page.getByTestId('option-6').count()).toBe(0);
    await reviewShot(page, 'mentorship-checkout/checkout-step2-390.png');
    await page.getByRole('button', { name: 'Pay $3,200.00 by card' }).click();
    await page.waitForURL(/\/sandbox\/checkout\/cs_test_/);
    await page.getByTestId('sandbox-amount').getByText('$3,200.00').waitFor();
    await page.getByLabel('Card number').fill(SANDBOX_CARDS.succeeds);
    await page.getByLabel(/Expiry/).fill(expiry);
    await page.getByLabel('CVC').fill('123');
    await reviewShot(page, 'mentorship-checkout/sandbox-hosted-390.png');
    await page.getByRole('button', { name: 'Pay $3,200.00' }).click();
    await atMentorship(page);
    expect(await entitlements(page)).toContain('mentorship');
    // back at the checkout: nothing more to pay
    await page.goto('/mentorship/checkout');
    await page.getByRole('heading', { name: "You're already in" }).waitFor();
    expect(page.errors).toEqual([]);
  });

  it('(b) PayPal instalments: ?showsix=1, choose 6, approve at the sandbox PayPal, land in the mentorship', async () => {
    const page = await newPage(browser, DESKTOP);
    await page.goto('/mentorship/checkout?showsix=1');
    await reviewShot(page, 'mentorship-checkout/checkout-step1-1280.png');
    await createAccount(page);
    await page.getByTestId('option-6').getByText('6 × $650.00').waitFor();
    expect(await page.getByTestId('option-3').count()).toBe(0);
    await page.getByTestId('option-6').click();
    await reviewShot(page, 'mentorship-checkout/checkout-step2-1280.png');
    // the PayPal buttons come 1 second after step 2 shows
    await page.getByTestId('paypal-buttons').waitFor();
    await page.getByRole('button', { name: /Subscribe: 6 × \$650\.00/ }).click();
    await page.waitForURL(/\/sandbox\/paypal\/approve\//);
    await page.getByTestId('sandbox-amount').getByText('$650.00').waitFor();
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await atMentorship(page);
    expect(await entitlements(page)).toContain('mentorship');
    expect(page.errors).toEqual([]);
  });

  it('(c) card instalments at /mentorship/stripe/1300: the card set-up, the charge page, then the mentorship', async () => {
    const page = await newPage(browser, PHONE);
    await page.goto('/mentorship/stripe/1300');
    await page.getByRole('heading', { name: '3 monthly payments' }).waitFor();
    await reviewShot(page, 'mentorship-checkout/stripe-1300-step1-390.png');
    await createAccount(page);
    await page.getByTestId('amount').getByText('$1,300.00').waitFor();
    const form = page.locator('#mentorship-card-form');
    await form.getByLabel('Card number').fill(SANDBOX_CARDS.succeeds);
    await form.getByLabel(/Expiry/).fill(expiry);
    await form.getByLabel('CVC').fill('123');
    await reviewShot(page, 'mentorship-checkout/stripe-1300-390.png');
    const charged = page.waitForURL(/\/mentorship\/stripe\/charge\?payment=1300&payment_method=pm_/);
    await page.getByRole('button', { name: 'Pay $1,300.00 now' }).click();
    await charged;
    await atMentorship(page);
    expect(await entitlements(page)).toContain('mentorship');
    expect(page.errors).toEqual([]);
  });

  it('(d) a declined card shows the provider message under the card; a card declined at the charge offers another card', async () => {
    const page = await newPage(browser, DESKTOP);
    await page.goto('/mentorship/stripe/3200');
    await createAccount(page);
    const form = page.locator('#mentorship-card-form');
    await form.getByLabel('Card number').fill(SANDBOX_CARDS.declined);
    await form.getByLabel(/Expiry/).fill(expiry);
    await form.getByLabel('CVC').fill('123');
    await reviewShot(page, 'mentorship-checkout/stripe-3200-1280.png');
    await page.getByRole('button', { name: 'Pay $3,200.00 now' }).click();
    const error = form.getByTestId('card-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(COMMERCE_MESSAGES.cardDeclined);
    // a card that attaches but is declined when charged: refused on the charge page
    await form.getByLabel('Card number').fill(SANDBOX_CARDS.failsLater);
    await page.getByRole('button', { name: 'Pay $3,200.00 now' }).click();
    await page.waitForURL(/\/mentorship\/stripe\/charge/);
    const chargeError = page.getByTestId('card-error');
    await chargeError.waitFor();
    expect(await chargeError.textContent()).toBe(COMMERCE_MESSAGES.cardDeclined);
    expect(await entitlements(page)).not.toContain('mentorship');
    await page.getByRole('link', { name: 'Try another card' }).click();
    await page.waitForURL((url) => url.pathname === '/mentorship/stripe/3200');
    await page.locator('#mentorship-card-form').waitFor();
    expect(page.errors).toEqual([]);
  });

  it('a student who opens the financing checkout is told they are already in, with the way to the mentorship', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'student@demo.test', undefined, '/mentorship/stripe/checkout');
    await p.getByRole('heading', { name: 'Finance your mentorship' }).waitFor();
    await p.getByRole('status').filter({ hasText: MENTORSHIP_MESSAGES.alreadyEnrolled }).waitFor();
    await p.getByRole('link', { name: 'Go to the mentorship area' }).waitFor();
    // a retry could not change the answer, so none is offered
    expect(await p.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(p.errors).toEqual([]);
  });

  it('desktop screenshot of /mentorship/stripe/1300', async () => {
    const page = await newPage(browser, DESKTOP);
    await page.goto('/mentorship/stripe/1300');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await reviewShot(page, 'mentorship-checkout/stripe-1300-step1-1280.png');
    expect(page.errors).toEqual([]);
  });
});
