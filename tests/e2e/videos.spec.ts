import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { UPLOAD_CHUNK_SIZE } from '#shared/upload';
import { DESKTOP, launchBrowser, newPage, PHONE, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const shots = process.env.VIDEOS_SHOTS ?? '/tmp/videos-shots';

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

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

describe('practice video submissions', () => {
  it('a student uploads a video in 4 chunks (one fails once and is retried), an admin answers, the student reads it', async () => {
    const title = `Paradiddles ${Date.now()}`;
    const student = await newPage(browser, PHONE);
    await signIn(student, 'student@demo.test', undefined, '/mentorship/videos');
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
