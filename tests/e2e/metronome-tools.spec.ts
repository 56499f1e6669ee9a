import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PLAYLIST } from '#shared/metronome';
import { before, idealFrames, onsets, TRACK_RATE, worstError } from '#test/onsets';
import { DESKTOP, launchBrowser, newDrummer, newPage, PHONE, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

async function setBpm(p: Page, bpm: number) {
  const field = p.getByLabel('BPM', { exact: true });
  await field.fill(String(bpm));
  await field.press('Tab');
  await expect.poll(() => field.inputValue()).toBe(String(bpm));
}

/** Opens the Speed Training panel and fills its four fields. */
async function speedTraining(p: Page, o: { initial: number; final: number; step: number; bars: number }) {
  await p.getByRole('button', { name: 'Speed Training' }).click();
  const fields: Array<[string, number]> = [
    ['Initial BPM', o.initial],
    ['Final BPM', o.final],
    ['Increase BPM by', o.step],
    ['Every X bars', o.bars],
  ];
  for (const [label, value] of fields) {
    await p.getByLabel(label).fill(String(value));
    await p.getByLabel(label).press('Tab');
  }
}

async function downloadTrack(p: Page): Promise<Buffer> {
  const [download] = await Promise.all([
    p.waitForEvent('download'),
    p.getByRole('button', { name: 'Download WAV' }).click(),
  ]);
  return readFile((await download.path())!);
}

describe('click timing, rendered with an OfflineAudioContext', () => {
  it('every click starts within one sample frame of the ideal grid at 40, 120, 240 and 400 bpm', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/metronome');
    await p.getByLabel('Length').selectOption('1');
    for (const bpm of [40, 120, 240, 400]) {
      await setBpm(p, bpm);
      const { rate, frames: all } = onsets(await downloadTrack(p));
      expect(rate).toBe(TRACK_RATE);
      const frames = before(all, 60);
      const ideal = idealFrames(60, () => bpm);
      expect(ideal.length).toBe(bpm); // one minute of quarter notes
      expect(frames).toHaveLength(ideal.length);
      expect(worstError(frames, ideal), `${bpm} bpm`).toBeLessThan(1);
    }
    expect(p.errors).toEqual([]);
  });

  it('a speed-training run changes tempo exactly at the bar line, step by step, and stays on the final bpm', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/metronome');
    await speedTraining(p, { initial: 60, final: 125, step: 10, bars: 1 });
    await p.getByLabel('Length').selectOption('1');
    await p.getByLabel('Follow speed training').check();
    const frames = before(onsets(await downloadTrack(p)).frames, 60);
    // 60, 70, ..., 120, then 125 (a step that would pass the final bpm lands on it), and it stays there
    const bpmOfBar = (bar: number) => Math.min(60 + bar * 10, 125);
    const ideal = idealFrames(60, bpmOfBar);
    expect(frames).toHaveLength(ideal.length);
    expect(worstError(frames, ideal), 'speed training').toBeLessThan(1);
  });
});

describe('saved settings', () => {
  it('a visitor saves, favourites, renames, loads and deletes settings in this browser', async () => {
    const p = await newPage(browser, PHONE);
    await p.goto('/metronome');
    await setBpm(p, 96);
    await p.getByRole('button', { name: 'Save current settings' }).click();
    const dialog = p.getByRole('dialog', { name: 'Save settings' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(PLAYLIST.nameRequired).waitFor();
    // the space bar ticks the box and does not start the metronome while the modal is open
    await dialog.getByLabel('Mark as favourite').focus();
    await p.keyboard.press('Space');
    expect(await dialog.getByLabel('Mark as favourite').isChecked()).toBe(true);
    expect(await p.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    await dialog.getByLabel('Name').fill('Warm-up');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await p.getByRole('button', { name: 'Rename Warm-up' }).click();
    await p.getByLabel('New name for Warm-up').fill('Singles warm-up');
    await p.getByLabel('New name for Warm-up').press('Enter');
    const star = p.getByRole('button', { name: 'Favourite Singles warm-up' });
    expect(await star.getAttribute('aria-pressed')).toBe('true');
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('false');

    await setBpm(p, 150);
    await p.reload();
    await p.getByRole('button', { name: 'Load Singles warm-up' }).click();
    await expect.poll(() => p.getByLabel('BPM', { exact: true }).inputValue()).toBe('96');

    await p.getByRole('button', { name: 'Delete Singles warm-up' }).click();
    await p.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await p.getByRole('button', { name: 'Load Singles warm-up' }).waitFor({ state: 'detached' });
    await p.reload();
    expect(await p.getByRole('button', { name: 'Load Singles warm-up' }).count()).toBe(0);
  });

  it("a member's list follows them to another device", async () => {
    const a = await newPage(browser, DESKTOP);
    // a member of this test's own: the list it saves is theirs alone
    const member = await newDrummer(a, { member: true });
    await a.goto('/metronome');
    await setBpm(a, 132);
    await a.getByRole('button', { name: 'Save current settings' }).click();
    await a.getByRole('dialog').getByLabel('Name').fill('Gig tempo');
    await a.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await a.getByRole('button', { name: 'Load Gig tempo' }).waitFor();

    const b = await newPage(browser, PHONE);
    await signIn(b, member.email, member.password, '/metronome');
    await b.getByRole('button', { name: 'Load Gig tempo' }).click();
    await expect.poll(() => b.getByLabel('BPM', { exact: true }).inputValue()).toBe('132');
  });
});

it('after a speed-training run a member logs it to the journal with its starting and reached tempo', async () => {
  const p = await newPage(browser, DESKTOP);
  // a member of this test's own, whose journal holds only this run
  await newDrummer(p, { member: true });
  await p.goto('/metronome');
  await speedTraining(p, { initial: 200, final: 240, step: 20, bars: 1 });
  await p.getByRole('button', { name: 'Start speed training' }).click();
  // two bars at 200 and 220, then 240
  await expect.poll(() => p.getByLabel('BPM', { exact: true }).inputValue(), { timeout: 8000 }).toBe('240');
  await p.getByRole('button', { name: 'Stop speed training' }).click();
  const run = p.getByRole('region', { name: 'Speed-training run' });
  await run.getByText('You went from 200 bpm to 240 bpm.').waitFor();
  await run.getByLabel('Exercise').fill('Single strokes');
  await run.getByRole('button', { name: 'Log to journal' }).click();
  await p.getByText('Logged to your practice journal.').waitFor();
  const journal = await (await p.request.get('/api/journal')).json();
  expect(journal.data[0].exercises).toEqual([
    { practicedToday: 'Single strokes', startingTempo: '200', endingTempo: '240' },
  ]);
});
