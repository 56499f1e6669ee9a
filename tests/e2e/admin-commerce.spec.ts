import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_CHECKOUT, SANDBOX_CARDS } from '#shared/commerce';
import { ORDER_MESSAGES, WEBHOOK_RETRY_MESSAGES } from '#shared/admin-commerce';
import { signSandboxPayload } from '#server/modules/payments/sandbox/index';
import { baseURL, DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const shot = (p: Page, name: string) => reviewShot(p, `admin-commerce/${name}-${p.viewportSize()!.width}.png`);
const stamp = Date.now().toString(36);

/** the message shown under a labelled field (Field links it with aria-describedby) */
async function fieldError(p: Page, label: string) {
  const input = p.getByLabel(label, { exact: true });
  await expect.poll(async () => input.getAttribute('aria-describedby')).not.toBeNull();
  const id = (await input.getAttribute('aria-describedby'))!;
  return p.locator(`[id="${id}"]`).innerText();
}

async function setHeading(p: Page, heading: string) {
  await p.getByLabel('Heading', { exact: true }).fill(heading);
  await p.getByRole('button', { name: 'Save plan' }).click();
  await p.getByText('Plan saved. The checkout shows it now.').first().waitFor();
}

describe('membership plans', () => {
  it('refuses a crossed-out price below the price next to its field, saves a valid edit that /join shows, and puts it back', async () => {
    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'admin@demo.test', undefined, '/admin/plans');
    const heading = p.getByLabel('Heading', { exact: true });
    await heading.waitFor();
    const original = await heading.inputValue();
    const crossed = p.getByLabel('Monthly crossed-out price ($)', { exact: true });
    const crossedBefore = await crossed.inputValue();
    try {
      await heading.fill(`Spring sale ${stamp}`);
      await crossed.fill('1');
      await p.getByRole('button', { name: 'Save plan' }).click();
      expect(await fieldError(p, 'Monthly crossed-out price ($)')).toBe(
        'The monthly crossed-out price must be above the monthly price.',
      );
      await shot(p, 'admin-plans-error');

      await crossed.fill(crossedBefore);
      await p.getByRole('button', { name: 'Save plan' }).click();
      await p.getByText('Plan saved. The checkout shows it now.').first().waitFor();

      const join = await newPage(browser, PHONE);
      await join.goto('/join/academy');
      await join.getByRole('heading', { name: `Spring sale ${stamp}` }).waitFor();
      expect(join.errors).toEqual([]);
    } finally {
      await setHeading(p, original || DEFAULT_CHECKOUT.heading);
    }
    const check = await newPage(browser, DESKTOP);
    await check.goto('/join/academy');
    await check.getByRole('heading', { name: original || DEFAULT_CHECKOUT.heading }).waitFor();
    expect(p.errors).toEqual([]);
  });
});

describe('orders', () => {
  it('a newly registered member buys a tier in the sandbox; the admin refunds it and the order shows refunded', async () => {
    const buyer = await newPage(browser, DESKTOP);
    await buyer.goto('/checkout/double-kick-mastery?product=doublekick_159');
    const name = `Refund Buyer ${stamp}`;
    const email = `refund-${stamp}@test.test`;
    await buyer.getByLabel('Name', { exact: true }).fill(name);
    await buyer.getByLabel('Email', { exact: true }).fill(email);
    await buyer.getByLabel('Confirm email').fill(email);
    await buyer.getByLabel('Password').fill('drumsdemo1');
    await buyer.getByRole('button', { name: 'Create account and continue' }).click();
    await buyer.getByText(`Signed in as ${name}`).waitFor();
    await buyer.getByLabel('Card number').fill(SANDBOX_CARDS.succeeds);
    await buyer.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await buyer.getByLabel('CVC').fill('123');
    await buyer.getByRole('button', { name: 'Pay Basic now' }).click();
    await buyer.waitForURL((u) => u.pathname === '/order' && u.searchParams.has('order'), { timeout: 15_000 });
    const orderId = new URL(buyer.url()).searchParams.get('order')!;

    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'admin@demo.test', undefined, `/admin/orders?q=${encodeURIComponent(email)}`);
    await p.getByText(email).first().waitFor();
    await p.getByRole('button', { name: `#${orderId}` }).click();
    const detail = p.getByTestId('order-detail');
    await detail.getByTestId('order-status').getByText('Paid', { exact: true }).waitFor();
    await shot(p, 'admin-order');
    await detail.getByRole('button', { name: 'Refund' }).click();
    await p.getByRole('alertdialog').getByRole('button', { name: 'Refund' }).click();
    await p.getByText(ORDER_MESSAGES.refunded).first().waitFor();
    await detail.getByTestId('order-status').getByText('Refunded', { exact: true }).waitFor();
    expect(await detail.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    // the list shows it too
    await p.getByRole('table').getByText('Refunded', { exact: true }).waitFor();
    expect(p.errors).toEqual([]);
  });

  it('the orders page works at phone width (no sideways scrolling)', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'admin@demo.test', undefined, '/admin/orders');
    await p.getByRole('heading', { name: 'Orders' }).waitFor();
    await p.getByRole('search').waitFor();
    await p.locator('table, p:has-text("No orders match.")').first().waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(p, 'admin-orders');
    expect(p.errors).toEqual([]);
  });
});

