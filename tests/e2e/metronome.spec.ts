import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { tempoName } from '#shared/metronome';
import { DESKTOP, launchBrowser, newPage } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

it('a visitor taps a tempo, starts and stops with the space bar, opens panels one at a time; settings persist', async () => {
  const p = await newPage(browser, DESKTOP);
  await p.goto('/metronome');
  const bpm = p.getByLabel('BPM', { exact: true });
  expect(await bpm.inputValue()).toBe('120');
  expect(await p.getByTestId('tempo-name').textContent()).toBe('Allegro');

  // four taps about 600 ms apart (about 100 bpm): the tempo follows the taps' real spacing, which a
  // busy machine stretches, so the page records when each tap arrived
  const tapButton = p.getByRole('button', { name: 'Tap' });
  await tapButton.evaluate((button) => {
    const times: number[] = [];
    (window as unknown as { tapTimes: number[] }).tapTimes = times;
    button.addEventListener('click', () => times.push(performance.now()), { capture: true });
  });
  for (let i = 0; i < 4; i++) {
    await tapButton.click();
    // the spacing of the taps is the input (a tempo), not a wait for something to happen
    if (i < 3) await p.waitForTimeout(600);
  }
  const times = await p.evaluate(() => (window as unknown as { tapTimes: number[] }).tapTimes);
  expect(times).toHaveLength(4);
  const spaced = Math.round(60_000 / ((times[3]! - times[0]!) / 3));
  await expect
    .poll(async () => Math.abs(Number(await bpm.inputValue()) - spaced))
    .toBeLessThanOrEqual(Math.max(3, spaced * 0.05));
  const tapped = Number(await bpm.inputValue());
  expect(tapped).toBeLessThan(120);
  expect(await p.getByTestId('tempo-name').textContent()).toBe(tempoName(tapped));

  await p.locator('body').click({ position: { x: 5, y: 5 } });
  await p.keyboard.press('Space');
  await p.getByRole('button', { name: 'Stop' }).waitFor();
  // the beat indicator follows the audio clock
  await p.waitForSelector('button[aria-label^="Beat "].ring-2', { timeout: 5000 });
  await p.keyboard.press('Space');
  await p.getByRole('button', { name: 'Start', exact: true }).waitFor();

  await p.getByRole('button', { name: 'Meter' }).click();
  await p.getByRole('button', { name: 'More beats' }).click();
  expect(await p.getByRole('button', { name: /^Beat \d+ accent/ }).count()).toBe(5);
  await p.getByRole('button', { name: 'Beat 2 accent 2' }).click();
  await p.getByRole('button', { name: 'Beat 2 accent 3' }).waitFor();
  await p.getByRole('button', { name: 'Speed Training' }).click();
  expect(await p.getByRole('button', { name: 'More beats' }).count()).toBe(0);
  const step = p.getByLabel('Increase BPM by');
  await step.fill('150');
  await step.blur();
  expect(await step.inputValue()).toBe('99');

  await p.reload();
  // the page's code is its own chunk: wait for it to render before counting
  await p.getByRole('button', { name: 'Beat 2 accent 3' }).waitFor();
  expect(await p.getByRole('button', { name: /^Beat \d+ accent/ }).count()).toBe(5);
  expect(await p.getByRole('button', { name: 'Beat 2 accent 3' }).count()).toBe(1);
});
