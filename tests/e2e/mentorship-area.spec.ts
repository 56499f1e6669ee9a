import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNTABILITY_MESSAGES, LINK_DISPLAY_LIMIT } from '#shared/mentorship';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const STUDENT = 'student@demo.test';
const ADMIN = 'admin@demo.test';
const run = Date.now().toString(36);

const saveLabelResponse = (page: Page) =>
  page.waitForResponse(
    (r) => r.url().endsWith('/mentorship/accountability/save-label') && r.request().method() === 'POST',
  );
const linkRow = (page: Page, url: string) =>
  page.getByTestId('accountability-link').filter({ has: page.locator(`a[href="${url}"]`) });

describe('the mentorship area', () => {
  it('the student’s dashboard shows the mentor, progress tiles and the area’s side menu', async () => {
    const page = await newPage(browser, DESKTOP);
    await signIn(page, STUDENT, undefined, '/mentorship');
    await page.getByRole('heading', { name: 'Welcome back, Sam' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('theme-dark'))).toBe(true);
    await page.getByTestId('mentor-card').getByText('Alex Rivera').waitFor();
    for (const [testId, href] of [
      ['tile-plan', '/mentorship/practice-plan'],
      ['tile-lessons', '/mentorship/lessons'],
      ['tile-links', '/mentorship/accountability'],
      ['tile-videos', '/mentorship/videos'],
      ['tile-songmapper', '/mentorship/songmapper'],
    ] as const) {
      expect(await page.getByTestId(testId).getAttribute('href')).toBe(href);
    }
    // the demo student pays in 6 card instalments: the first is paid, the next is due in a month
    await page.getByText('1 of 6 instalments paid').first().waitFor();
    await page
      .getByText(/^Next: \$650\.00 on /)
      .first()
      .waitFor();
    const menu = page.getByRole('navigation', { name: 'Side menu' });
    for (const label of [
      'Dashboard',
      'Practice plan',
      'Lessons',
      'Accountability links',
      'Videos',
      'Song Mapper',
      'Notifications',
    ]) {
      await menu.getByRole('link', { name: label, exact: true }).waitFor();
    }
    await menu.getByRole('button', { name: 'Account' }).click();
    expect(await menu.getByRole('link', { name: 'Account', exact: true }).getAttribute('href')).toBe(
      '/mentorship/account',
    );
    // students have no mentor section
    expect(await menu.getByRole('link', { name: 'Students' }).count()).toBe(0);
    expect(page.errors).toEqual([]);
  });

  it('a lesson marked complete stays complete after a reload, and nothing calls the quiz', async () => {
    const page = await newPage(browser, PHONE);
    await signIn(page, STUDENT, undefined, '/mentorship/lessons');
    await page.getByRole('heading', { name: 'Mentorship Foundations' }).waitFor();
    const quizCalls: string[] = [];
    page.on('request', (r) => (r.url().includes('/quiz') ? quizCalls.push(r.url()) : undefined));
    await page.getByRole('link', { name: /Filming Your Practice/ }).click();
    await page.getByRole('heading', { name: 'Filming Your Practice' }).waitFor();
    // the lesson's video: a poster until asked for, then the host's player
    expect(await page.locator('iframe[src*="youtube-nocookie.com/embed/"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Play video: Filming Your Practice video' }).click();
    expect(await page.locator('iframe[src*="youtube-nocookie.com/embed/"]').count()).toBe(1);
    // captions on, where the host has them
    const player = new URL((await page.locator('iframe[src*="youtube-nocookie.com/embed/"]').getAttribute('src'))!);
    expect(player.searchParams.get('cc_load_policy')).toBe('1');
    await page.getByRole('link', { name: /Previous\s*Reading Your Practice Plan/ }).waitFor();
    await page.getByRole('link', { name: /Next\s*Getting the Most from Feedback/ }).waitFor();
    const toggle = page.getByRole('button', { name: /Mark as complete|Completed/ });
    if ((await toggle.getAttribute('aria-pressed')) === 'true') {
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/mentorship/lesson-completions')),
        toggle.click(),
      ]);
    }
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/mentorship/lesson-completions')),
      page.getByRole('button', { name: 'Mark as complete' }).click(),
    ]);
    expect(res.status()).toBe(200);
    await page.getByRole('button', { name: 'Completed' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Completed' }).waitFor();
    expect(await page.getByRole('button', { name: 'Completed' }).getAttribute('aria-pressed')).toBe('true');
    await page.goto('/mentorship/lessons');
    await page.getByRole('button', { name: 'Filming Your Practice: completed' }).waitFor();
    expect(quizCalls).toEqual([]);
    expect(page.errors).toEqual([]);
  });

  it('accountability links: add with field errors, label autosave, 40-character display, delete with confirmation', async () => {
    const page = await newPage(browser, DESKTOP);
    await signIn(page, STUDENT, undefined, '/mentorship/accountability');
    await page.getByRole('heading', { name: 'Accountability links' }).waitFor();
    await page.getByTestId('accountability-link').first().waitFor(); // the demo's three

    // a field error from the client, then from the server
    const form = page.getByRole('form', { name: 'Add a link' });
    await form.getByRole('button', { name: 'Add link' }).click();
    await form.getByText(ACCOUNTABILITY_MESSAGES.urlRequired).waitFor();
    await form.getByLabel('Link').fill('youtube.com/watch?v=nope');
    await form.getByRole('button', { name: 'Add link' }).click();
    await form.getByText(ACCOUNTABILITY_MESSAGES.urlInvalid).waitFor();

    const url = `https://www.youtube.com/watch?v=practice-${run}-abcdefghijklmnopqrstuvwxyz`;
    await form.getByLabel('Link').fill(url);
    await form.getByLabel('Label').fill('Week 4: fills');
    await form.getByRole('button', { name: 'Add link' }).click();
    const row = linkRow(page, url);
    await row.waitFor();
    expect(await form.getByLabel('Link').inputValue()).toBe('');

    // display truncated at 40 characters, opening in a new tab
    const anchor = row.getByTestId('link-text');
    expect((await anchor.innerText()).trim()).toBe(`${url.slice(0, LINK_DISPLAY_LIMIT)}...`);
    expect(await anchor.getAttribute('target')).toBe('_blank');
    expect(await anchor.getAttribute('rel')).toBe('noopener noreferrer');

    // label autosave: one request after typing stops, with the whole label
    const input = row.getByRole('textbox');
    expect(await input.inputValue()).toBe('Week 4: fills');
    let saves = 0;
    page.on('request', (r) => (r.url().endsWith('/save-label') ? saves++ : undefined));
    await input.fill('');
    const saved = saveLabelResponse(page);
    await input.pressSequentially('Week 4: fills at 100 bpm', { delay: 30 });
    const res = await saved;
    expect(res.status()).toBe(200);
    expect(JSON.parse(res.request().postData() ?? '{}').links).toEqual([
      { id: expect.any(Number), label: 'Week 4: fills at 100 bpm' },
    ]);
    await row.getByText('Saved').waitFor();
    expect(saves).toBe(1);
    await page.reload();
    await linkRow(page, url).waitFor();
    expect(await linkRow(page, url).getByRole('textbox').inputValue()).toBe('Week 4: fills at 100 bpm');

    // delete asks first; Cancel keeps the link
    await linkRow(page, url)
      .getByRole('button', { name: /Delete link/ })
      .click();
    await page.getByRole('alertdialog').getByText(ACCOUNTABILITY_MESSAGES.deleteConfirm).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await linkRow(page, url).count()).toBe(1);
    await linkRow(page, url)
      .getByRole('button', { name: /Delete link/ })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete link' }).click();
    await linkRow(page, url).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('accountability-link').first().waitFor();
    expect(await linkRow(page, url).count()).toBe(0);
    expect(page.errors).toEqual([]);
  });

  it('an admin opens the students, a student’s page, adds a link for them, and the student sees it', async () => {
    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, ADMIN, undefined, '/mentorship/students');
    await admin.getByRole('heading', { name: 'Students' }).waitFor();
    const menu = admin.getByRole('navigation', { name: 'Side menu' });
    await menu.getByRole('link', { name: 'Students' }).waitFor();
    await menu.getByRole('link', { name: 'Saved days' }).waitFor();
    expect(await admin.getByRole('radio', { name: 'My students' }).getAttribute('aria-checked')).toBe('true');
    await admin.getByTestId('student-list').getByText('Sam Okafor').waitFor();
    await admin.getByRole('radio', { name: 'All students' }).click();
    await admin.waitForURL(/mine=0/);
    await admin.getByLabel('Search students').fill('Okafor');
    await admin.waitForURL(/q=Okafor/);
    await admin
      .getByTestId('student-list')
      .getByRole('link', { name: /Sam Okafor/ })
      .click();
    await admin.waitForURL(/\/mentorship\/students\/\d+$/);
    await admin.getByRole('heading', { name: 'Sam Okafor' }).waitFor();
    const id = Number(new URL(admin.url()).pathname.split('/').pop());
    expect(await admin.getByRole('link', { name: 'Open practice plan' }).getAttribute('href')).toBe(
      `/mentorship/students/${id}/practice-plan`,
    );
    expect(await admin.locator('main').getByRole('link', { name: 'Videos', exact: true }).getAttribute('href')).toBe(
      `/mentorship/students/${id}/videos`,
    );
    expect(await admin.getByLabel('Assigned mentor').locator('option:checked').innerText()).toContain('Alex Rivera');

    const url = `https://mentor.example.com/feedback/${run}/watch-this-before-our-next-call`;
    const form = admin.getByRole('form', { name: 'Add a link' });
    await form.getByLabel('Link').fill(url);
    await form.getByLabel('Label').fill('From Alex: watch before Friday');
    await form.getByRole('button', { name: 'Add link' }).click();
    await linkRow(admin, url).waitFor();
    expect(admin.errors).toEqual([]);

    const student = await newPage(browser, PHONE);
    await signIn(student, STUDENT, undefined, '/mentorship/accountability');
    await linkRow(student, url).waitFor();
    expect(await linkRow(student, url).getByRole('textbox').inputValue()).toBe('From Alex: watch before Friday');
    // the student was told
    await student.getByRole('button', { name: /^Notifications/ }).click();
    await student.getByRole('menu').getByText('added a link to your accountability links').first().waitFor();
    expect(student.errors).toEqual([]);
  });

  // fourteen pages and four sign-ins: on a busy machine more than the suite's 60 s
  it('every page at phone and desktop size (screenshots)', { timeout: 180_000 }, async () => {
    const pages: Array<[string, string, string]> = [
      [STUDENT, '/mentorship', 'student-dashboard'],
      [STUDENT, '/mentorship/lessons', 'lessons'],
      [STUDENT, '/mentorship/accountability', 'accountability'],
      [STUDENT, '/mentorship/account', 'account'],
      [ADMIN, '/mentorship', 'admin-dashboard'],
      [ADMIN, '/mentorship/students', 'students'],
    ];
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      for (const who of [STUDENT, ADMIN]) {
        const page = await newPage(browser, viewport);
        await signIn(page, who, undefined, '/mentorship');
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        for (const [as, path, file] of pages.filter(([w]) => w === who)) {
          if (as !== who) continue;
          await page.goto(path);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await page.waitForLoadState('networkidle');
          await reviewShot(page, `mentorship-area/${file}-${name}.png`);
        }
        if (who === STUDENT) {
          await page.goto('/mentorship/lessons');
          await page.getByRole('link', { name: /Welcome to Your Mentorship/ }).click();
          await page.getByRole('heading', { name: 'Welcome to Your Mentorship' }).waitFor();
          await reviewShot(page, `mentorship-area/lesson-${name}.png`);
        } else {
          await page.goto('/mentorship/students?mine=0&q=Okafor');
          await page
            .getByTestId('student-list')
            .getByRole('link', { name: /Sam Okafor/ })
            .click();
          await page.getByRole('heading', { name: 'Sam Okafor' }).waitFor();
          await page.waitForLoadState('networkidle');
          await reviewShot(page, `mentorship-area/student-${name}.png`);
        }
        expect(page.errors).toEqual([]);
        await page.context().close();
      }
    }
  });
});
