import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const stamp = Date.now().toString(36);
const toast = (p: Page, text: string) => p.getByRole('status').filter({ hasText: text }).first().waitFor();
const noSidewaysScroll = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('admin content: courses and lessons', () => {
  it('creates a course and a lesson with a notation path and a quiz; the course shows on its page', async () => {
    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'admin@demo.test', undefined, '/admin/courses');
    await p.getByRole('heading', { name: 'Courses & lessons', level: 1 }).waitFor();
    await p.getByRole('link', { name: 'New course' }).click();
    await p.waitForURL('**/admin/courses/new');
    const title = `Browser Course ${stamp}`;
    await p.getByLabel('Title', { exact: true }).fill(title);
    expect(await p.getByLabel('Slug', { exact: true }).inputValue()).toBe(`browser-course-${stamp}`);
    await p.getByLabel('Members only').uncheck();
    await p.getByRole('button', { name: 'Create course' }).click();
    await p.waitForURL(/\/admin\/courses\/\d+$/);
    await toast(p, 'Course created.');

    // a lesson from the course page
    await p.getByLabel('New lesson title').fill('First groove');
    await p.getByRole('button', { name: 'Add lesson' }).click();
    await p.waitForURL(/\/admin\/lessons\/\d+$/);
    await p.getByRole('heading', { name: 'First groove', level: 1 }).waitFor();

    // a bad video address: the error shows under its own field
    const video = p.getByLabel('Video embed address');
    await video.fill('http://videos.example.test/embed/1');
    await p.getByRole('button', { name: 'Save lesson' }).click();
    await expect.poll(() => video.getAttribute('aria-invalid')).toBe('true');
    // focus moves to the first wrong field
    await expect.poll(() => video.evaluate((el) => el === document.activeElement)).toBe(true);
    const errorId = await video.getAttribute('aria-describedby');
    expect(await p.locator(`[id="${errorId}"]`).textContent()).toBe(
      'The video embed address must be an https:// address or a path on this site.',
    );
    await video.fill('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    await p.getByLabel('Access').selectOption('free');
    await p.getByRole('button', { name: 'Save lesson' }).click();
    await toast(p, 'Lesson saved.');
    expect(await p.getByLabel('Video embed address').getAttribute('aria-invalid')).toBeNull();

    // a notation path
    await p.getByRole('button', { name: 'Add notation path' }).click();
    await p.getByLabel('Path 1 title').fill('Groove at 80 bpm');
    await p.getByLabel('Path 1 address').fill('https://www.soundslice.com/slices/abc123/');
    await p.getByRole('button', { name: 'Save notation paths' }).click();
    await toast(p, 'Notation paths saved.');

    // a quiz: one question, two options, the second one correct
    await p.getByRole('button', { name: 'Add question' }).click();
    await p.getByRole('textbox', { name: 'Question 1', exact: true }).fill('How many beats in a bar of 4/4?');
    await p.getByRole('textbox', { name: 'Option 1', exact: true }).fill('Three');
    await p.getByRole('textbox', { name: 'Option 2', exact: true }).fill('Four');
    await p.getByRole('radio', { name: 'Option 2 is correct' }).check();
    await p.getByRole('button', { name: 'Save quiz' }).click();
    await toast(p, 'Quiz saved.');
    const lessonUrl = new URL(p.url()).pathname.replace('/admin', '');

    // the member side
    await p.goto(`/courses/browser-course-${stamp}`);
    await p.getByRole('heading', { name: title }).first().waitFor();
    await p.getByText('First groove').first().waitFor();
    await p.goto(lessonUrl);
    await p.getByText('Groove at 80 bpm').first().waitFor();
    await p.getByText('How many beats in a bar of 4/4?').first().waitFor();

    // put things back: delete the course (a confirmation first)
    await p.goto('/admin/courses?q=' + encodeURIComponent(`browser-course-${stamp}`));
    await p.getByRole('link', { name: title }).click();
    await p.getByRole('button', { name: 'Delete course' }).click();
    const dialog = p.getByRole('alertdialog');
    await dialog.getByText('and its 1 lessons').waitFor();
    await dialog.getByRole('button', { name: 'Delete course' }).click();
    await p.waitForURL('**/admin/courses');
    await toast(p, 'Course deleted.');
    expect(p.errors).toEqual([]);
  });

  it('the course edit page works at phone width', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'admin@demo.test', undefined, '/admin/courses?q=groove-foundations');
    await p.getByRole('link', { name: 'Groove Foundations' }).first().click();
    await p.getByRole('heading', { name: 'Groove Foundations', level: 1 }).waitFor();
    await p.getByRole('heading', { name: /^Lessons \(\d+\)$/ }).waitFor();
    expect(await noSidewaysScroll(p)).toBeLessThanOrEqual(0);
    // the form fields stack: the title and slug sit one above the other
    const titleBox = (await p.getByLabel('Title', { exact: true }).boundingBox())!;
    const slugBox = (await p.getByLabel('Slug', { exact: true }).boundingBox())!;
    expect(slugBox.y).toBeGreaterThan(titleBox.y + titleBox.height);
    await reviewShot(p, 'admin-content/admin-course-edit-phone.png');
    expect(p.errors).toEqual([]);
  });
});

