import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { UPLOADS } from '#shared/learning';
import { launchBrowser, newDrummer, newPage, PHONE } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

it('ten questions with progress and restart, a result by both banding tables, avatar states, stored stage', async () => {
  const p = await newPage(browser, PHONE);
  // a drummer of the test's own: the stage and the photo stored below are theirs
  await newDrummer(p);
  await p.goto('/placement');
  const progress = p.getByRole('progressbar', { name: 'Questionnaire progress' });
  await p.getByText('Question 1 of 10').waitFor();
  // answer two, then restart
  await p.getByRole('button', { name: 'Less than a year' }).click();
  await p.getByRole('button', { name: 'Slowly, with some mistakes' }).click();
  expect(await progress.getAttribute('aria-valuenow')).toBe('20');
  await p.getByRole('button', { name: 'Restart' }).click();
  await p.getByText('Question 1 of 10').waitFor();
  // the second option everywhere: 1+1+1+1+1+2+1+1+2+1 = 12 points
  for (let i = 0; i < 10; i++) {
    await p.getByText(`Question ${i + 1} of 10`).waitFor();
    await p.getByRole('listitem').nth(1).getByRole('button').click();
  }
  // stage number from one table (12 → stage 2), title from the other (12 → Coordination Conquest)
  await p.getByRole('heading', { name: 'Coordination Conquest' }).waitFor();
  expect(await p.getByRole('img', { name: 'Stage 2' }).getAttribute('src')).toBe('/images/stages/stage-2.svg');
  expect(await p.getByRole('link', { name: 'Start Welcome Course' }).getAttribute('href')).toBe(
    '/courses/welcome-to-backbeat',
  );

  await p
    .getByLabel('Add a profile photo')
    .setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
  await p.getByRole('alert').filter({ hasText: UPLOADS.avatarFailed }).waitFor();
  await p.getByRole('button', { name: 'Try again' }).click();
  const png = await sharp({ create: { width: 60, height: 60, channels: 3, background: '#123456' } })
    .png()
    .toBuffer();
  await p.getByLabel('Add a profile photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await p.getByText('Photo saved.').waitFor();

  await p.goto('/stages');
  await p.getByRole('link', { name: /Stage 2.*You are here/ }).waitFor();
});
