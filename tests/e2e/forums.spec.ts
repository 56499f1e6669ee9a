import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { FORUM_MESSAGES } from '#shared/forums';
import { DESKTOP, launchBrowser, newDrummer, newPage, painted, PHONE, postAnswer, reviewShot, signIn } from '#test/e2e';

const WATCH = /^\/api\/forums\/topics\/\d+\/watch$/;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

/** a page that also fails on any error the browser console reports */
async function open(viewport = DESKTOP) {
  const page = await newPage(browser, viewport);
  page.setDefaultTimeout(15_000);
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(msg.text());
  });
  return page;
}
const unique = (what: string) => `${what} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
const modal = (page: Page) => page.getByTestId('topic-modal');

async function startTopic(page: Page, category: string, title: string, body: string) {
  await page.getByRole('button', { name: FORUM_MESSAGES.newTopic }).click();
  const dialog = page.getByRole('dialog', { name: 'Start a new topic' });
  await dialog.getByLabel('Category').selectOption({ label: category });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Your post').fill(body);
  await dialog.getByRole('button', { name: 'Post topic' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('forums as a member', () => {
  it('home, a category, the topic modal (like, watch, comment count, Escape closes)', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await open(viewport);
      // a member of the test's own: the like and the watch below are theirs, not a demo account's
      await newDrummer(page, { member: true });
      await page.goto('/forums');
      await page.getByRole('heading', { name: 'Forums', level: 1 }).waitFor();
      for (const title of ['General Discussion', 'Technique & Practice', 'Gear Talk'])
        await page.getByRole('heading', { name: title }).waitFor();
      await page
        .getByText(/^\d+ topics?$/)
        .first()
        .waitFor();
      await reviewShot(page, `forums/home-${viewport.width}.png`);

      await page.getByRole('link', { name: /Technique & Practice/ }).click();
      await page.waitForURL('**/forums/technique');
      const rows = page.getByTestId('topic-list').locator('li');
      await rows.first().waitFor();
      // pinned first
      await rows.first().getByText(FORUM_MESSAGES.pinned).waitFor();
      expect(await rows.first().textContent()).toContain('How long should a practice session be?');
      await reviewShot(page, `forums/category-${viewport.width}.png`);

      if (viewport === PHONE) {
        // the modal on a phone: the seeded topic with replies
        await page.getByRole('link', { name: 'Paradiddles fall apart above 110 bpm' }).click();
        await modal(page).getByText('paradiddles get flammy around 110').waitFor();
        await modal(page).getByTestId('comment-count').getByText('4 comments').waitFor();
        await reviewShot(page, `forums/modal-${viewport.width}.png`, { fullPage: false });
        await modal(page).getByRole('button', { name: 'Close' }).click();
        await modal(page).waitFor({ state: 'detached' });
        expect(page.errors).toEqual([]);
        continue;
      }

      // a topic the member neither likes nor watches, with one reply; opening it fetches it once
      const topicFetches: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/forums/api/topic/')) topicFetches.push(r.url());
      });
      await page.getByRole('link', { name: 'Counting sixteenth-note triplets out loud?' }).click();
      const m = modal(page);
      await page.getByRole('dialog', { name: 'Counting sixteenth-note triplets out loud?' }).waitFor();
      await m.getByText('I can play them but I lose count.').waitFor();
      await m.getByText('Sam Okafor').first().waitFor();
      await m.getByTestId('comment-count').getByText('1 comment').waitFor();
      await m.locator('[data-post-id]').first().waitFor();
      const likes = m.getByTestId('topic-likes');
      const before = Number(await likes.textContent());
      // the like flips at once (before the server answers: the request is held until it has been
      // seen), then the server's count stays
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/forums/api/likes/topics/toggle', async (route) => {
        await held;
        await route.continue();
      });
      const refetched = page.waitForResponse((r) => r.url().includes('/forums/api/topic/'));
      const answered = page.waitForResponse((r) => r.url().endsWith('/forums/api/likes/topics/toggle'));
      let settled = false;
      void answered.then(() => (settled = true));
      await m.getByRole('button', { name: /^Like topic: \d+ likes?$/ }).click();
      await m.getByRole('button', { name: /^Unlike topic: \d+ likes?$/ }).waitFor();
      expect(Number(await likes.textContent())).toBe(before + 1);
      expect(settled).toBe(false);
      release();
      expect((await (await answered).json()).likes).toBe(before + 1);
      await refetched;
      await painted(page);
      expect(Number(await likes.textContent())).toBe(before + 1);
      // opening the topic fetched it once; the like fetched it again
      expect(topicFetches).toHaveLength(2);
      await page.unroute('**/forums/api/likes/topics/toggle');
      // watch is stored
      const watched = postAnswer(page, WATCH);
      await m.getByRole('button', { name: FORUM_MESSAGES.watch, exact: true }).click();
      await m.getByRole('button', { name: FORUM_MESSAGES.watching }).waitFor();
      expect((await watched).status()).toBe(200);
      await reviewShot(page, `forums/modal-${viewport.width}.png`, { fullPage: false });
      await page.keyboard.press('Escape');
      await m.waitFor({ state: 'detached' });

      await page.reload();
      await page.getByRole('link', { name: 'Counting sixteenth-note triplets out loud?' }).click();
      await modal(page).getByRole('button', { name: FORUM_MESSAGES.watching }).waitFor();
      await modal(page)
        .getByRole('button', { name: /^Unlike topic: \d+ likes?$/ })
        .waitFor();
      expect(Number(await modal(page).getByTestId('topic-likes').textContent())).toBe(before + 1);
      // the like taken back: the demo topic's count is as the seed made it
      await modal(page)
        .getByRole('button', { name: /^Unlike topic: \d+ likes?$/ })
        .click();
      await modal(page)
        .getByRole('button', { name: /^Like topic: \d+ likes?$/ })
        .waitFor();
      const unwatched = postAnswer(page, WATCH);
      await modal(page).getByRole('button', { name: FORUM_MESSAGES.watching }).click();
      await modal(page).getByRole('button', { name: FORUM_MESSAGES.watch, exact: true }).waitFor();
      expect((await unwatched).status()).toBe(200);
      // the link to the full topic page
      await modal(page).getByRole('link', { name: FORUM_MESSAGES.openFullTopic }).click();
      await page.waitForURL('**/forums/topic/*');
      await page.getByRole('heading', { name: 'Counting sixteenth-note triplets out loud?', level: 1 }).waitFor();
      await page
        .getByRole('navigation', { name: 'Breadcrumb' })
        .getByRole('link', { name: 'Technique & Practice' })
        .waitFor();
      // members have no admin menu
      expect(await page.getByRole('button', { name: 'Moderate topic' }).count()).toBe(0);
      expect(page.errors).toEqual([]);
    }
  });

  it('starts a new topic: errors next to the fields, then it is at the top of its category', async () => {
    const page = await open(DESKTOP);
    await newDrummer(page, { member: true });
    await page.goto('/forums');
    await page.getByRole('button', { name: FORUM_MESSAGES.newTopic }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a new topic' });
    await dialog.getByRole('button', { name: 'Post topic' }).click();
    await dialog.getByText(FORUM_MESSAGES.categoryRequired).waitFor();
    await dialog.getByText(FORUM_MESSAGES.titleRequired).waitFor();
    await dialog.getByText(FORUM_MESSAGES.bodyRequired).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const title = unique('Best sticks for jazz brushes?');
    await startTopic(page, 'Gear Talk', title, 'Looking for a <b>light</b> pair. Thoughts?');
    await page.waitForURL('**/forums/gear');
    const first = page.getByTestId('topic-list').locator('li').first();
    await first.getByRole('link', { name: title }).waitFor();
    await first.getByRole('link', { name: title }).click();
    // user text is shown as text, never as HTML
    await modal(page).getByText('Looking for a <b>light</b> pair. Thoughts?').waitFor();
    await modal(page).getByTestId('comment-count').getByText('0 comments').waitFor();
    // the author watches their topic
    await modal(page).getByRole('button', { name: FORUM_MESSAGES.watching }).waitFor();
    // a reply in the modal's thread: the comment count follows
    await modal(page).getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder).first().fill('Vic Firth 7A here.');
    await modal(page).getByRole('button', { name: 'Post', exact: true }).first().click();
    await modal(page).getByText('Vic Firth 7A here.').waitFor();
    await modal(page).getByTestId('comment-count').getByText('1 comment', { exact: true }).waitFor();
    expect(page.errors).toEqual([]);
  });
});

describe('forums as an admin', () => {
  it('pins, locks and moves a topic from the topic page; members see the lock', async () => {
    const page = await open(DESKTOP);
    await signIn(page, 'admin@demo.test', undefined, '/forums/gear');
    const title = unique('Cymbal cleaning: yes or no?');
    await startTopic(page, 'Gear Talk', title, 'Shiny or dirty? Discuss.');
    await page.getByTestId('topic-list').getByRole('link', { name: title }).click();
    await modal(page).getByRole('link', { name: FORUM_MESSAGES.openFullTopic }).click();
    await page.waitForURL('**/forums/topic/*');
    const topicUrl = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();

    const menu = async (item: string) => {
      await page.getByRole('button', { name: 'Moderate topic' }).click();
      await page.getByRole('menuitem', { name: item }).click();
    };
    await menu('Pin topic');
    await page.getByTestId('topic-view').getByText(FORUM_MESSAGES.pinned, { exact: true }).waitFor();
    await menu('Lock topic');
    await page.getByTestId('topic-view').getByText(FORUM_MESSAGES.locked, { exact: true }).waitFor();
    await menu('General Discussion');
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'General Discussion' })
      .waitFor();
    await page.getByText('Topic moved to General Discussion.').click(); // the toast closes on a click
    await reviewShot(page, 'forums/topic-page-admin-1280.png');

    // the pinned topic leads its new category, locked
    await page.goto('/forums/general');
    const first = page.getByTestId('topic-list').locator('li').first();
    await first.getByRole('link', { name: title }).waitFor();
    await first.getByText(FORUM_MESSAGES.pinned).waitFor();

    const member = await open(PHONE);
    await signIn(member, 'member@demo.test', undefined, topicUrl);
    await member.getByRole('heading', { name: title, level: 1 }).waitFor();
    await member.getByText(COMMUNITY_MESSAGES.topicLocked).waitFor();
    await reviewShot(member, 'forums/topic-page-390.png');
    const desktop = await open(DESKTOP);
    await signIn(desktop, 'member@demo.test', undefined, topicUrl);
    await desktop.getByText(COMMUNITY_MESSAGES.topicLocked).waitFor();
    await reviewShot(desktop, 'forums/topic-page-1280.png');

    // unpin and unlock again
    await page.goto(topicUrl);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await menu('Unpin topic');
    await page.getByRole('button', { name: 'Moderate topic' }).waitFor();
    const unlocked = postAnswer(page, /^\/api\/forums\/topics\/\d+\/lock$/);
    await menu('Unlock topic');
    expect((await unlocked).status()).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    expect(await page.getByTestId('topic-view').getByText(FORUM_MESSAGES.pinned, { exact: true }).count()).toBe(0);
    expect(await page.getByTestId('topic-view').getByText(FORUM_MESSAGES.locked, { exact: true }).count()).toBe(0);
    expect([...page.errors, ...member.errors, ...desktop.errors]).toEqual([]);
  });
});

describe('forums as a free member', () => {
  it('shows the members-only message with a link to /join instead of the forums', async () => {
    const page = await open(PHONE);
    await signIn(page, 'free@demo.test', undefined, '/forums');
    await page.getByText(COMMUNITY_MESSAGES.communityMembersOnly).waitFor();
    expect(await page.getByRole('link', { name: 'See membership plans' }).getAttribute('href')).toBe('/join');
    expect(await page.getByRole('button', { name: FORUM_MESSAGES.newTopic }).count()).toBe(0);
    await page.goto('/forums/technique');
    await page.getByText(COMMUNITY_MESSAGES.communityMembersOnly).waitFor();
    expect(await page.getByText('How long should a practice session be?').count()).toBe(0);
    expect(page.errors).toEqual([]);
  });
});
