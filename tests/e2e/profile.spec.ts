import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { UPLOADS } from '#shared/learning';
import { DESKTOP, launchBrowser, newDrummer, newPage, PHONE, postAnswer } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

describe('profiles and friends', () => {
  it('status box: the owner edits, others only read', async () => {
    const me = await newPage(browser, PHONE);
    const owner = await newDrummer(me);
    await me.goto(owner.profilePath);
    await me.getByRole('button', { name: 'Edit status' }).click();
    await me.getByLabel('Your status').fill('Working on ghost notes at 90 bpm');
    await me.getByRole('button', { name: 'Save status' }).click();
    await me.getByText('Working on ghost notes at 90 bpm').waitFor();
    await me.getByText(/^Updated [A-Z][a-z]{2} \d{1,2}, \d{4}$/).waitFor();

    const other = await newPage(browser, DESKTOP);
    await newDrummer(other);
    await other.goto(owner.profilePath);
    await other.getByText('Working on ghost notes at 90 bpm').waitFor();
    expect(await other.getByRole('button', { name: 'Edit status' }).count()).toBe(0);
  });

  it('Add Friend → Request Pending; the other member is notified, accepts, and both are Friends', async () => {
    const a = await newPage(browser, DESKTOP);
    const b = await newPage(browser, PHONE);
    const asker = await newDrummer(a, { name: 'Riley Rimshot' });
    const asked = await newDrummer(b, { name: 'Casey Cowbell' });
    await a.goto(asked.profilePath);
    // the button changes at once; the request it cancels is known once the server has answered
    let added = postAnswer(a, /^\/friends$/);
    await a.getByRole('button', { name: 'Add Friend' }).click();
    await a.getByRole('button', { name: 'Request Pending' }).waitFor();
    expect((await added).ok()).toBe(true);
    // cancel and ask again: the friend button's state machine (docs/product/friends.md)
    const cancelled = postAnswer(a, /^\/friends\/\d+\/request$/);
    await a.getByRole('button', { name: 'Request Pending' }).click();
    await a.getByRole('button', { name: 'Add Friend' }).waitFor();
    expect((await cancelled).status()).toBe(200);
    added = postAnswer(a, /^\/friends$/);
    await a.getByRole('button', { name: 'Add Friend' }).click();
    await a.getByRole('button', { name: 'Request Pending' }).waitFor();
    expect((await added).ok()).toBe(true);

    await b.goto('/');
    await b.getByRole('button', { name: /^Notifications/ }).click();
    await b.getByRole('menu').getByText(`${asker.name} sent you a friend request.`).first().click();
    await b.getByRole('link', { name: 'Open' }).click();
    await b.waitForURL('**/friends');
    await b.getByRole('button', { name: 'Accept friend request' }).click();
    await b.getByRole('button', { name: 'Friends' }).waitFor();

    await a.reload();
    await a.getByRole('button', { name: 'Friends' }).waitFor();
    await a.getByRole('button', { name: 'Friends' }).click();
    await a.getByRole('button', { name: 'Add Friend' }).waitFor();
  });
});

describe('profile image modal', () => {
  it('checks the file here, uploads with a spinner, reloads with the new picture, and deletes it', async () => {
    const p = await newPage(browser, DESKTOP);
    await newDrummer(p);
    await p.goto('/account/profile');
    await p.getByRole('button', { name: 'Change profile image' }).click();
    const dialog = p.getByRole('dialog', { name: 'Profile image' });
    await dialog.getByText(UPLOADS.imageHint).waitFor();
    await dialog
      .getByLabel('Choose an image')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
    await dialog.getByText(UPLOADS.imageWrongType).waitFor();
    const png = await sharp({ create: { width: 80, height: 80, channels: 3, background: '#ea580c' } })
      .png()
      .toBuffer();
    await Promise.all([
      p.waitForEvent('load'),
      dialog.getByLabel('Choose an image').setInputFiles({ name: 'me.PNG', mimeType: 'image/png', buffer: png }),
    ]);
    const avatar = p.getByRole('button', { name: 'Account menu' }).locator('img');
    await expect.poll(() => avatar.getAttribute('src')).toMatch(/^\/files\/avatars\/[\w-]+\.png$/);
    await p.getByRole('button', { name: 'Change profile image' }).click();
    await p.getByRole('link', { name: 'Delete Current Image' }).click();
    // asked first; then the member stays on this page
    const reloaded = p.waitForEvent('load');
    await p.getByRole('alertdialog').getByRole('button', { name: 'Delete image' }).click();
    await reloaded;
    expect(new URL(p.url()).pathname).toBe('/account/profile');
    await expect
      .poll(() => p.getByRole('button', { name: 'Account menu' }).locator('img').getAttribute('src'))
      .toBe('/images/default-avatar.png');
  });
});

describe('account page: the sign-in address', () => {
  it('a wrong password is said under its field; the right one changes the address the page shows', async () => {
    const p = await newPage(browser, PHONE);
    const me = await newDrummer(p);
    await p.goto('/account/profile');
    const form = p.locator('form').filter({ has: p.getByRole('button', { name: 'Change e-mail address' }) });
    await form.getByText(me.email, { exact: true }).waitFor();
    const next = `moved-${Date.now().toString(36)}-${process.pid}@test.test`;
    await form.getByLabel('New e-mail address', { exact: true }).fill(next);
    await form.getByLabel('Confirm new e-mail address').fill(next);
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByRole('button', { name: 'Change e-mail address' }).click();
    await form.getByRole('alert').filter({ hasText: 'Please correct this field: Current password.' }).waitFor();
    await form.getByText('The current password is incorrect.').waitFor();
    expect(await form.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => p.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('current_password');

    await form.getByLabel('Current password').fill(me.password);
    await form.getByRole('button', { name: 'Change e-mail address' }).click();
    const done = form.getByRole('status').filter({ hasText: 'Your e-mail address has been changed.' });
    await done.waitFor();
    expect(await done.textContent()).toContain(next);
    await expect.poll(() => p.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('status');
    // the profile card and the form both show the new address, without a reload and after one
    await expect.poll(() => p.getByText(next, { exact: true }).count()).toBe(2);
    expect(await p.getByText(me.email, { exact: true }).count()).toBe(0);
    await p.reload();
    await expect.poll(() => p.getByText(next, { exact: true }).count()).toBe(2);
    expect(p.errors).toEqual([]);
  });
});

describe('student review modal', () => {
  it('needs a body, shows loading, then says thanks', async () => {
    const p = await newPage(browser, PHONE);
    await newDrummer(p, { member: true });
    await p.goto('/dashboard');
    await p.getByRole('button', { name: 'Leave a review' }).click();
    const dialog = p.getByRole('dialog', { name: 'Leave a review' });
    await dialog.getByRole('button', { name: 'Send review' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please correct this field: Your review.' }).waitFor();
    await dialog.getByText('The body is required.').waitFor();
    expect(await dialog.getByLabel('Your review').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Your review').fill('The ghost notes lesson finally made it click.');
    await dialog.getByRole('button', { name: 'Send review' }).click();
    await dialog.getByText('Thank you! Your review has been sent.').waitFor();
  });
});