describe('the other commerce pages', () => {
  it('open for an admin: subscriptions, courses for sale, mentorship pricing, retention, cancellations', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'admin@demo.test', undefined, '/admin/subscriptions');
    await p.getByRole('heading', { name: 'Subscriptions' }).waitFor();
    await p.goto('/admin/products');
    await p.getByRole('heading', { name: 'Courses for sale' }).waitFor();
    await p.getByText('Double Kick Mastery: Pro').first().waitFor();
    await p.goto('/admin/mentorship-pricing');
    await p.getByLabel('Show the 6-payment plan').waitFor();
    await p.goto('/admin/retention');
    const pct = p.getByLabel('Monthly discount (%)', { exact: true });
    await pct.fill('0');
    await p.getByRole('button', { name: 'Save' }).click();
    expect(await fieldError(p, 'Monthly discount (%)')).toBe('The monthly discount must be at least 1.');
    await p.goto('/admin/cancellations');
    await p.getByRole('heading', { name: 'Cancellations' }).waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(p.errors).toEqual([]);
  });
});

describe('mentorship pricing', () => {
  it('an admin makes the 6-payment plan the default: the checkout shows it without ?showsix=1; then puts it back', async () => {
    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test', undefined, '/admin/mentorship-pricing');
    const six = admin.getByLabel('Show the 6-payment plan');
    await six.waitFor();
    expect(await six.isChecked()).toBe(false);
    const save = async () => {
      await admin.getByRole('button', { name: 'Save' }).click();
      await admin.getByText('Saved.').first().waitFor();
    };
    try {
      await six.check();
      await save();
      const p = await newPage(browser, PHONE);
      await signIn(p, 'free@demo.test', undefined, '/mentorship/checkout');
      await p.getByTestId('option-6').waitFor();
      expect(await p.getByTestId('option-3').count()).toBe(0);
      expect(p.errors).toEqual([]);
    } finally {
      await admin.reload();
      await six.waitFor();
      if (await six.isChecked()) {
        await six.uncheck();
        await save();
      }
    }
    expect(admin.errors).toEqual([]);
  });

  it('a ?downsell=1 link shows the $1,600 option only after an admin lets links offer it', async () => {
    const visitor = await newPage(browser, PHONE);
    await signIn(visitor, 'free@demo.test', undefined, '/mentorship/checkout?downsell=1');
    await visitor.getByTestId('option-onetime').waitFor();
    expect(await visitor.getByTestId('option-onetime1600').count()).toBe(0);

    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test', undefined, '/admin/mentorship-pricing');
    const byLink = admin.getByLabel('Links may offer the $1,600 downsell');
    const save = async () => {
      await admin.getByRole('button', { name: 'Save' }).click();
      await admin.getByText('Saved.').first().waitFor();
    };
    try {
      await byLink.check();
      await save();
      await visitor.reload();
      await visitor.getByTestId('option-onetime1600').waitFor();
      expect(await visitor.getByTestId('option-onetime').count()).toBe(0);
      expect(visitor.errors).toEqual([]);
    } finally {
      await admin.reload();
      await byLink.waitFor();
      if (await byLink.isChecked()) {
        await byLink.uncheck();
        await save();
      }
    }
    expect(admin.errors).toEqual([]);
  });
});

describe('webhook failures', () => {
  it('an admin retries a failed delivery from the list and hears what happened', async () => {
    // a signed delivery the server could not read: listed, with a Retry that asks the sandbox again
    const eventId = `evt_e2e_retry_${Date.now()}`;
    const body = JSON.stringify({ id: eventId, type: 'invoice.paid', created: Math.floor(Date.now() / 1000) });
    const res = await fetch(new URL('/webhooks/sandbox', baseURL()), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'sandbox-signature': signSandboxPayload('whsec_sandbox_e2e', body),
      },
      body,
    });
    expect(res.status).toBe(400);
    const p = await newPage(browser, PHONE);
    await signIn(p, 'admin@demo.test', undefined, '/admin/webhook-failures');
    await p.getByLabel('Search event id, type or problem').fill(eventId);
    const retry = p.getByRole('button', { name: `Retry invoice.paid ${eventId}` });
    await retry.click();
    await p
      .getByRole('status')
      .filter({ hasText: WEBHOOK_RETRY_MESSAGES.unknownToProvider('Sandbox') })
      .first()
      .waitFor();
    // still open, and still offered
    await retry.waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(p.errors).toEqual([]);
  });
});
