import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { formatTable, initialJs, packagesIn, PUBLIC_PAGES, READING_PAGES } from '../../scripts/initial-js.ts';
import { DESKTOP, launchBrowser, newPage } from '#test/e2e';

/*
 * What each public page loads on a fresh visit: the entry and its own route chunk, never another page's
 * code or a parser it does not use. How much that weighs against its target (INITIAL_JS_BUDGET, gzip) is
 * a speed goal, so `npm run bench` reports it (bench/web.ts); each page's figure: docs/benchmarks.md.
 */

describe('initial JavaScript of the public pages', () => {
  const rows = initialJs();

  it('each public page loads the entry and its own route chunk, not the other pages’ code', () => {
    console.info(formatTable(rows));
    expect(new Set(rows.map((r) => r.routeFile)).size).toBe(PUBLIC_PAGES.length);
    for (const r of rows) {
      expect(r.files).toContain(r.routeFile);
      for (const other of rows) if (other !== r) expect(r.files).not.toContain(other.routeFile);
    }
  });
});

describe('what the pages load', () => {
  // zod validates forms on the pages that have them; a page that only reads must not parse and run its
  // 85 KB (main-thread time on the lesson and thread pages), nor a public page
  it.each([...PUBLIC_PAGES, ...READING_PAGES].map((p) => [p.page, p] as const))('%s loads no zod', (_page, page) => {
    const [row] = initialJs(undefined, [page], Infinity);
    const withZod = row!.files.filter((f) => packagesIn(f).has('zod'));
    expect(withZod).toEqual([]);
  });
});

describe('a fresh visit in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser.close());

  // the measure is what a visit really fetches: the manifest's files, no more, no fewer
  it.each(PUBLIC_PAGES.map((p) => p.page))('%s fetches exactly the JavaScript the measure counts', async (page) => {
    const p = await newPage(browser, DESKTOP);
    const scripts = new Set<string>();
    p.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.add(new URL(req.url()).pathname.slice(1));
    });
    await p.goto(page, { waitUntil: 'networkidle' });
    await p.locator('main').getByRole('heading').first().waitFor();
    // this suite's server takes payments on the sandbox, so its checkout pages also fetch the test-mode
    // banner and the sandbox's card fields, which a real academy's pages never load (docs/product/test-mode.md)
    const fetched = [...scripts].filter((f) => !/^assets\/(test-mode-banner|sandbox-card-fields)-[\w-]+\.js$/.test(f));
    expect(fetched.sort()).toEqual([...initialJs().find((r) => r.page === page)!.files].sort());
    expect(p.errors).toEqual([]);
    await p.close();
  });

  it('the register modal loads on the first "Join" and opens', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/', { waitUntil: 'networkidle' });
    await p.getByRole('banner').getByRole('button', { name: 'Join' }).click();
    await p.getByRole('dialog', { name: 'Create Your Account' }).waitFor();
    await p.keyboard.press('Escape');
    await p.getByRole('dialog').waitFor({ state: 'detached' });
    await p.getByRole('button', { name: 'Start learning free' }).click();
    await p.getByRole('dialog', { name: 'Create Your Account' }).waitFor();
    expect(p.errors).toEqual([]);
    await p.close();
  });
});
