import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMMERCE_MESSAGES as M, SANDBOX_CARDS } from '#shared/commerce';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

let seq = 0;
const uniqueEmail = () => `buyer${Date.now()}${++seq}@checkout.test`;

async function fillGuest(page: Page, email = uniqueEmail()) {
  await page.getByLabel('Your name').fill('Casey Groove');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Confirm email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('sticks-and-skins');
  return email;
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card holder name').fill('Casey Groove');
  const form = page.locator('#checkout-form');
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel(/Expiry/).fill(`12/${(new Date().getUTCFullYear() + 2) % 100}`);
  await form.getByLabel('CVC').fill('123');
}

/** on the sandbox's PayPal approval page: press Approve or Cancel, as a buyer at PayPal would */
async function paypalDecision(page: Page, decision: 'approve' | 'cancel') {
  await page.waitForURL(/\/sandbox\/paypal\/approve\//);
  await page.getByRole('button', { name: decision === 'approve' ? 'Approve payment' : 'Cancel and return' }).click();
}

async function entitlements(page: Page): Promise<string[]> {
  const res = await page.request.get('/api/me', { headers: { accept: 'application/json' } });
  return ((await res.json()) as { user: { entitlements: string[] } | null }).user?.entitlements ?? [];
}

describe('membership checkout', () => {
  it('a guest buys monthly by card: registers, pays, lands on /order, and is a member', async () => {
    const page = await newPage(browser, PHONE);
    await page.goto('/join');
    await page.getByRole('heading', { name: 'Join the Backbeat Academy' }).waitFor();
    // this suite's production server takes payments on the sandbox: the checkout says so
    expect(await page.getByRole('note', { name: 'Test mode' }).textContent()).toContain('No real money is taken');
    // monthly is the default, with its trial text
    expect(await page.locator('input[name="plan"][value="monthly"]').isChecked()).toBe(true);
    await page.getByTestId('plan-monthly').getByText('7-day free trial').waitFor();
    await page.getByTestId('plan-yearly').getByText('14-day free trial').waitFor();
    await reviewShot(page, 'checkout/join-390.png');
    await fillGuest(page);
    await fillCard(page, SANDBOX_CARDS.succeeds);
    await page.getByLabel(/I accept the/).check();
    await page.getByRole('button', { name: /Start my 7-day free trial/ }).click();
    await page.waitForURL(/\/order\?order=\d+/);
    await page.getByRole('heading', { name: "You're in!" }).waitFor();
    const details = page.getByTestId('order-details');
    await details.getByText('Monthly membership').waitFor();
    await details.getByText('$29.00 a month').waitFor();
    await details.getByText('Visa ending 4242').waitFor();
    await details.getByText('Free trial ends').waitFor();
    await reviewShot(page, 'checkout/order-390.png');
    expect(await entitlements(page)).toContain('membership');
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading').first().waitFor();
    expect(await page.getByRole('link', { name: 'See membership plans' }).count()).toBe(0);
    // back at the checkout: nothing more to pay
    await page.goto('/join');
    await page.getByText(M.alreadySubscribed).waitFor();
    await page.getByRole('link', { name: 'Manage billing' }).waitFor();
    expect(page.errors).toEqual([]);
  });

  it('a declined card shows the decline under the card field; a retry with 4242 works', async () => {
    const page = await newPage(browser, DESKTOP);
    await page.goto('/join');
    await page.getByTestId('plan-lifetime').click();
    await fillGuest(page);
    await fillCard(page, SANDBOX_CARDS.declined);
    await page.getByLabel(/I accept the/).check();
    await reviewShot(page, 'checkout/join-1280.png');
    await page.getByRole('button', { name: /Pay \$750\.00 and join/ }).click();
    const cardError = page.getByTestId('card-error');
    await cardError.waitFor();
    expect(await cardError.textContent()).toBe(M.cardDeclined);
    expect(await entitlements(page)).not.toContain('membership');
    // registered on the first try: the guest fields are gone, the card form is ready again
    await page.getByText(/Signed in as/).waitFor();
    await page.locator('#checkout-form').getByLabel('Card number').fill(SANDBOX_CARDS.succeeds);
    await page.getByRole('button', { name: /Pay \$750\.00 and join/ }).click();
    await page.waitForURL(/\/order\?order=\d+/);
    await page.getByTestId('order-details').getByText('Lifetime membership').waitFor();
    await page.getByText('Never: it is yours for good').waitFor();
    await reviewShot(page, 'checkout/order-1280.png');
    expect(await entitlements(page)).toContain('membership');
    expect(page.errors).toEqual([]);
  });

  it('yearly through PayPal: a new account approves at PayPal and lands on /order', async () => {
    const page = await newPage(browser, DESKTOP);
    // a fresh account, so the demo members stay as they are
    await page.goto('/join');
    const email = await fillGuest(page);
    await page.getByTestId('plan-yearly').click();
    await page.getByTestId('payment-paypal').click();
    expect(await page.getByLabel('Card holder name').count()).toBe(0);
    await page.getByLabel(/I accept the/).check();
    await page.getByRole('button', { name: 'Continue to PayPal' }).click();
    await paypalDecision(page, 'approve');
    await page.waitForURL(/\/order\?order=\d+/);
    await page.getByRole('heading', { name: "You're in!" }).waitFor();
    await page.getByTestId('order-details').getByText('Yearly membership').waitFor();
    await page.getByTestId('order-details').getByText('$249.00 a year').waitFor();
    expect(await entitlements(page)).toContain('membership');
    expect(email).toContain('@');
    expect(page.errors).toEqual([]);
  });

  it('lifetime through PayPal: the buyer cancels the approval and is told so', async () => {
    const page = await newPage(browser, PHONE);
    await signIn(page, 'free@demo.test', undefined, '/join');
    await page.getByText(/Signed in as/).waitFor();
    expect(await page.getByLabel('Your name').count()).toBe(0);
    await page.getByTestId('plan-lifetime').click();
    await page.getByTestId('payment-paypal').click();
    await page.getByLabel(/I accept the/).check();
    await page.getByRole('button', { name: 'Continue to PayPal' }).click();
    await paypalDecision(page, 'cancel');
    await page.waitForURL(/\/join\?paypal=cancelled/);
    const message = page.getByTestId('paypal-error');
    await message.waitFor();
    expect(await message.textContent()).toBe(M.paymentCanceled);
    expect(await entitlements(page)).not.toContain('membership');
    expect(page.errors).toEqual([]);
  });

  // the other plan and payment pairs: every plan is bought by card and by PayPal somewhere in this file
  for (const [plan, payment, label, amount] of [
    ['yearly', 'card', 'Yearly membership', '$249.00 a year'],
    ['monthly', 'paypal', 'Monthly membership', '$29.00 a month'],
    ['lifetime', 'paypal', 'Lifetime membership', '$750.00, paid once'],
  ] as const) {
    it(`${plan} by ${payment === 'card' ? 'card' : 'PayPal'}: a new account pays and lands on /order as a member`, async () => {
      const page = await newPage(browser, DESKTOP);
      await page.goto('/join');
      await fillGuest(page);
      await page.getByTestId(`plan-${plan}`).click();
      if (payment === 'paypal') await page.getByTestId('payment-paypal').click();
      else await fillCard(page, SANDBOX_CARDS.succeeds);
      await page.getByLabel(/I accept the/).check();
      await page
        .locator('#checkout-form')
        .getByRole('button', { name: /Continue to PayPal|Start my|Pay / })
        .click();
      if (payment === 'paypal') await paypalDecision(page, 'approve');
      await page.waitForURL(/\/order\?order=\d+/);
      await page.getByTestId('order-details').getByText(label).waitFor();
      await page.getByTestId('order-details').getByText(amount).waitFor();
      expect(await entitlements(page)).toContain('membership');
      expect(page.errors).toEqual([]);
    });
  }

  it('validation: each wrong field shows its message under it; the summary names them in order; focus on the first', async () => {
    const page = await newPage(browser, PHONE);
    await page.goto('/join');
    const submit = page.getByRole('button', { name: /Start my 7-day free trial/ });
    const form = page.locator('#checkout-form');
    const alerts = form.locator('[role="alert"]');
    const messageOf = async (label: string | RegExp) => {
      const field = form.getByLabel(label, { exact: typeof label === 'string' });
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      return page.locator(`[id="${await field.getAttribute('aria-describedby')}"]`).textContent();
    };
    await submit.click();
    await page.getByText(M.nameRequired).waitFor();
    expect(await alerts.allTextContents()).toEqual([
      'Please correct these 5 fields: Your name, Email, Password, Card holder name, I accept the DBO Terms and understand my membership renews until I cancel.',
    ]);
    expect(await messageOf('Your name')).toBe(M.nameRequired);
    expect(await messageOf('Email')).toBe(M.emailRequired);
    expect(await messageOf('Password')).toBe(M.passwordRequired);
    expect(await messageOf('Card holder name')).toBe(M.cardHolderRequired);
    expect(await messageOf(/I accept the/)).toBe(M.termsRequired);
    await expect.poll(() => form.getByLabel('Your name').evaluate((el) => el === document.activeElement)).toBe(true);
    // what is put right is no longer marked; the rest are, with their own messages
    await page.getByLabel('Your name').fill('Casey');
    await page.getByLabel('Email', { exact: true }).fill('casey@checkout.test');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await submit.click();
    await alerts
      .getByText(/^Please correct these 4 fields: Confirm email, Password, Card holder name, I accept/)
      .waitFor();
    expect(await form.getByLabel('Your name').getAttribute('aria-invalid')).toBeNull();
    expect(await messageOf('Confirm email')).toBe(M.emailsMustMatch);
    expect(await messageOf('Password')).toBe(M.passwordMin);
    await page.getByLabel('Confirm email').fill('casey@checkout.test');
    await page.getByLabel('Password', { exact: true }).fill('long-enough-now');
    await page.getByLabel('Card holder name').fill('Casey');
    await submit.click();
    await alerts.getByText(/^Please correct this field: I accept the/).waitFor();
    await reviewShot(page, 'checkout/join-errors-390.png');
    // nothing was sent: still a visitor
    expect(await entitlements(page)).toEqual([]);
    expect(page.errors).toEqual([]);
  });
});
