import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request, Response, Route } from 'playwright-core';
import { baseURL, DESKTOP, launchBrowser, navigateInApp, newPage, painted, PHONE, signIn } from '#test/e2e';

/*
 * How a page loads, on the real build: the frame paints before any JavaScript
 * runs, the page's own chunks are named in the shell (src/server/plugins/preload.ts) so none is found
 * late, every built script comes compressed, and the lesson video loads only when asked for.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const PAGES = (
  [
    { page: '/' },
    { page: '/metronome' },
    { page: '/diagnostic' },
    { page: '/join' },
    { page: '/mentorship/checkout' },
    { page: '/lessons/1', as: 'member@demo.test' },
    { page: '/forums/topic/1', as: 'member@demo.test' },
    // where signing in lands: its cards fill in from three reads
    { page: '/dashboard', as: 'member@demo.test' },
    // a member's checkout opens at its payment step, whose options come from two reads
    { page: '/mentorship/checkout', as: 'member@demo.test' },
    // a mentor's page of a student: the overview and the links are read separately
    { page: '/mentorship/students/3', as: 'admin@demo.test' },
    // the mentorship area, whose route table is a chunk of its own (router.tsx's routeArea)
    { page: '/mentorship/practice-plan', as: 'student@demo.test' },
  ] as { page: string; as?: string }[]
).map((p) => ({ ...p, who: p.as ? `as ${p.as}` : 'for a visitor' }));

/** A fresh browser context at this size, signed in as `as` first (the page after sign-in has loaded its own scripts). */
async function freshPage(viewport: typeof PHONE, as?: string) {
  const p = await newPage(browser, viewport);
  if (as) {
    await signIn(p, as);
    await p.waitForLoadState('networkidle');
  }
  return p;
}

describe('a visit', () => {
  it.each(PAGES)(
    '$page $who: the shell names every script the page loads, and each comes compressed',
    async ({ page: url, as }) => {
      const p = await freshPage(PHONE, as);
      const scripts: Response[] = [];
      p.on('response', (res) => {
        if (res.request().resourceType() === 'script') scripts.push(res);
      });
      const nav = await p.goto(url, { waitUntil: 'networkidle' });
      await p.locator('main').getByRole('heading').first().waitFor();
      expect(new URL(p.url()).pathname).toBe(url);
      const shell = await nav!.text();
      const named = new Set(
        [
          ...shell.matchAll(
            /<(?:script type="module" crossorigin src|link rel="modulepreload" crossorigin href)="\/(assets\/[^"]+\.js)"/g,
          ),
        ].map((m) => m[1]),
      );
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
    },
  );

  it('shows the page frame before any JavaScript has run', async () => {
    const context = await browser.newContext({ baseURL: baseURL(), javaScriptEnabled: false, viewport: PHONE });
    const p = await context.newPage();
    await p.goto('/metronome');
    await p.getByRole('banner').getByRole('link', { name: 'Backbeat' }).waitFor();
    await context.close();
  });
});

/** A layout shift the browser reported, with the elements it moved ("div in header"). */
interface Shift {
  value: number;
  moved: string[];
}