describe('admin content: stages', () => {
  it('creates a stage and edits its checklist; members see the steps', async () => {
    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'admin@demo.test', undefined, '/admin/stages/new');
    const title = `Browser Stage ${stamp}`;
    await p.getByLabel('Title', { exact: true }).fill(title);
    await p.getByRole('button', { name: 'Add step' }).click();
    await p.getByLabel('Step 1', { exact: true }).fill('Play singles for one minute');
    await p.getByRole('button', { name: 'Create stage' }).click();
    await p.waitForURL(/\/admin\/stages\/\d+$/);
    await toast(p, 'Stage created.');
    const id = new URL(p.url()).pathname.split('/').pop();

    // edit the checklist: a second step, then move it first
    await p.getByRole('button', { name: 'Add step' }).click();
    await p.getByLabel('Step 2', { exact: true }).fill('Play doubles for one minute');
    await p.getByRole('button', { name: 'Move step 2 up' }).click();
    expect(await p.getByLabel('Step 1', { exact: true }).inputValue()).toBe('Play doubles for one minute');
    await p.getByRole('button', { name: 'Save stage' }).click();
    await toast(p, 'Stage saved.');

    await p.goto(`/stages/${id}`);
    await p.getByText('Play doubles for one minute').waitFor();
    await p.getByText('Play singles for one minute').waitFor();

    // put things back
    await p.goto(`/admin/stages/${id}`);
    await p.getByRole('button', { name: 'Delete stage' }).click();
    await p.getByRole('alertdialog').getByRole('button', { name: 'Delete stage' }).click();
    await p.waitForURL('**/admin/stages');
    expect(p.errors).toEqual([]);
  });
});

describe('admin content: achievements, placement and foot-speed plans', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
    'base64',
  );
  const errorOf = async (p: Page, field: ReturnType<Page['getByLabel']>) => {
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    return p.locator(`[id="${await field.getAttribute('aria-describedby')}"]`).textContent();
  };

  it('creates an achievement with an uploaded image (threshold checked first), then deletes it', async () => {
    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'admin@demo.test', undefined, '/admin/achievements/new');
    await p.getByLabel('Name', { exact: true }).fill(`Browser Badge ${stamp}`);
    const threshold = p.getByLabel('Threshold');
    await threshold.fill('0');
    await p.getByRole('button', { name: 'Create achievement' }).click();
    expect(await errorOf(p, threshold)).toBe('The threshold must be at least 1.');
    await p.getByText('The image field is required.').waitFor();
    await p.getByLabel('Upload image').setInputFiles({ name: 'badge.png', mimeType: 'image/png', buffer: png });
    await p.getByRole('button', { name: 'Remove' }).waitFor();
    await threshold.fill('3');
    await p.getByLabel('Counts').selectOption('quizzes');
    await p.getByRole('button', { name: 'Create achievement' }).click();
    await p.waitForURL(/\/admin\/achievements\/\d+$/);
    await toast(p, 'Achievement created.');
    await p.goto(`/admin/achievements?q=${encodeURIComponent(`browser-badge-${stamp}`)}`);
    await p.getByRole('link', { name: `Browser Badge ${stamp}` }).click();
    await p.getByRole('button', { name: 'Delete achievement' }).click();
    await p.getByRole('alertdialog').getByRole('button', { name: 'Delete achievement' }).click();
    await p.waitForURL('**/admin/achievements');
    expect(p.errors).toEqual([]);
  });

  it('the placement points are checked next to their field; foot-speed links save and are put back', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'admin@demo.test', undefined, '/admin/placement');
    const points = p.getByLabel('Points').first();
    await points.fill('11');
    await p.getByRole('button', { name: 'Save placement questions' }).click();
    expect(await errorOf(p, points)).toBe('The points may not be greater than 10.');
    expect(await noSidewaysScroll(p)).toBeLessThanOrEqual(0);

    await p.goto('/admin/foot-speed');
    const link = p.getByLabel('Beginner, single pedal');
    const original = await link.inputValue();
    await link.fill('http://plans.example.test/beginner');
    await p.getByRole('button', { name: 'Save plan links' }).click();
    expect(await errorOf(p, link)).toBe('The plan address must be an https:// address or a path on this site.');
    await link.fill('https://plans.example.test/beginner');
    await p.getByRole('button', { name: 'Save plan links' }).click();
    await toast(p, 'Practice-plan links saved.');
    await p.reload();
    expect(await p.getByLabel('Beginner, single pedal').inputValue()).toBe('https://plans.example.test/beginner');
    await p.getByLabel('Beginner, single pedal').fill(original);
    await p.getByRole('button', { name: 'Save plan links' }).click();
    await toast(p, 'Practice-plan links saved.');
    expect(await noSidewaysScroll(p)).toBeLessThanOrEqual(0);
    expect(p.errors).toEqual([]);
  });
});
