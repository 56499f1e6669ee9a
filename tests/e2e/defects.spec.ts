import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SANDBOX_CARDS } from '#shared/commerce';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { UPLOAD_MESSAGES } from '#shared/upload';
import { DESKTOP, launchBrowser, newDrummer, newPage, PHONE, registerInPage, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

let seq = 0;
const uniqueEmail = () => `drummer${Date.now()}${++seq}@defects.test`;
const size = (v: { width: number }) => (v.width < 500 ? 390 : 1280);

/** a JSON call from the page, with its CSRF token (as the app's own calls are made) */
function call<T>(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': token },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as T };
    },
    { method, url, body },
  );
}

describe('registration', () => {
  it('"Join" answers the click at once, before the modal\'s code has arrived; its "Sign in" keeps /order', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await newPage(browser, viewport);
      await page.goto('/');
      // hold every script asked for from now on: the click must still be answered
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/*.js', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('button', { name: 'Join' }).click();
      await page.getByRole('status', { name: 'Opening Create Your Account' }).waitFor();
      await reviewShot(page, `defects/join-opening-${size(viewport)}.png`, { fullPage: false });
      release();
      const dialog = page.getByRole('dialog', { name: 'Create Your Account' });
      await dialog.getByLabel('Name').waitFor();
      expect(await dialog.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login?to=%2Forder');
      await reviewShot(page, `defects/join-modal-${size(viewport)}.png`, { fullPage: false });
      expect(page.errors).toEqual([]);
      await page.context().close();
    }
  });

  it('a guest who registers inside the membership checkout sees the header as a member at once', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await newPage(browser, viewport);
      await page.goto('/join');
      await page.getByTestId('plan-lifetime').click();
      const email = uniqueEmail();
      await page.getByLabel('Your name').fill('Casey Groove-Montgomery-Featherstonehaugh');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Confirm email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('sticks-and-skins');
      await page.getByLabel('Card holder name').fill('Casey Groove');
      const form = page.locator('#checkout-form');
      await form.getByLabel('Card number').fill(SANDBOX_CARDS.declined);
      await form.getByLabel(/Expiry/).fill(`12/${(new Date().getUTCFullYear() + 2) % 100}`);
      await form.getByLabel('CVC').fill('123');
      await page.getByLabel(/I accept the/).check();
      const header = page.locator('header').first();
      expect(await header.getByRole('button', { name: 'Join' }).count()).toBe(1);
      await page.getByRole('button', { name: /Pay \$750\.00 and join/ }).click();
      await page.getByTestId('card-error').waitFor();
      // registered, payment declined, still on the page: the header already knows the member
      await header.getByRole('button', { name: 'Account menu' }).waitFor();
      expect(await header.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      expect(await header.getByRole('button', { name: 'Join' }).count()).toBe(0);
      await reviewShot(page, `defects/checkout-registered-${size(viewport)}.png`, { fullPage: false });
      await page.context().close();
    }
  });
});

describe('"Jump to latest comment"', () => {
  it('covers no post action at 390 px, and is not offered in thread mode', async () => {
    const page = await newPage(browser, PHONE);
    const email = uniqueEmail();
    expect(await registerInPage(page, { name: 'Jamie Paradiddle', email, password: 'sticks-and-skins' })).toBe(200);
    // a member of the academy: forums are theirs (the admin grants it as support would)
    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test');
    const me = await call<{ user: { id: number } }>(page, 'GET', '/api/me');
    expect(
      (await call(admin, 'POST', `/api/admin/members/${me.json.user.id}/entitlements`, { kind: 'membership' })).status,
    ).toBe(201);
    await page.reload();
    const categories = await call<{ data: Array<{ slug: string }> }>(page, 'GET', '/api/forums');
    expect(categories.status).toBe(200);
    const created = await call<{ topic: { id: number; url: string } }>(
      page,
      'POST',
      `/api/forums/${categories.json.data[0]!.slug}/topics`,
      {
        title: 'Open-handed ride patterns on a left-handed kit: what actually changes for the hi-hat foot?',
        body: 'I switched to open-handed playing last month. Anyone else?',
      },
    );
    expect(created.status).toBe(201);
    const ids: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const post = await call<{ post: { id: number } }>(page, 'POST', '/posts', {
        type: 'forumtopic',
        resource_id: created.json.topic.id,
        body: `Reply ${i}: keep the hi-hat foot steady on 2 and 4 and let the ride hand lead, then swap for a few bars to feel the difference.`,
      });
      expect(post.status).toBe(201);
      ids.push(post.json.post.id);
    }
    await page.goto(created.json.topic.url);
    const jump = page.getByRole('button', { name: COMMUNITY_MESSAGES.jumpToLatest });
    await jump.waitFor();
    const rows = page.locator('[data-post-actions]');
    await rows.first().waitFor();
    const n = await rows.count();
    expect(n).toBeGreaterThanOrEqual(6);
    for (let i = 0; i < n; i++) {
      const row = rows.nth(i);
      // the row at the very bottom of the screen, where the floating button is
      await row.evaluate((el) => el.scrollIntoView({ block: 'end' }));
      const hits = await row.evaluate((el) =>
        [...el.querySelectorAll('button, a')].map((action) => {
          const r = action.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return {
            action: action.textContent?.trim() || action.getAttribute('aria-label'),
            reachable: !!hit && action.contains(hit),
          };
        }),
      );
      expect(hits.filter((h) => !h.reachable)).toEqual([]);
    }
    await reviewShot(page, 'defects/topic-jump-390.png', { fullPage: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);

    // thread mode: one conversation, nothing "latest" to jump to
    await page.goto(`${created.json.topic.url}#${ids[0]}`);
    await page.getByRole('button', { name: COMMUNITY_MESSAGES.seeFullDiscussion }).waitFor();
    expect(await jump.count()).toBe(0);
    await reviewShot(page, 'defects/topic-thread-mode-390.png', { fullPage: false });
  });
});

describe('metronome', () => {
  it("a visitor's playlist starts with 'Start Up': 120 bpm in 4/4, no subdivision, not a favourite", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await newPage(browser, viewport);
      await page.goto('/metronome');
      const load = page.getByRole('button', { name: /^Load Start Up / });
      await load.waitFor();
      // the entry's description names a subdivision only when it has one
      expect(await load.getAttribute('aria-label')).toMatch(/^Load Start Up 120 bpm · 4\/4 · [^·]+$/);
      expect(await page.getByRole('button', { name: 'Favourite Start Up' }).getAttribute('aria-pressed')).toBe('false');
      await reviewShot(page, `defects/metronome-${size(viewport)}.png`);
      await page.context().close();
    }
  });
});

describe('the posts modal', () => {
  it('opens from the page-wide event on a page that is not a lesson, and Escape closes it once its thread has focus', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await newPage(browser, viewport);
      // a member of the test's own: the topic and reply below are theirs
      await newDrummer(page, { member: true });
      await page.goto('/dashboard');
      const categories = await call<{ data: Array<{ slug: string }> }>(page, 'GET', '/api/forums');
      const created = await call<{ topic: { id: number } }>(
        page,
        'POST',
        `/api/forums/${categories.json.data[0]!.slug}/topics`,
        {
          title: 'Which practice pad feels closest to a real snare under brushes?',
          body: 'Looking for something quiet enough for an apartment that still answers a sweep.',
        },
      );
      const post = await call<{ post: { id: number } }>(page, 'POST', '/posts', {
        type: 'forumtopic',
        resource_id: created.json.topic.id,
        body: 'A mesh pad with the tension right down.',
      });
      expect(post.status).toBe(201);
      await page.evaluate(
        (url) => window.dispatchEvent(new CustomEvent('open-posts-modal', { detail: { url } })),
        `/posts/${post.json.post.id}?embed=1`,
      );
      const dialog = page.getByRole('dialog', { name: 'Discussion' });
      await dialog.waitFor();
      const thread = page.frameLocator('[data-testid="posts-modal-frame"]');
      await thread.getByText('A mesh pad with the tension right down.').click();
      await reviewShot(page, `defects/posts-modal-${size(viewport)}.png`, { fullPage: false });
      // the key goes to the thread's document, where the focus is
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.context().close();
    }
  });
});

describe('uploads', () => {
  it('a picture named .mp4 says it is not a video we can play, even when later chunks hear first that its session closed, and offers no Try again', async () => {
    const page = await newPage(browser, PHONE);
    await newDrummer(page, { student: true });
    await page.goto('/mentorship/videos');
    await page.getByRole('heading', { name: 'Send a practice video' }).waitFor();
    const offsetOf = (body: Buffer | null) =>
      body ? (/name="start_offset"\r\n\r\n(\d+)/.exec(body.toString('latin1'))?.[1] ?? null) : null;
    // the server refuses the first chunk (it reads its first bytes) before the others arrive, and its
    // answer reaches the page last
    let firstSeen!: () => void;
    const firstRefused = new Promise<void>((r) => (firstSeen = r));
    let laterSeen!: () => void;
    const laterAnswered = new Promise<void>((r) => (laterSeen = r));
    await page.route('**/uploads/chunked', async (route) => {
      const offset = route.request().method() === 'POST' ? offsetOf(route.request().postDataBuffer()) : null;
      if (offset === '0') {
        const response = await route.fetch();
        firstSeen();
        await laterAnswered;
        await route.fulfill({ response });
      } else if (offset !== null) {
        await firstRefused;
        const response = await route.fetch();
        await route.fulfill({ response });
        laterSeen();
      } else await route.continue();
    });
    const png = Buffer.alloc(3 * 1024 * 1024 + 100, 0);
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(png);
    await page.getByLabel('Title').fill('Holiday snap');
    await page
      .getByLabel('Your practice video')
      .setInputFiles({ name: 'Holiday.mp4', mimeType: 'video/mp4', buffer: png });
    await page.getByText(UPLOAD_MESSAGES.wrongType).waitFor();
    expect(await page.getByText(UPLOAD_MESSAGES.sessionNotFound).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await reviewShot(page, 'defects/upload-not-a-video-390.png', { fullPage: false });
  });
});
