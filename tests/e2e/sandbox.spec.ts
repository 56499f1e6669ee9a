import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SANDBOX_CARDS } from '#shared/commerce';
import { DESKTOP, launchBrowser, newPage, PHONE } from '#test/e2e';

// The sandbox payment provider's own pages: the PayPal-like approval page (approve / cancel) and the
// card authentication (3-D Secure) page. Full purchases are tested by the checkout specs.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

async function postJson<T>(page: Page, url: string, data: unknown): Promise<T> {
  const res = await page.request.post(url, { data });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

describe('sandbox PayPal approval page', () => {
  it('approve: goes back to the return address with the token', async () => {
    const page = await newPage(browser, PHONE);
    const approval = await postJson<{ ref: string; url: string }>(page, '/sandbox/test/paypal', {
      kind: 'order',
      amount_cents: 750_00,
      description: 'Lifetime membership',
      return_url: '/join?plan=lifetime',
      cancel_url: '/join?canceled=1',
    });
    await page.goto(approval.url);
    await page.getByRole('heading', { name: 'Approve your payment' }).waitFor();
    expect(await page.getByTestId('sandbox-amount').textContent()).toBe('$750.00');
    await page.getByText('Lifetime membership').waitFor();
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.waitForURL((u) => u.searchParams.has('token'));
    const url = new URL(page.url());
    expect(url.pathname).toBe('/join');
    expect(url.searchParams.get('token')).toBe(approval.ref);
    expect(url.searchParams.get('plan')).toBe('lifetime');
    expect(page.errors).toEqual([]);
  });

  it('a subscription: trial text, approve returns subscription_id', async () => {
    const page = await newPage(browser, DESKTOP);
    const approval = await postJson<{ ref: string; url: string }>(page, '/sandbox/test/paypal', {
      kind: 'subscription',
      amount_cents: 29_00,
      description: 'Monthly membership',
      interval: 'month',
      trial_days: 7,
      return_url: '/join?plan=monthly',
      cancel_url: '/join',
    });
    await page.goto(approval.url);
    await page.getByRole('heading', { name: 'Approve your subscription' }).waitFor();
    await page.getByText('Free for 7 days, then $29.00 every month.').waitFor();
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.waitForURL((u) => u.searchParams.has('subscription_id'));
    expect(new URL(page.url()).searchParams.get('subscription_id')).toBe(approval.ref);
  });

  it('cancel: goes back to the cancel address, and the payment cannot be approved after', async () => {
    const page = await newPage(browser, PHONE);
    const approval = await postJson<{ ref: string; url: string }>(page, '/sandbox/test/paypal', {
      kind: 'order',
      amount_cents: 99_00,
      return_url: '/order',
      cancel_url: '/join?canceled=1',
    });
    await page.goto(approval.url);
    await page.getByRole('button', { name: 'Cancel and return' }).click();
    await page.waitForURL((u) => u.searchParams.has('token'));
    const url = new URL(page.url());
    expect(url.pathname).toBe('/join');
    expect(url.searchParams.get('canceled')).toBe('1');
    expect(url.searchParams.get('token')).toBe(approval.ref);
    await page.goto(approval.url);
    await page.getByText('This payment was cancelled.').waitFor();
    expect(await page.getByRole('button', { name: 'Approve payment' }).isDisabled()).toBe(true);
  });
});

describe('sandbox card authentication (3-D Secure)', () => {
  async function cardNeedingAuth(page: Page) {
    const { client_secret } = await postJson<{ client_secret: string }>(page, '/sandbox/test/setup-intents', {});
    const res = await page.request.post('/sandbox/setup-intents/confirm', {
      data: {
        client_secret,
        number: SANDBOX_CARDS.needsAuthentication,
        exp_month: 12,
        exp_year: new Date().getFullYear() + 3,
        cvc: '123',
        name: 'Ann',
      },
    });
    const body = (await res.json()) as { requires_action: boolean; payment_method: string; url: string };
    expect(body.requires_action).toBe(true);
    return body;
  }

  it('complete authentication makes the card usable and returns', async () => {
    const page = await newPage(browser, PHONE);
    const card = await cardNeedingAuth(page);
    expect(
      (
        (await (await page.request.get(`/sandbox/payment-methods/${card.payment_method}`)).json()) as {
          usable: boolean;
        }
      ).usable,
    ).toBe(false);
    await page.goto(`${card.url}?return=${encodeURIComponent('/join')}`);
    await page.getByRole('heading', { name: 'Sandbox 3-D Secure' }).waitFor();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((u) => u.searchParams.has('outcome'));
    expect(new URL(page.url()).searchParams.get('outcome')).toBe('complete');
    expect(
      (
        (await (await page.request.get(`/sandbox/payment-methods/${card.payment_method}`)).json()) as {
          usable: boolean;
        }
      ).usable,
    ).toBe(true);
  });

  it('fail authentication leaves the card unusable', async () => {
    const page = await newPage(browser, DESKTOP);
    const card = await cardNeedingAuth(page);
    await page.goto(card.url);
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    await page.getByText('Authentication failed. You can close this page.').waitFor();
    expect(
      (
        (await (await page.request.get(`/sandbox/payment-methods/${card.payment_method}`)).json()) as {
          usable: boolean;
        }
      ).usable,
    ).toBe(false);
  });
});
