import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Response } from 'playwright-core';
import { baseURL, launchBrowser, newPage, PHONE, signIn } from './fixtures.ts';

/*
 * How a page loads (issue 9: Lighthouse), on the real build: the frame paints before any JavaScript
 * runs, the page's own chunks are named in the shell (src/server/plugins/preload.ts) so none is found
 * late, every built script comes compressed, and the lesson video loads only when asked for.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const PAGES: { page: string; as?: string }[] = [
  { page: '/' },
  { page: '/metronome' },
  { page: '/diagnostic' },
  { page: '/join' },
  { page: '/mentorship/checkout' },
  { page: '/lessons/1', as: 'member@demo.test' },
  { page: '/forums/topic/1', as: 'member@demo.test' },
];

describe('a visit', () => {
  it.each(PAGES)('$page: the shell names every script the page loads, and each comes compressed', async ({ page: url, as }) => {
    const p = await newPage(browser, PHONE);
    if (as) {
      await signIn(p, as);
      await p.waitForLoadState('networkidle'); // the page after sign-in has loaded its own scripts
    }
    const scripts: Response[] = [];
    p.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.push(res);
    });
    const nav = await p.goto(url, { waitUntil: 'networkidle' });
    await p.locator('main').getByRole('heading').first().waitFor();
    expect(new URL(p.url()).pathname).toBe(url);
    const shell = await nav!.text();
    const named = new Set([...shell.matchAll(/<(?:script type="module" crossorigin src|link rel="modulepreload" crossorigin href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
    const fetched = new Set(scripts.map((r) => new URL(r.url()).pathname.slice(1)));
    // nothing the page needed was discovered only after its code ran, and nothing named went unused
    expect([...fetched].filter((f) => !named.has(f))).toEqual([]);
    expect([...named].filter((f) => !fetched.has(f!))).toEqual([]);
    for (const res of scripts) {
      const headers = await res.allHeaders();
      // the build compresses every script of 1 KB or more (vite.config.ts); below that it would gain a few bytes
      if ((await res.body()).length >= 1024) expect(headers['content-encoding'], res.url()).toBe('br');
      expect(headers['cache-control'], res.url()).toBe('public, max-age=31536000, immutable');
    }
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('shows the page frame before any JavaScript has run', async () => {
    const context = await browser.newContext({ baseURL: baseURL(), javaScriptEnabled: false, viewport: PHONE });
    const p = await context.newPage();
    await p.goto('/metronome');
    await p.getByRole('banner').getByRole('link', { name: 'Backbeat' }).waitFor();
    await context.close();
  });
});

describe('the lesson video', () => {
  it('is a poster with a play button until asked for; from the keyboard, the player then loads, playing, and takes the focus', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'member@demo.test');
    const frames: string[] = [];
    p.on('request', (req) => {
      if (req.resourceType() === 'document' && req.frame() !== p.mainFrame()) frames.push(req.url());
    });
    await p.goto('/lessons/1');
    const play = p.getByRole('button', { name: /^Play video: .+ video$/ });
    await play.waitFor();
    const video = p.locator('main iframe[title$=" video"]');
    expect(await video.count()).toBe(0);
    expect(frames.filter((f) => f.includes('/embed/demo0000001'))).toEqual([]);
    await play.focus();
    await p.keyboard.press('Enter');
    await video.waitFor({ state: 'attached' });
    const src = new URL((await video.getAttribute('src'))!);
    expect(src.hostname).toBe('www.youtube-nocookie.com');
    expect(src.searchParams.get('autoplay')).toBe('1');
    expect(await play.count()).toBe(0);
    await expect.poll(() => p.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    expect(p.errors).toEqual([]);
  });
});

describe('first answers', () => {
  it.each([
    { page: '/lessons/1', reads: ['/api/lessons/1', '/inline-posts?type=lesson&id=1&sort=upvoted&page=1', '/notifications/recent'], shows: 'Setting Up Your Kit', next: '/lessons/2', nextRead: '/api/lessons/2', again: '/inline-posts?type=lesson&id=1&sort=upvoted&page=1' },
    { page: '/forums/topic/1', reads: ['/forums/api/topic/1', '/posts?id=1&type=forumtopic', '/api/forums', '/notifications/recent'], shows: 'Hi from Lisbon', next: '/forums/topic/2', nextRead: '/forums/api/topic/2', again: '/posts?id=1&type=forumtopic' },
  ])('$page renders from the answers in the page without asking for them; the next page asks the server', async ({ page: url, reads, shows, next, nextRead, again }) => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'member@demo.test');
    await p.waitForLoadState('networkidle');
    // every loading indicator the page shows, from its first render on
    await p.addInitScript(() => {
      const seen: string[] = ((window as unknown as { loadingSeen: string[] }).loadingSeen = []);
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('main [role="status"][aria-label]')) seen.push(el.getAttribute('aria-label')!);
      }).observe(document, { childList: true, subtree: true });
    });
    const asked: string[] = [];
    p.on('request', (req) => {
      if (req.resourceType() === 'fetch' || req.resourceType() === 'xhr') asked.push(new URL(req.url()).pathname + new URL(req.url()).search);
    });
    const nav = await p.goto(url, { waitUntil: 'networkidle' });
    // the page holds exactly these answers, and shows them without fetching any of them
    const shell = await nav!.text();
    const block = /<script type="application\/json" id="first-answers">(.*?)<\/script>/s.exec(shell);
    expect(Object.keys(JSON.parse(block![1]!) as object).sort()).toEqual([...reads].sort());
    await p.locator('main').getByText(shows).first().waitFor();
    expect(asked.filter((a) => reads.includes(a))).toEqual([]);
    // the page's first render holds its data and its discussion's first page (they start from the
    // answers): no loading state but the frame's while the page's code loads, not the page's, not the
    // discussion's
    const seen = await p.evaluate(() => (window as unknown as { loadingSeen: string[] }).loadingSeen);
    expect(seen.filter((label) => label !== 'Loading page')).toEqual([]);
    // moving on inside the app: the next page's reads go to the server
    await p.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, next);
    await expect.poll(() => asked.includes(nextRead)).toBe(true);
    // and back: the discussion is read again from the server (the answers were for the first view only)
    await p.goBack();
    await expect.poll(() => asked.includes(again)).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });
});

describe('the first commit', () => {
  // docs/decisions/0013-first-commit.md: the page's first commit is one of its long tasks at
  // Lighthouse's 4x, so nothing the first view can do without shares its task. The header's menus (a
  // Radix menu trigger sets state from a ref callback as it mounts, a synchronous re-render that pulled
  // every passive effect of the page into that task) and the realtime connection wait for the browser
  // to be idle. A MutationObserver's callback runs once after each task that changed the page.
  it.each(['/lessons/1', '/forums/topic/1'])('%s signed in: the member menus and the realtime connection wait for the browser to be idle, out of the first commit', async (url) => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'member@demo.test');
    await p.waitForLoadState('networkidle');
    await p.addInitScript(() => {
      const w = window as unknown as { batches: { page: boolean; menu: boolean; idleRuns: number }[]; socketInIdle: boolean | null };
      w.batches = [];
      w.socketInIdle = null;
      // idle callbacks run so far, and whether one is running (the connection is made from one)
      let idleRuns = 0;
      let idle = false;
      new MutationObserver(() => {
        w.batches.push({ page: document.querySelector('main h1') !== null, menu: document.querySelector('button[aria-label="Account menu"]') !== null, idleRuns });
      }).observe(document, { childList: true, subtree: true });
      const nativeIdle = window.requestIdleCallback.bind(window);
      window.requestIdleCallback = (fn, options) =>
        nativeIdle((deadline) => {
          idle = true;
          idleRuns += 1;
          try {
            fn(deadline);
          } finally {
            idle = false;
          }
        }, options);
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(...args: ConstructorParameters<typeof WebSocket>) {
          super(...args);
          w.socketInIdle ??= idle;
        }
      };
    });
    await p.goto(url);
    // the page and the menus, in whichever order they come
    await p.locator('main h1').first().waitFor();
    await p.getByRole('button', { name: 'Account menu' }).waitFor();
    await p.waitForFunction(() => (window as unknown as { socketInIdle: boolean | null }).socketInIdle !== null);
    const { batches, socketInIdle } = await p.evaluate(() => {
      const w = window as unknown as { batches: { page: boolean; menu: boolean; idleRuns: number }[]; socketInIdle: boolean };
      return { batches: w.batches, socketInIdle: w.socketInIdle };
    });
    const pageAt = batches.findIndex((b) => b.page);
    const menuAt = batches.findIndex((b) => b.menu);
    expect(pageAt).toBeGreaterThanOrEqual(0);
    expect(menuAt).toBeGreaterThanOrEqual(0);
    // the menus were mounted from an idle callback, never with the frame's or the page's first render
    // (whether their commit lands before or after the page's depends on when the page's code arrives)
    expect(batches[menuAt]!.idleRuns).toBeGreaterThan(0);
    expect(socketInIdle).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });
});

describe('the entry script with DevTools attached', () => {
  // Lighthouse measures through the DevTools protocol, as Playwright drives the page here. With it
  // attached, a new Error makes V8 parse every function on the stack again for its source positions;
  // React DOM creates errors as it initialises, inside the whole bundled library and the whole entry
  // chunk, so that parse was most of the entry's evaluation (src/client/lib/quiet-stacks.ts). Read
  // from a trace of the load: no such parse happens while any module evaluates, and afterwards the
  // app's errors have their stacks again.
  it('evaluates its modules without parsing them again for stack traces; errors have stacks afterwards', async () => {
    const p = await newPage(browser, PHONE);
    const cdp = await p.context().newCDPSession(p);
    const events: { name: string; ts: number; dur?: number; pid: number; tid: number }[] = [];
    cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as typeof events)));
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['v8', 'disabled-by-default-v8.compile'] }, transferMode: 'ReportEvents' });
    await p.goto('/metronome', { waitUntil: 'networkidle' });
    await p.locator('main').getByRole('heading').first().waitFor();
    await cdp.send('Tracing.end');
    await complete;
    const modules = events.filter((e) => e.name === 'v8.evaluateModule' && e.dur);
    expect(modules.length).toBeGreaterThan(0);
    const within = (e: (typeof events)[number]) => modules.some((m) => m.pid === e.pid && m.tid === e.tid && e.ts >= m.ts && e.ts <= m.ts + m.dur!);
    expect(events.filter((e) => e.name === 'V8.CollectSourcePositions' && within(e))).toEqual([]);
    expect(await p.evaluate(() => ({ limit: (Error as unknown as { stackTraceLimit: unknown }).stackTraceLimit, stack: typeof new Error('x').stack }))).toEqual({ limit: 10, stack: 'string' });
    expect(p.errors).toEqual([]);
    await p.context().close();
  });
});
