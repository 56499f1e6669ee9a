import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { userChannel } from '#shared/realtime';
import { authId, launchBrowser, newPage, PHONE, signIn, watchChannels } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

it('a quiz from 10 percent to "Completed", then "Congratulations!" with points, a popup and achievements', async () => {
  const p = await newPage(browser, PHONE);
  const channels = watchChannels(p);
  await signIn(p, 'admin@demo.test', undefined, '/courses/groove-foundations');
  await p.getByRole('link', { name: /Playing to a Click/ }).click();
  const progress = p.getByRole('progressbar', { name: 'Quiz progress' });
  await progress.waitFor();
  // the popup and the points flash come over the admin's own channel
  await channels.joined(userChannel(await authId(p)));
  expect(await progress.getAttribute('aria-valuenow')).toBe('10');
  const answer = async (name: string | RegExp) =>
    p.getByRole('region').or(p.locator('section[aria-labelledby="quiz"]')).getByRole('button', { name }).click();
  await answer('Beats 1 and 3');
  await answer('Option 2');
  await answer('240');
  await p.getByText('Completed', { exact: true }).waitFor();
  expect(await p.getByRole('link', { name: 'Continue' }).count()).toBe(0);

  await p.getByRole('button', { name: 'Try again' }).click();
  await answer('Beats 2 and 4');
  await answer('Option 1');
  await p.getByRole('button', { name: '120', exact: true }).click();
  // the popup is modal: it comes first, and hides the page until it is closed
  const popup = p.getByRole('dialog', { name: 'Achievement unlocked!' });
  await popup.getByText('Quiz Whiz').waitFor();
  expect(await popup.getByRole('link', { name: 'See your achievements' }).getAttribute('href')).toBe('/achievements');
  await popup.getByRole('button', { name: 'Keep practising' }).click();
  await p.getByText('Congratulations!').waitFor();
  expect(await p.getByRole('link', { name: 'Continue' }).getAttribute('href')).toMatch(/^\/lessons\/\d+$/);
  await p.getByRole('status').filter({ hasText: 'Earned 20 point(s) - Quiz passed' }).waitFor();
  await p.goto('/achievements');
  await p.waitForURL('**/achievements');
  await p.getByRole('heading', { name: 'Quiz Whiz' }).waitFor();
  await p
    .getByText(/^Earned [A-Z][a-z]{2} \d{1,2}, \d{4}$/)
    .first()
    .waitFor();
});
