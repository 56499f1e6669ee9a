import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { LEARNING } from '#shared/learning';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const shot = (p: Page, name: string) => reviewShot(p, `products/${name}-${p.viewportSize()!.width}.png`);

const unique = () => `buyer-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@test.test`;

async function course(p: Page, slug: string) {
  return p.evaluate(
    async (s) =>
      ((await (await fetch(`/api/courses/${s}`)).json()) as { data: { id: number; lessons: { id: number }[] } }).data,
    slug,
  );
}

/** the checkout's own registration step (a visitor registers first, then pays) */
async function register(p: Page, name: string) {
  await p.getByLabel('Name', { exact: true }).fill(name);
  const email = unique();
  await p.getByLabel('Email', { exact: true }).fill(email);
  await p.getByLabel('Confirm email').fill(email);
  await p.getByLabel('Password').fill('drumsdemo1');
  await p.getByRole('button', { name: 'Create account and continue' }).click();
  await p.getByText(`Signed in as ${name}`).waitFor();
}

describe('double kick mastery', () => {
  it('a visitor picks Pro, registers in the checkout, pays by card and can open the course', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/double-kick-mastery/register?affiliate=drumshop');
    const pro = p.getByTestId('tier-pro');
    await pro.getByText('$165.00').waitFor();
    expect(await pro.locator('s').innerText()).toContain('$265.00');
    await pro.getByText(/of 60 spots left/).waitFor();
    await p.getByTestId('tier-basic').getByText('$99.00').waitFor();
    await shot(p, 'dk-register');
    await pro.getByRole('link', { name: 'Choose Pro' }).click();
    await p.waitForURL(
      (u) =>
        u.pathname === '/checkout/double-kick-mastery' &&
        u.searchParams.get('product') === 'doublekick_265' &&
        u.searchParams.get('affiliate') === 'drumshop',
    );
    expect(await p.getByRole('link', { name: 'Sign in' }).nth(1).getAttribute('href')).toBe(
      `/login?to=${encodeURIComponent('/checkout/double-kick-mastery?product=doublekick_265&affiliate=drumshop')}`,
    );
    await shot(p, 'dk-checkout');

    // the first registration error only, from the server
    await p.getByLabel('Name', { exact: true }).fill('Kick Buyer');
    await p.getByRole('button', { name: 'Create account and continue' }).click();
    await p.getByRole('alert').filter({ hasText: /email/i }).waitFor();
    await register(p, 'Kick Buyer');

    await p.getByLabel('Card number').fill(SANDBOX_CARDS.succeeds);
    await p.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await p.getByLabel('CVC').fill('123');
    await p.getByRole('button', { name: 'Pay Pro now' }).click();
    await p.waitForURL((u) => u.pathname === '/order' && u.searchParams.has('order'), { timeout: 15_000 });
    // the confirmation names the course bought and links to it
    await p.getByTestId('order-details').getByText('Double Kick Mastery: Pro').waitFor();
    expect(await p.getByRole('link', { name: 'Open the course' }).getAttribute('href')).toBe(
      '/courses/double-kick-basics',
    );

    const dk = await course(p, 'double-kick-basics');
    await p.goto(`/lessons/${dk.lessons[0]!.id}`);
    await p.getByRole('heading', { name: 'Heel Up or Heel Down?' }).waitFor();
    // the lesson's video (a poster with its play button until asked for: LessonVideo)
    await p.getByRole('button', { name: /^Play video: / }).waitFor();
    expect(await p.getByText(LEARNING.membersOnly).count()).toBe(0);
    // owning it already: the checkout says so instead of charging again
    await p.goto('/checkout/double-kick-mastery?product=doublekick_265');
    await p.getByRole('status').filter({ hasText: 'You already own this course' }).waitFor();
    expect(await p.getByRole('button', { name: 'Pay Pro now' }).count()).toBe(0);
    expect(p.errors).toEqual([]);
  });

  it('register and checkout pages at phone width', async () => {
    const p = await newPage(browser, PHONE);
    await p.goto('/double-kick-mastery/register?affiliate=drumshop');
    await p.getByRole('link', { name: 'Choose Basic' }).waitFor();
    await shot(p, 'dk-register');
    await p.getByRole('link', { name: 'Choose Basic' }).click();
    await p.waitForURL((u) => u.searchParams.get('product') === 'doublekick_159');
    await p.getByRole('button', { name: 'Create account and continue' }).waitFor();
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await shot(p, 'dk-checkout');
    expect(p.errors).toEqual([]);
  });
});

describe('course registration', () => {
  it('a visitor chooses Basic for a course, registers and pays with PayPal; a cancelled approval says so first', async () => {
    const p = await newPage(browser, PHONE);
    await p.goto('/courses');
    const fills = await course(p, 'fills-that-flow');
    await p.goto(`/checkout/course/register?course=${fills.id}&affiliate=drumshop`);
    await p.getByTestId('tier-basic').getByText('$49.00').waitFor();
    await shot(p, 'course-register');
    await p.getByRole('link', { name: 'Choose Basic' }).click();
    await p.waitForURL(
      (u) =>
        u.pathname === '/checkout/course' &&
        u.searchParams.get('level') === 'basic' &&
        u.searchParams.get('affiliate') === 'drumshop',
    );
    await register(p, 'Fill Buyer');
    await p.getByText('PayPal', { exact: true }).click();
    await shot(p, 'course-checkout');

    // cancel at PayPal: back at the checkout with the message, nothing bought
    await p.getByRole('button', { name: 'Continue to PayPal' }).click();
    await p.getByRole('button', { name: 'Cancel and return' }).click();
    await p.waitForURL((u) => u.pathname === '/checkout/course' && u.searchParams.get('paypal') === 'canceled');
    await p.getByTestId('paypal-error').filter({ hasText: COMMERCE_MESSAGES.paymentCanceled }).waitFor();

    await p.getByText('PayPal', { exact: true }).click();
    await p.getByRole('button', { name: 'Continue to PayPal' }).click();
    await p.getByTestId('sandbox-amount').filter({ hasText: '$49.00' }).waitFor();
    await p.getByRole('button', { name: 'Approve payment' }).click();
    await p.waitForURL((u) => u.pathname === '/order' && u.searchParams.has('order'), { timeout: 15_000 });

    await p.goto(`/lessons/${fills.lessons[1]!.id}`);
    await p.getByRole('heading', { name: 'Triplet Fills' }).waitFor();
    // the lesson's video (a poster with its play button until asked for: LessonVideo)
    await p.getByRole('button', { name: /^Play video: / }).waitFor();
    expect(await p.getByText(LEARNING.membersOnly).count()).toBe(0);
    expect(p.errors).toEqual([]);
  });
});
