import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FORUM_MESSAGES } from '#shared/forums';
import { launchBrowser, navigateInApp, newPage, PHONE, signIn } from '#test/e2e';

// Each page is named and announced as a full page load would be: the title follows the page's <h1>,
// and after an in-app navigation focus is on that <h1> (docs/product/accessibility.md).
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const heading = (p: Page) => p.locator('#main h1').first();
const titleFollowsHeading = async (p: Page) => {
  await expect
    .poll(async () => [
      await p.title(),
      `${((await heading(p).textContent()) ?? '').replace(/\s+/g, ' ').trim()} – Backbeat`,
    ])
    .toSatisfy(([title, expected]) => title === expected);
};
const focusIsOnHeading = (p: Page) =>
  p.evaluate(() => document.activeElement?.tagName === 'H1' && !!document.activeElement.closest('#main'));

describe('page titles and route announcements', () => {
  it('names the first page after its heading and leaves focus at the top', async () => {
    const p = await newPage(browser);
    await signIn(p, 'member@demo.test', undefined, '/dashboard');
    // signing in moves focus to the next page's heading, on purpose: let that happen on the dashboard
    // first, so that what follows is a page opened as a new document and nothing else
    await expect.poll(() => focusIsOnHeading(p)).toBe(true);
    await p.goto('/forums');
    await heading(p).waitFor();
    await titleFollowsHeading(p);
    expect(await p.title()).not.toBe('Backbeat: the drum academy');
    expect(await focusIsOnHeading(p)).toBe(false);
    expect(p.errors).toEqual([]);
  });

  it('a lesson and a member are named by their own names', async () => {
    const p = await newPage(browser);
    await signIn(p, 'member@demo.test', undefined, '/dashboard');
    await expect.poll(() => focusIsOnHeading(p)).toBe(true);
    await p.goto('/lessons/1');
    await p.locator('#main h1').getByText('Setting Up Your Kit').waitFor();
    await titleFollowsHeading(p);
    expect(await p.title()).toBe('Setting Up Your Kit – Backbeat');
    await p.goto('/profile/maya-chen');
    await p.locator('#main h1').getByText('Maya Chen').waitFor();
    await titleFollowsHeading(p);
    expect(await p.title()).toBe('Maya Chen – Backbeat');
    expect(p.errors).toEqual([]);
  });

  it('after each in-app navigation: the new page’s name in the title and focus on its heading', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'member@demo.test', undefined, '/forums');
    await heading(p).waitFor();
    const forumsTitle = await p.title();
    // a category, then a topic in it: links that change the page without loading a new document
    await p.locator('#main a[href^="/forums/"]:not([href^="/forums/topic"])').first().click();
    await expect.poll(() => p.title()).not.toBe(forumsTitle);
    await titleFollowsHeading(p);
    await expect.poll(() => focusIsOnHeading(p)).toBe(true);
    const categoryTitle = await p.title();
    // a topic opens over the list; its "open the full topic" link goes to the topic's own page
    const topicLink = p.locator('#main a[href^="/forums/topic/"]').first();
    const topicName = ((await topicLink.textContent()) ?? '').trim();
    await topicLink.click();
    await p.getByRole('dialog').getByRole('link', { name: FORUM_MESSAGES.openFullTopic }).click();
    await p.waitForURL('**/forums/topic/*');
    await expect.poll(() => p.title()).not.toBe(categoryTitle);
    await titleFollowsHeading(p);
    expect(await p.title()).toContain(topicName.slice(0, 20));
    await expect.poll(() => focusIsOnHeading(p)).toBe(true);
    // Back is a navigation too
    await p.goBack();
    await expect.poll(() => p.title()).toBe(categoryTitle);
    await expect.poll(() => focusIsOnHeading(p)).toBe(true);
    expect(p.errors).toEqual([]);
  });

  it('a heading the page draws anew once its data is in takes the focus with it', async () => {
    const p = await newPage(browser, PHONE);
    await p.goto('/login');
    await heading(p).waitFor();
    // the reset page asks whether its link still works under one heading, and answers under another
    await navigateInApp(p, '/password/reset/not-a-real-token');
    await heading(p).getByText('This reset link cannot be used').waitFor();
    await expect.poll(() => focusIsOnHeading(p)).toBe(true);
    expect(p.errors).toEqual([]);
  });
});