/** Records every layout shift of the page's next document, for `takeShifts`. */
async function watchShifts(p: Page) {
  await p.addInitScript(() => {
    const shifts: Shift[] = ((window as unknown as { shifts: Shift[] }).shifts = []);
    const describe = (node: Node | null) => {
      const el = node instanceof Element ? node : node?.parentElement;
      if (!el) return 'a removed node';
      const part = el.closest('header, main, footer, [role="note"]');
      return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} in ${part?.getAttribute('role') ?? part?.tagName.toLowerCase() ?? 'body'}`;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        sources: { node: Node | null }[];
      })[])
        shifts.push({ value: entry.value, moved: entry.sources.map((s) => describe(s.node)) });
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts recorded since the last call. */
const takeShifts = (p: Page) => p.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts.splice(0));

/**
 * Holds the page's requests that `which` picks, from now on; `release` lets those held through one at a
 * time, each answer painted before the next goes (later ones pass at once), and tells how many there
 * were: the order in which answers arrive on a slow connection, each on a page that has painted.
 * `release(n)` first waits until n are held. Requests it does not hold go on to the page's other routes.
 */
async function holdRequests(p: Page, which: (request: Request) => boolean) {
  const held: Route[] = [];
  let holding = true;
  let heldOne = () => {};
  await p.route('**/*', (route) => {
    if (!holding || !which(route.request())) return route.fallback();
    held.push(route);
    heldOne();
  });
  return async function release(atLeast = 0) {
    while (held.length < atLeast) await new Promise<void>((resolve) => (heldOne = resolve));
    holding = false;
    await painted(p);
    for (const route of held) {
      await Promise.all([p.waitForResponse((res) => res.request() === route.request()), route.continue()]);
      await painted(p);
    }
    return held.length;
  };
}

/** The page's reads: what its code fetches. */
const isRead = (request: Request) => request.resourceType() === 'fetch';

/**
 * Resolves once the page itself has painted: its heading, or a loading indicator of its own (not the
 * frame's, shown while the page's code arrives).
 */
async function firstPaintOf(p: Page) {
  const main = p.locator('main');
  await main
    .getByRole('heading')
    .or(main.locator('[role="status"]:not([aria-label="Loading page"])'))
    .first()
    .waitFor();
  await painted(p);
}

describe('a page that loads', () => {
  /*
   * Every layout shift the browser reports while the page loads (none follows input here), each with
   * the elements it moved: a footer shown under the loading spinner and pushed away when the page's code
   * arrives, a banner put above a form that had painted, or cards filled in one after the other, moves
   * what the reader is looking at. The page's reads are held back until it has first painted
   * (firstPaintOf), then answered one at a time (holdRequests). The web font is left out (the page stays in
   * the fallback font), so that no case here depends on when it arrives: its swap is the next case's.
   * The cases here run side by side, each in a browser context of its own: none depends on timing, and
   * while one waits for a frame the others have the cores.
   */
  it.concurrent.each(
    [DESKTOP, PHONE].flatMap((viewport) => PAGES.map((p) => ({ ...p, viewport, width: viewport.width }))),
  )('$page $who at $width px: nothing that has painted moves', async ({ page: url, as, viewport }) => {
    const p = await freshPage(viewport, as);
    await p.route(/\.woff2$/, (route) => route.abort());
    const release = await holdRequests(p, isRead);
    await watchShifts(p);
    await p.goto(url, { waitUntil: 'domcontentloaded' });
    await firstPaintOf(p);
    await release();
    await p.waitForLoadState('networkidle');
    await p.locator('main').getByRole('heading').first().waitFor();
    await painted(p);
    expect(await takeShifts(p)).toEqual([]);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it.concurrent.each([
    { page: '/dashboard', from: '/courses', as: 'member@demo.test', part: 'Your practice', partReads: 3 },
    {
      page: '/mentorship/students/3',
      from: '/mentorship/students',
      as: 'admin@demo.test',
      part: 'Accountability links',
      partReads: 2,
    },
  ])(
    '$page opened from $from: its parts, read then, show together and move nothing',
    async ({ page: url, from, as, part, partReads }) => {
      const p = await freshPage(PHONE, as);
      await watchShifts(p);
      await p.goto(from, { waitUntil: 'networkidle' });
      await takeShifts(p);
      const release = await holdRequests(p, isRead);
      await navigateInApp(p, url);
      // the page's parts, read once it has painted its own loading state
      await release(partReads);
      await p.getByRole('heading', { name: part }).waitFor();
      await p.waitForLoadState('networkidle');
      await painted(p);
      expect(await takeShifts(p)).toEqual([]);
      expect(p.errors).toEqual([]);
      await p.context().close();
    },
  );

  /*
   * A first visit on a slow connection: the page paints in the fallback font and Inter swaps in later.
   * The fallback is sized to Inter (src/client/fallback-font.css), so the page's frame does not move and
   * its text moves little: a line that breaks one word earlier in one font than in the other is all that
   * is left, and the swap may cost at most a quarter of what Core Web Vitals call a good page's whole
   * layout shift (0.1).
   */
  it.concurrent.each(
    [DESKTOP, PHONE].flatMap((viewport) =>
      PAGES.filter((p) => !p.as).map((p) => ({ ...p, viewport, width: viewport.width })),
    ),
  )(
    '$page at $width px, first visit, the web font late: the frame stays put as it swaps in',
    async ({ page: url, viewport }) => {
      const p = await freshPage(viewport);
      const releaseFonts = await holdRequests(p, (request) => request.resourceType() === 'font');
      await watchShifts(p);
      await p.goto(url, { waitUntil: 'domcontentloaded' });
      await p.locator('main').getByRole('heading').first().waitFor();
      await painted(p);
      const fallbackInUse = await p.evaluate(() =>
        [...document.fonts].some((face) => face.family.includes('Inter Variable fallback') && face.status === 'loaded'),
      );
      expect(fallbackInUse, 'the fallback font (Arial or Liberation Sans) is installed').toBe(true);
      await takeShifts(p);
      expect(await releaseFonts(), 'the page asks for the web font').toBeGreaterThan(0);
      await p.waitForLoadState('networkidle');
      expect(await p.evaluate(() => document.fonts.check('16px "Inter Variable"'))).toBe(true);
      await painted(p);
      const swap = await takeShifts(p);
      expect(swap.flatMap((s) => s.moved).filter((moved) => moved.endsWith(' in header'))).toEqual([]);
      expect(swap.reduce((sum, s) => sum + s.value, 0)).toBeLessThanOrEqual(0.025);
      expect(p.errors).toEqual([]);
      await p.context().close();
    },
  );
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
    {
      page: '/lessons/1',
      reads: ['/api/lessons/1', '/inline-posts?type=lesson&id=1&sort=upvoted&page=1', '/notifications/recent'],
      shows: 'Setting Up Your Kit',
      next: '/lessons/2',
      nextRead: '/api/lessons/2',
      again: '/inline-posts?type=lesson&id=1&sort=upvoted&page=1',
    },
    {
      page: '/forums/topic/1',
      reads: ['/forums/api/topic/1', '/posts?id=1&type=forumtopic', '/api/forums', '/notifications/recent'],
      shows: 'Hi from Lisbon',
      next: '/forums/topic/2',
      nextRead: '/forums/api/topic/2',
      again: '/posts?id=1&type=forumtopic',
    },
    {
      page: '/dashboard',
      reads: ['/api/continue', '/api/practice/stats', '/api/my-practice', '/notifications/recent'],
      shows: 'Your practice',
      next: '/courses',
      nextRead: '/api/courses',
      // back within the query cache's 30 s the cards show what was read (src/client/lib/query-client.ts)
      again: null,
    },
  ])(
    '$page renders from the answers in the page without asking for them; the next page asks the server',
    async ({ page: url, reads, shows, next, nextRead, again }) => {
      const p = await newPage(browser, PHONE);
      await signIn(p, 'member@demo.test');
      await p.waitForLoadState('networkidle');
      // every loading indicator the page shows, from its first render on
      await p.addInitScript(() => {
        const seen: string[] = ((window as unknown as { loadingSeen: string[] }).loadingSeen = []);
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('main [role="status"][aria-label]'))
            seen.push(el.getAttribute('aria-label')!);
        }).observe(document, { childList: true, subtree: true });
      });
      const asked: string[] = [];
      p.on('request', (req) => {
        if (req.resourceType() === 'fetch' || req.resourceType() === 'xhr')
          asked.push(new URL(req.url()).pathname + new URL(req.url()).search);
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
      await navigateInApp(p, next);
      await expect.poll(() => asked.includes(nextRead)).toBe(true);
      // and back: the discussion is read again from the server (the answers were for the first view only)
      await p.goBack();
      if (again) await expect.poll(() => asked.includes(again)).toBe(true);
      expect(p.errors).toEqual([]);
      await p.context().close();
    },
  );
});

describe('the first commit', () => {
  // docs/decisions/0013-first-commit.md: the realtime connection is work nobody sees, so it waits
  // for the browser to be idle rather than share the task of the page's first commit. (The header's
  // menus come with the frame: tests/e2e/header-menus.spec.ts.)
  it.each(['/lessons/1', '/forums/topic/1'])(
    '%s signed in: the realtime connection waits for the browser to be idle, out of the first commit',
    async (url) => {
      const p = await newPage(browser, PHONE);
      await signIn(p, 'member@demo.test');
      await p.waitForLoadState('networkidle');
      await p.addInitScript(() => {
        const w = window as unknown as { socketInIdle: boolean | null };
        w.socketInIdle = null;
        // whether an idle callback is running (the connection is made from one)
        let idle = false;
        const nativeIdle = window.requestIdleCallback.bind(window);
        window.requestIdleCallback = (fn, options) =>
          nativeIdle((deadline) => {
            idle = true;
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
      await p.locator('main h1').first().waitFor();
      await p.waitForFunction(() => (window as unknown as { socketInIdle: boolean | null }).socketInIdle !== null);
      expect(await p.evaluate(() => (window as unknown as { socketInIdle: boolean }).socketInIdle)).toBe(true);
      expect(p.errors).toEqual([]);
      await p.context().close();
    },
  );
});
