import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { CATEGORY_MESSAGES } from '#shared/admin-community';
import { FORUM_MESSAGES } from '#shared/forums';
import { LIVE_MESSAGES } from '#shared/live';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

// The console's community pages. Everything made here is this spec file's own (a new
// category, topic and show) and is deleted again at the end, so other specs see the demo as it was.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function open(viewport = DESKTOP) {
  const page = await newPage(browser, viewport);
  page.setDefaultTimeout(15_000);
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource.*(422|404)/.test(msg.text())) page.errors.push(msg.text());
  });
  return page;
}
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
const categoryTitle = `E2E Corner ${tag}`;
const slug = `e2e-corner-${tag}`;
const topicTitle = `Moderate me ${tag}`;
const showTitle = `E2E Groove Show ${tag}`;
const noSideScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
/** the message shown right under a field (its aria-describedby) */
async function fieldError(input: Locator, message: string) {
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const id = await input.getAttribute('aria-describedby');
  expect(await input.page().locator(`[id="${id}"]`).textContent()).toBe(message);
}
const row = (page: Page, text: string) => page.locator('tbody tr', { hasText: text });

let admin: Awaited<ReturnType<typeof open>>;
let member: Awaited<ReturnType<typeof open>>;

describe('admin console: community', () => {
  it('creates a forum category (slug taken shows next to its field)', async () => {
    admin = await open();
    await signIn(admin, 'admin@demo.test', undefined, '/admin/categories');
    await admin.getByRole('heading', { name: 'Forum categories', level: 1 }).waitFor();
    await admin.getByRole('button', { name: 'New category' }).click();
    const form = admin.getByRole('form', { name: 'New category' });
    await form.getByLabel('Title').fill(categoryTitle);
    // a slug that exists already (the demo's general category)
    await form.getByLabel('Slug').fill('general');
    await form.getByRole('button', { name: 'Create category' }).click();
    await fieldError(form.getByLabel('Slug'), CATEGORY_MESSAGES.slugTaken);
    await form.getByLabel('Slug').fill(slug);
    await form.getByRole('button', { name: 'Create category' }).click();
    await form.waitFor({ state: 'detached' });
    await row(admin, categoryTitle).waitFor();
    await reviewShot(admin, 'admin-community/categories-desktop.png');
  });

  it('hides a topic in moderation: a member no longer sees it; restore brings it back', async () => {
    // the admin starts a topic in the new category through the forum itself
    await admin.goto(`/forums/${slug}`);
    await admin.getByRole('button', { name: FORUM_MESSAGES.newTopic }).click();
    const dialog = admin.getByRole('dialog', { name: 'Start a new topic' });
    await dialog.getByLabel('Title').fill(topicTitle);
    await dialog.getByLabel('Your post').fill('A topic the moderation test hides and restores.');
    await dialog.getByRole('button', { name: 'Post topic' }).click();
    await dialog.waitFor({ state: 'detached' });

    member = await open();
    await signIn(member, 'member@demo.test', undefined, `/forums/${slug}`);
    await member.getByRole('link', { name: topicTitle }).waitFor();

    await admin.goto(`/admin/moderation?kind=topic&q=${encodeURIComponent(topicTitle)}`);
    await admin.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();
    const r = row(admin, topicTitle);
    await r.getByText('Visible').waitFor();
    await r.getByRole('button', { name: /^Hide topic/ }).click();
    await r.getByText('Hidden', { exact: true }).waitFor();

    await member.reload();
    await member.getByRole('heading', { name: categoryTitle }).waitFor();
    expect(await member.getByRole('link', { name: topicTitle }).count()).toBe(0);

    await r.getByRole('button', { name: /^Restore topic/ }).click();
    await r.getByText('Visible').waitFor();
    await member.reload();
    await member.getByRole('link', { name: topicTitle }).waitFor();
    await reviewShot(admin, 'admin-community/moderation-desktop.png');
  });

  it('the moderation page works at phone width', async () => {
    const phone = await open(PHONE);
    await signIn(
      phone,
      'admin@demo.test',
      undefined,
      `/admin/moderation?kind=topic&q=${encodeURIComponent(topicTitle)}`,
    );
    await phone.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();
    await phone.getByText(topicTitle).waitFor();
    await phone.getByRole('button', { name: /^Hide topic/ }).waitFor();
    await phone.getByLabel('Kind').selectOption('post');
    await phone.waitForURL(/kind=post/);
    await noSideScroll(phone);
    await reviewShot(phone, 'admin-community/moderation-phone.png');
    expect(phone.errors).toEqual([]);
  });

  it('the reports queue shows in the console', async () => {
    await admin.goto('/admin/reports');
    await admin.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await admin.getByRole('tab', { name: 'resolved' }).click();
    await admin.waitForURL(/status=resolved/);
    await expect.poll(() => admin.getByRole('tab', { name: 'resolved' }).getAttribute('aria-selected')).toBe('true');
    await admin
      .getByText(/No resolved reports|Reported by/)
      .first()
      .waitFor();
  });

  it('schedules a live show (bad video address first), opens its chat and sets a topic', async () => {
    await admin.goto('/admin/live');
    await admin.getByRole('heading', { name: 'Live shows', level: 1 }).waitFor();
    await admin.getByRole('button', { name: 'Schedule a show' }).first().click();
    const form = admin.getByRole('form', { name: 'Schedule a show' });
    await form.getByLabel('Title').fill(showTitle);
    await form.getByLabel('Starts at').fill('2031-05-04T19:30');
    await form.getByLabel('Video address').fill('https://example.com/not-a-video');
    await form.getByRole('button', { name: 'Schedule show' }).click();
    await fieldError(form.getByLabel('Video address'), LIVE_MESSAGES.videoUrlInvalid);
    await form.getByLabel('Video address').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await form.getByRole('button', { name: 'Schedule show' }).click();
    await form.waitFor({ state: 'detached' });

    const r = row(admin, showTitle);
    await r.getByText('Upcoming').waitFor();
    await r.getByRole('button', { name: 'Open chat' }).click();
    await r.getByText('Chat open').waitFor();
    await r.getByRole('button', { name: 'Topic' }).click();
    const topic = admin.getByRole('form', { name: 'Chat topic' });
    await topic.getByLabel('Topic').fill('Ghost notes tonight');
    await topic.getByRole('button', { name: 'Set topic' }).click();
    await topic.waitFor({ state: 'detached' });
    await r.getByText('Topic: Ghost notes tonight').waitFor();
    await reviewShot(admin, 'admin-community/live-desktop.png');

    // the member side: the show is listed, and its chat shows the topic
    const showUrl = await r.getByRole('link', { name: showTitle }).getAttribute('href');
    await member.goto(showUrl!);
    await member.getByText('Ghost notes tonight').waitFor();
  });

  it('cleans up: deletes the show, the topic (for good) and the category', async () => {
    const [confirmDelete] = [
      () =>
        admin
          .getByRole('alertdialog')
          .getByRole('button', { name: /^Delete/ })
          .click(),
    ];
    await admin.goto(`/admin/live?q=${encodeURIComponent(showTitle)}`);
    await row(admin, showTitle)
      .getByRole('button', { name: `Delete ${showTitle}` })
      .click();
    await confirmDelete();
    await admin.getByText('No shows match.').waitFor();

    // a category holding a topic cannot be deleted
    await admin.goto(`/admin/categories?q=${encodeURIComponent(categoryTitle)}`);
    await row(admin, categoryTitle)
      .getByRole('button', { name: `Delete ${categoryTitle}` })
      .click();
    await confirmDelete();
    await admin.getByText(CATEGORY_MESSAGES.notEmpty(1)).waitFor();

    await admin.goto(`/admin/moderation?kind=topic&q=${encodeURIComponent(topicTitle)}`);
    await row(admin, topicTitle)
      .getByRole('button', { name: /^Delete topic/ })
      .click();
    await confirmDelete();
    await admin.getByText('Nothing matches.').waitFor();

    await admin.goto(`/admin/categories?q=${encodeURIComponent(categoryTitle)}`);
    await row(admin, categoryTitle)
      .getByRole('button', { name: `Delete ${categoryTitle}` })
      .click();
    await confirmDelete();
    await admin.getByText('No categories yet.').waitFor();
    expect(admin.errors).toEqual([]);
    expect(member.errors).toEqual([]);
  });
});
