import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { tempoName } from '#shared/metronome';
import { DESKTOP, launchBrowser, newPage } from './fixtures.ts';

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

  // four taps 600 ms apart: 100 bpm
  const tapButton = p.getByRole('button', { name: 'Tap' });
  for (let i = 0; i < 4; i++) {
    await tapButton.click();
    if (i < 3) await p.waitForTimeout(600);
  }
  // 600 ms between taps plus the browser's own click latency: about 100 bpm
  await expect.poll(async () => Number(await bpm.inputValue())).toBeLessThanOrEqual(100);
  const tapped = Number(await bpm.inputValue());
  expect(tapped).toBeGreaterThan(85);
  expect(await p.getByTestId('tempo-name').textContent()).toBe(tempoName(tapped));

  await p.locator('body').click({ position: { x: 5, y: 5 } });
  await p.keyboard.press('Space');
  await p.getByRole('button', { name: 'Stop' }).waitFor();
  // the beat indicator follows the audio clock
  await p.waitForSelector('button[aria-label^="Beat "].ring-2', { timeout: 5000 });
  await p.keyboard.press('Space');
  await p.getByRole('button', { name: 'Start' }).waitFor();

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
  // the page's code is its own chunk (issue 9): wait for it to render before counting
  await p.getByRole('button', { name: 'Beat 2 accent 3' }).waitFor();
  expect(await p.getByRole('button', { name: /^Beat \d+ accent/ }).count()).toBe(5);
  expect(await p.getByRole('button', { name: 'Beat 2 accent 3' }).count()).toBe(1);
});
