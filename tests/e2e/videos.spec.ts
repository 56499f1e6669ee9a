import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CAPTION_MESSAGES, UPLOAD_CHUNK_SIZE } from '#shared/upload';
import { DESKTOP, launchBrowser, newDrummer, newPage, PHONE, reviewShot, sendPracticeVideo, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

/** ~3.5 MB that `file-type` sniffs as MP4 (an ftyp box, then padding): 4 chunks of 1 MiB */
function mp4(size: number) {
  const b = Buffer.alloc(size, 7);
  b.writeUInt32BE(0x18, 0);
  b.write('ftyp', 4, 'latin1');
  b.write('mp42', 8, 'latin1');
  b.writeUInt32BE(0, 12);
  b.write('isommp42', 16, 'latin1');
  return b;
}

const offsetOf = (body: Buffer | null) =>
  /name="start_offset"\r\n\r\n(\d+)\r\n/.exec(body?.toString('latin1') ?? '')?.[1] ?? null;

const shoot = (page: Page, name: string) => reviewShot(page, `videos/${name}.png`);

describe('practice video submissions', () => {
  it('a student uploads a video in 4 chunks (one fails once and is retried), an admin answers, the student reads it', async () => {
    const title = `Paradiddles ${Date.now()}`;
    const student = await newPage(browser, PHONE);
    await newDrummer(student, { student: true });
    await student.goto('/mentorship/videos');
    await student.waitForURL('**/mentorship/videos');
    await student.getByRole('heading', { name: 'Send a practice video' }).waitFor();
    await shoot(student, 'videos-student-390');

    // every chunk request is seen; the one at 1 MiB answers 500 the first time
    const chunkOffsets: string[] = [];
    let failedOnce = false;
    await student.route('**/uploads/chunked', async (route) => {
      const request = route.request();
      const offset = request.method() === 'POST' ? offsetOf(request.postDataBuffer()) : null;
      if (offset !== null) chunkOffsets.push(offset);
      if (offset === String(UPLOAD_CHUNK_SIZE) && !failedOnce) {
        failedOnce = true;
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Something went wrong on our side.' }),
        });
        return;
      }
      await route.continue();
    });

    await student.getByLabel('Title').fill(title);
    await student.getByLabel(/Note for your mentor/).fill('Left hand feels slow at 90.');
    await student
      .getByLabel('Your practice video')
      .setInputFiles({ name: 'Paradiddles.MP4', mimeType: 'video/mp4', buffer: mp4(3.5 * 1024 * 1024) });
    const bar = student.getByRole('progressbar');
    await bar.waitFor();
    expect(Number(await bar.getAttribute('aria-valuemax'))).toBe(100);
    await shoot(student, 'videos-uploading-390');
    await student.getByText('Uploaded').waitFor({ timeout: 30_000 });
    expect(failedOnce).toBe(true);
    expect(chunkOffsets.sort()).toEqual(['0', '1048576', '1048576', '2097152', '3145728'].sort());

    await student.getByRole('button', { name: 'Send to my mentor' }).click();
    await student.getByText('Sent to your mentor.').waitFor();
    const item = student.getByRole('link', { name: new RegExp(title) });
    await item.waitFor();
    await item.getByText('Awaiting feedback').waitFor();
    await shoot(student, 'videos-sent-390');

    // the admin's queue, the video page and the feedback form
    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test', undefined, '/mentorship/videos');
    await admin.waitForURL('**/mentorship/videos');
    await admin.getByRole('link', { name: new RegExp(title) }).click();
    await admin.waitForURL(/\/mentorship\/videos\/\d+$/);
    await admin.getByRole('heading', { name: title }).waitFor();
    const src = await admin.locator('video').getAttribute('src');
    expect(src).toMatch(/^\/mentorship\/videos\/\d+\/file$/);
    const file = await admin.request.get(src!, { headers: { Range: 'bytes=0-15' } });
    expect(file.status()).toBe(206);
    expect(file.headers()['content-type']).toBe('video/mp4');
    await shoot(admin, 'video-admin-1280');
    await admin.getByLabel('Your feedback').fill('Lovely and even. Keep the sticks lower on the taps.');
    await admin.getByRole('button', { name: 'Send feedback' }).click();
    await admin.getByText('Feedback sent to the student.').waitFor();
    await admin.getByTestId('video-feedback').locator('p', { hasText: 'Keep the sticks lower on the taps.' }).waitFor();
    await admin.goto('/mentorship/videos');
    await admin.getByRole('heading', { name: 'Practice videos' }).waitFor();
    expect(await admin.getByRole('link', { name: new RegExp(title) }).count()).toBe(0);
    await shoot(admin, 'videos-admin-1280');

    // the student sees the answer
    await student.goto('/mentorship/videos');
    const answered = student.getByRole('link', { name: new RegExp(title) });
    await answered.getByText('Feedback ready').waitFor();
    await answered.click();
    await student.getByTestId('video-feedback').getByText('Keep the sticks lower on the taps.').waitFor();
    expect(await student.getByRole('button', { name: 'Delete video' }).count()).toBe(0);
    await shoot(student, 'video-student-390');

    // phone and desktop of the same pages
    await student.setViewportSize(DESKTOP);
    await shoot(student, 'video-student-1280');
    await student.goto('/mentorship/videos');
    await student.getByRole('heading', { name: 'Send a practice video' }).waitFor();
    await shoot(student, 'videos-student-1280');
    await admin.setViewportSize(PHONE);
    await admin.goBack();
    await admin.getByRole('heading', { name: title }).waitFor();
    await shoot(admin, 'video-admin-390');

    expect(student.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
  });

  it('an admin attaches a WebVTT caption file; the player shows it as its default captions track', async () => {
    const title = `Captioned groove ${Date.now()}`;
    const student = await newPage(browser, PHONE);
    await newDrummer(student, { student: true });
    await student.goto('/mentorship/videos');
    await student.getByRole('heading', { name: 'Send a practice video' }).waitFor();
    // a small video sent through the same calls the form makes (the upload itself is the test above)
    const id = await sendPracticeVideo(student, title, mp4(4000));

    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test', undefined, `/mentorship/videos/${id}`);
    await admin.getByRole('heading', { name: title }).waitFor();
    expect(await admin.locator('video track').count()).toBe(0);
    const form = admin.getByRole('form', { name: 'Captions' });
    const file = form.getByLabel(/Caption file/);

    // a SubRip file named .vtt: refused by its content, with a sentence tied to the field
    await file.setInputFiles({
      name: 'groove.vtt',
      mimeType: 'text/vtt',
      buffer: Buffer.from('1\n00:00:00,000 --> 00:00:02,000\nCount in\n'),
    });
    await form.getByRole('button', { name: 'Attach captions' }).click();
    const error = form.getByText(CAPTION_MESSAGES.notWebVtt);
    await error.waitFor();
    expect(await file.getAttribute('aria-invalid')).toBe('true');
    expect(await file.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    await expect.poll(() => file.evaluate((el) => el === document.activeElement)).toBe(true);
    await shoot(admin, 'video-captions-error-1280');

    await file.setInputFiles({
      name: 'groove.vtt',
      mimeType: 'text/vtt',
      buffer: Buffer.from('WEBVTT\n\n00:00.000 --> 00:02.000\nCount in: one, two, three, four\n'),
    });
    await form.getByLabel('Language').selectOption('de');
    await form.getByRole('button', { name: 'Attach captions' }).click();
    await admin.getByText(CAPTION_MESSAGES.attached).first().waitFor();
    const track = admin.locator('video track[kind="captions"]');
    await track.waitFor({ state: 'attached' });
    expect(await track.getAttribute('srclang')).toBe('de');
    expect(await track.getAttribute('label')).toBe('German');
    expect(await track.getAttribute('default')).not.toBeNull();
    expect(await track.getAttribute('src')).toBe(`/mentorship/videos/${id}/captions`);
    await shoot(admin, 'video-captions-1280');
    await admin.setViewportSize(PHONE);
    await shoot(admin, 'video-captions-390');

    // the student's player has the same track, and the browser loads it as the showing captions
    await student.goto(`/mentorship/videos/${id}`);
    await student.getByRole('heading', { name: title }).waitFor();
    expect(await student.getByRole('form', { name: 'Captions' }).count()).toBe(0);
    await expect
      .poll(() =>
        student.evaluate(() => {
          const t = document.querySelector('video')?.textTracks[0];
          return t ? `${t.kind} ${t.language} ${t.mode}` : null;
        }),
      )
      .toBe('captions de showing');

    // removing them takes the track away
    await admin.getByRole('button', { name: 'Remove captions' }).click();
    await admin.getByText(CAPTION_MESSAGES.removed).first().waitFor();
    expect(await admin.locator('video track').count()).toBe(0);
    expect(student.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
  });

  it('a free member cannot open the videos page', async () => {
    const own = await launchBrowser();
    const page = await newPage(own, DESKTOP);
    await signIn(page, 'free@demo.test');
    const res = await page.goto('/mentorship/videos');
    expect(res?.status()).toBe(403);
    expect(page.errors).toEqual([]);
    await own.close();
  });
});
