import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DIAGNOSTIC, DONT_KNOW_16THS } from '#shared/diagnostic';
import { DESKTOP, launchBrowser, newPage, PHONE } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

it('a visitor takes the whole diagnostic and gets the result and a practice plan', async () => {
  const p = await newPage(browser, PHONE);
  await p.goto('/diagnostic');
  const choose = async (n: number, text: string | RegExp) => {
    await p.getByText(`Question ${n} of 9`).waitFor();
    await p.getByRole('button', { name: text }).click();
  };
  await choose(1, /^Advanced/);
  await choose(2, 'Yes, for a whole song');
  await p.getByText('Question 3 of 9').waitFor();
  await p.getByLabel('Tempo (bpm)').pressSequentially('1a5 0');
  expect(await p.getByLabel('Tempo (bpm)').inputValue()).toBe('150');
  await p.getByRole('button', { name: 'Next' }).click();
  await choose(4, 'The notes get uneven or flammed');
  await choose(5, 'Everything comes out loud');
  await choose(6, 'Speed up or slow down together');
  await choose(7, 'Double pedal');
  await choose(8, 'Under 30 seconds');
  await p.getByText('Question 9 of 9').waitFor();
  await p.getByRole('button', { name: 'See my result' }).click();
  // each empty field is marked with its message, the summary is said and focus goes to the first
  await p.getByRole('alert').filter({ hasText: 'Please correct these 2 fields: First name, Email.' }).waitFor();
  const firstName = p.getByLabel('First name');
  expect(await firstName.getAttribute('aria-invalid')).toBe('true');
  expect(await p.locator(`#${await firstName.getAttribute('aria-describedby')}`).textContent()).toBe(
    DIAGNOSTIC.nameRequired,
  );
  await expect.poll(() => firstName.evaluate((el) => el === document.activeElement)).toBe(true);
  await firstName.fill('Terry');
  expect(await firstName.getAttribute('aria-invalid')).toBeNull();
  await p.getByLabel('Email').fill('terry@example.test');
  await p.getByRole('button', { name: 'See my result' }).click();
  await p.getByRole('heading', { name: DIAGNOSTIC.resultTitle }).waitFor();
  expect(await p.getByRole('progressbar').count()).toBe(4);
  expect(await p.getByRole('progressbar', { name: 'Control' }).getAttribute('aria-valuenow')).toBe('67');
  await p.getByText('Your primary progress killer').waitFor();
  expect(await p.getByRole('link', { name: 'Open Practice Plan' }).getAttribute('href')).toBe(
    '/courses/double-kick-basics?plan=intermediate-double',
  );
});

it('"I don\'t know what 16th notes are" skips ahead to the pedal setup question', async () => {
  const p = await newPage(browser, DESKTOP);
  await p.goto('/diagnostic');
  await p.getByRole('button', { name: /^Intermediate/ }).click();
  await p.getByRole('button', { name: DONT_KNOW_16THS }).click();
  await p.getByText('Question 7 of 9').waitFor();
  await p.getByRole('heading', { name: 'Which pedal setup do you play?' }).waitFor();
});
