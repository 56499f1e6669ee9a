import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readManifest } from '../../scripts/initial-js.ts';
import { DESKTOP, launchBrowser, newPage, painted, PHONE, registerInPage, signIn } from '#test/e2e';

/*
 * The header's account menu and notifications bell answer the first click a member makes after a page
 * loads: each load below clicks a menu's button the moment it is visible, and the menu must open. They
 * come with the rest of the member's frame (the side menu's button, from the same chunk), in the same
 * change to the page: nothing is painted before it works, and nothing of the frame waits for them.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const LOADS = [
  { url: '/dashboard', button: 'Account menu' },
  { url: '/lessons/1', button: /^Notifications/ },
  { url: '/forums/topic/1', button: 'Account menu' },
  { url: '/dashboard', button: /^Notifications/ },
  { url: '/lessons/1', button: 'Account menu' },
  { url: '/forums/topic/1', button: /^Notifications/ },
];

describe('the header menus on a fresh page load', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)(
    'at %s width, a click the moment the avatar or the bell is painted opens its menu',
    async (_width, viewport) => {
      const p = await newPage(browser, viewport);
      const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      expect(
        await registerInPage(p, {
          name: 'First Click Drummer',
          email: `first-click-${stamp}@example.com`,
          password: 'first-click-pass-1',
        }),
      ).toBe(200);
      // each batch of DOM changes (a MutationObserver's callback runs once after each task that changed
      // the page): were the side menu's button and the two header menus there after it
      await p.addInitScript(() => {
        const w = window as unknown as { batches: { drawer: boolean; account: boolean; bell: boolean }[] };
        w.batches = [];
        new MutationObserver(() => {
          const has = (selector: string) => document.querySelector(selector) !== null;
          w.batches.push({
            drawer: has('button[aria-label="Open menu"]'),
            account: has('button[aria-label="Account menu"]'),
            bell: has('button[aria-label^="Notifications"]'),
          });
        }).observe(document, { childList: true, subtree: true });
      });
      for (const { url, button } of LOADS) {
        await p.goto(url, { waitUntil: 'commit' });
        const trigger = p.getByRole('banner').getByRole('button', { name: button });
        await trigger.waitFor({ state: 'visible' });
        // the pointer goes where the button is painted, at once: no waiting for it to be ready, as a person would not
        const box = (await trigger.boundingBox())!;
        await p.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        await p.getByRole('menu').waitFor({ state: 'visible', timeout: 5_000 });
        expect(await trigger.getAttribute('aria-expanded'), `${url}: ${String(button)}`).toBe('true');
        const batches = await p.evaluate(
          () => (window as unknown as { batches: { drawer: boolean; account: boolean; bell: boolean }[] }).batches,
        );
        expect(
          batches.find((b) => b.drawer || b.account || b.bell),
          url,
        ).toEqual({ drawer: true, account: true, bell: true });
      }
      expect(p.errors).toEqual([]);
      await p.context().close();
    },
  );
});

/** The built file of the lesson page's route chunk (src/client/app/router.tsx), from the build's manifest. */
const lessonPageChunk = () => readManifest()['app/pages/learning.tsx']!.file;

describe('a menu opened while the page is still loading', () => {
  it.each(['Account menu', /^Notifications/])(
    'the %s stays open, with focus in it, when the page it signed in to arrives and names itself',
    async (button) => {
      const p = await newPage(browser, PHONE);
      // the lesson page's own code is held back until the member has opened the menu: its heading,
      // which a page after a sign-in focuses, arrives while the menu is open
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await p.route(`**/${lessonPageChunk()}`, async (route) => {
        await held;
        await route.continue();
      });
      await signIn(p, 'member@demo.test', undefined, '/lessons/1');
      const trigger = p.getByRole('banner').getByRole('button', { name: button });
      await trigger.click();
      const menu = p.getByRole('menu');
      await menu.waitFor();
      expect(await p.getByRole('main').getByRole('heading', { level: 1 }).count()).toBe(0);
      release();
      await p.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
      // the page has named itself (its title follows the heading): the moment focus would have moved
      await expect.poll(() => p.title()).not.toBe('Backbeat');
      await painted(p);
      expect(await menu.isVisible()).toBe(true);
      expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      expect(p.errors).toEqual([]);
      await p.context().close();
    },
  );
});
