import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { SANDBOX_CARDS } from '#shared/commerce';
import { TAX_PERCENT_MESSAGE } from '#shared/receipts';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const shot = (p: Page, name: string) => reviewShot(p, `receipts/${name}-${p.viewportSize()!.width}.png`);
const stamp = Date.now().toString(36);
// after a resize the page settles (the header's menus and the side menu swap for the drawer) before it is measured
const noSidewaysScroll = async (p: Page) =>
  expect
    .poll(() => p.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 })
    .toBeLessThanOrEqual(p.viewportSize()!.width);

async function pdfTextOf(path: string) {
  const doc = await getDocumentProxy(new Uint8Array(await readFile(path)));
  return (await extractText(doc, { mergePages: true })).text.replace(/\s+/g, ' ');
}

describe('receipts', () => {
  it('a member buys a course, finds its receipt on the billing page, opens it and downloads the PDF', async () => {
    const p = await newPage(browser, PHONE);
    await p.goto('/checkout/double-kick-mastery?product=doublekick_159');
    const name = `Zoë Ålvarez-Ødegaard ${stamp}`;
    const email = `receipt-${stamp}@test.test`;
    await p.getByLabel('Name', { exact: true }).fill(name);
    await p.getByLabel('Email', { exact: true }).fill(email);
    await p.getByLabel('Confirm email').fill(email);
    await p.getByLabel('Password').fill('drumsdemo1');
    await p.getByRole('button', { name: 'Create account and continue' }).click();
    await p.getByText(`Signed in as ${name}`).waitFor();
    await p.getByLabel('Card number').fill(SANDBOX_CARDS.succeeds);
    await p.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await p.getByLabel('CVC').fill('123');
    await p.getByRole('button', { name: 'Pay Basic now' }).click();
    await p.waitForURL((u) => u.pathname === '/order' && u.searchParams.has('order'), { timeout: 15_000 });

    await p.goto('/account/billing');
    const list = p.getByTestId('payments');
    const row = list.getByRole('listitem').first();
    await row.getByText('$99.00').waitFor();
    const number = (await row.innerText()).match(/R-\d{6}/)![0];
    await noSidewaysScroll(p);
    await shot(p, 'receipts-billing');
    await p.setViewportSize(DESKTOP);
    await shot(p, 'receipts-billing');
    await p.setViewportSize(PHONE);

    await row.getByRole('link', { name: `View receipt ${number}` }).click();
    await p.waitForURL(`**/account/billing/receipts/${number}`);
    const receipt = p.getByTestId('receipt');
    await receipt.getByRole('heading', { name: 'Receipt' }).waitFor();
    expect(await receipt.getByTestId('receipt-number').innerText()).toBe(number);
    await receipt.getByText(name).waitFor();
    await receipt.getByText('Backbeat Drum Academy').waitFor();
    expect(await receipt.getByTestId('receipt-total').innerText()).toBe('$99.00');
    expect(await receipt.getByTestId('receipt-tax').innerText()).toBe('$0.00');
    expect(await receipt.getByTestId('receipt-method').innerText()).toBe('Visa ending 4242');
    await noSidewaysScroll(p);
    await shot(p, 'receipt-page');
    await p.setViewportSize(DESKTOP);
    await shot(p, 'receipt-page');

    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`receipt-${number}.pdf`);
    const text = await pdfTextOf((await download.path())!);
    for (const part of ['Receipt', number, 'Backbeat Drum Academy', name, email, '$99.00', 'Visa ending 4242'])
      expect(text).toContain(part);

    // another member cannot open it
    const other = await newPage(browser, DESKTOP);
    await signIn(other, 'member@demo.test', undefined, `/account/billing/receipts/${number}`);
    await other.getByRole('heading', { name: 'Receipt not found' }).waitFor();
    expect(p.errors).toEqual([]);
  });

  it('an admin refunds part of a subscription payment, told first that access stays; the member sees the credit note', async () => {
    // a member on a monthly trial upgrades to yearly: the upgrade is charged at once
    const member = await newPage(browser, DESKTOP);
    await member.goto('/join');
    // ends in a letter other than "s", so the admin's sentences below read "<name>’s"
    const name = `Sam ${stamp} Partial`;
    const email = `partial-${stamp}@test.test`;
    await member.getByLabel('Your name').fill(name);
    await member.getByLabel('Email', { exact: true }).fill(email);
    await member.getByLabel('Confirm email').fill(email);
    await member.getByLabel('Password', { exact: true }).fill('sticks-and-skins');
    await member.getByLabel('Card holder name').fill(name);
    const form = member.locator('#checkout-form');
    await form.getByLabel('Card number').fill(SANDBOX_CARDS.succeeds);
    await form.getByLabel(/Expiry/).fill(`12/${(new Date().getUTCFullYear() + 2) % 100}`);
    await form.getByLabel('CVC').fill('123');
    await member.getByLabel(/I accept the/).check();
    await member.getByRole('button', { name: /Start my 7-day free trial/ }).click();
    await member.waitForURL(/\/order\?order=\d+/);
    const upgraded = await member.evaluate(async () => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch('/account/billing/stripe/upgrade-yearly', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ idempotency_key: crypto.randomUUID() }),
      });
      return res.status;
    });
    expect(upgraded).toBe(200);

    for (const viewport of [DESKTOP, PHONE]) {
      const admin = await newPage(browser, viewport);
      await signIn(admin, 'admin@demo.test', undefined, `/admin/subscriptions?q=${encodeURIComponent(email)}`);
      await admin.getByText(email).first().waitFor();
      await admin
        .getByRole('button', { name: `Payments and refunds of ${name}` })
        .first()
        .click();
      const panel = admin.getByTestId('subscription-payments');
      await panel.getByText('$249.00').first().waitFor();
      await noSidewaysScroll(admin);
      if (viewport === PHONE) {
        await shot(admin, 'admin-subscription-payments');
        break;
      }
      await panel.getByRole('button', { name: 'Refund…' }).first().click();
      const amount = panel.getByLabel(/Amount to refund/);
      await amount.fill('50');
      const effect = panel.getByTestId('refund-effect');
      // polled on the panel's text, so a failure shows what the admin was told instead
      await expect
        .poll(() => panel.innerText(), { timeout: 30_000 })
        .toContain(`A partial refund of $50.00 keeps ${name}’s access until`);
      await shot(admin, 'admin-refund-form');
      // the whole payment would end the membership: said before anything is confirmed
      await amount.fill('249');
      await effect
        .getByText(`A full refund of the latest payment ends ${name}’s membership now and stops its renewals.`)
        .waitFor();
      await amount.fill('50');
      await panel.getByRole('button', { name: 'Refund $50.00' }).click();
      await admin
        .getByText(/Refunded \$50\.00 \(credit note CN-\d{6}\)/)
        .first()
        .waitFor();
      await panel.getByText('$50.00 refunded').waitFor();
      // who receipts name as the seller: the console's Receipts page
      await admin.goto('/admin/receipts');
      expect(await admin.getByLabel('Seller name').inputValue()).toBe('Backbeat Drum Academy');
      await admin.getByLabel('Tax included in prices (%)').fill('');
      await admin.getByRole('button', { name: 'Save' }).click();
      await admin.getByText(TAX_PERCENT_MESSAGE).first().waitFor();
      await shot(admin, 'admin-receipt-seller');
      await admin.setViewportSize(PHONE);
      await noSidewaysScroll(admin);
      await shot(admin, 'admin-receipt-seller');
      expect(admin.errors).toEqual([]);
    }

    await member.goto('/account/billing');
    const notes = member.getByTestId('payments');
    await notes.getByText('-$50.00').waitFor();
    await notes.getByText(/Credit note CN-\d{6}/).waitFor();
    await shot(member, 'receipts-billing-credit');
    // the credit note's own page names the receipt it refunds
    await notes.getByRole('link', { name: /View credit note CN-\d{6}/ }).click();
    const note = member.getByTestId('receipt');
    await note.getByRole('heading', { name: 'Credit note' }).waitFor();
    expect(await note.getByTestId('receipt-total').innerText()).toBe('-$50.00');
    await note.getByText(/Refund against receipt R-\d{6}/).waitFor();
    await shot(member, 'credit-note-page');
    await member.setViewportSize(PHONE);
    await noSidewaysScroll(member);
    await shot(member, 'credit-note-page');
    expect(member.errors).toEqual([]);
  });
});
