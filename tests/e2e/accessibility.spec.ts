import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, newPage, PHONE, signIn } from '#test/e2e';

/*
 * axe-core on a representative page of each part of the router, as each kind of drummer, at phone and
 * desktop width: any WCAG 2.0–2.2 A or AA violation fails (docs/product/accessibility.md). One browser
 * context per kind of drummer and one page per width keep the run short; each address is a full load.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
/** axe's best-practice rules the UI also keeps: named landmarks, one main, headings in order. */
const STRUCTURE_RULES = new Set([
  'landmark-unique',
  'landmark-one-main',
  'landmark-no-duplicate-main',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-contentinfo',
  'page-has-heading-one',
  'heading-order',
]);

const ROLES: { who: string; email: string | null; pages: string[] }[] = [
  {
    who: 'a visitor',
    email: null,
    pages: [
      '/',
      '/login',
      '/join',
      '/forums',
      '/forums/topic/1',
      '/courses',
      '/courses/fills-that-flow',
      '/live',
      '/mentorship/checkout',
    ],
  },
  {
    who: 'a member',
    email: 'member@demo.test',
    pages: [
      '/dashboard',
      '/lessons/1',
      '/metronome',
      '/songmapper',
      '/live/1',
      '/account/profile',
      '/account/billing',
      '/notifications',
      '/forums/topic/1',
    ],
  },
  {
    who: 'a mentorship student',
    email: 'student@demo.test',
    pages: ['/mentorship', '/mentorship/practice-plan', '/mentorship/lessons', '/account/billing'],
  },
  {
    who: 'an admin',
    email: 'admin@demo.test',
    pages: ['/admin', '/admin/members', '/admin/reports', '/admin/courses', '/admin/lessons/1'],
  },
];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

/** Loads `url` and waits until the page is drawn: its code and data loaded, no spinner left. */
async function open(p: Page, url: string) {
  await p.goto(url, { waitUntil: 'networkidle' });
  await p.locator('#main').waitFor();
  await expect.poll(() => p.locator('[role="status"][aria-label^="Loading"]').count(), { timeout: 10_000 }).toBe(0);
}

/**
 * What axe leaves to judgement: the page has exactly one <h1>, and no heading comes before it (the
 * frame's menus label their groups without headings, so a heading list starts with the page's name).
 */
const headingProblems = (p: Page) =>
  p.evaluate(() => {
    const headings = [...document.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]')].filter(
      (h) => !h.closest('[hidden], [aria-hidden="true"]'),
    );
    const ones = headings.filter((h) => h.tagName === 'H1' || h.getAttribute('aria-level') === '1');
    const text = (h: HTMLElement) => (h.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (ones.length !== 1) return [`${ones.length} <h1>: ${ones.map(text).join(' | ')}`];
    const before = headings.slice(0, headings.indexOf(ones[0]!));
    return before.map((h) => `heading before the <h1>: <${h.tagName.toLowerCase()}> ${text(h)}`);
  });

/**
 * A link inside a line of text is told apart by more than colour (WCAG 1.4.1): underlined, or bolder than the line.
 * axe leaves most of these for a person to review; this names the ones that are neither.
 */
const colourOnlyLinks = (p: Page) =>
  p.evaluate(() =>
    [...document.querySelectorAll<HTMLAnchorElement>('#main p a, #main li > span a, #main span a')]
      .filter((a) => {
        const parent = a.parentElement!;
        const hasText = [...parent.childNodes].some(
          (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim().length > 1,
        );
        if (!hasText || !a.checkVisibility()) return false;
        const style = getComputedStyle(a);
        return (
          !style.textDecorationLine.includes('underline') &&
          Number(style.fontWeight) <= Number(getComputedStyle(parent).fontWeight)
        );
      })
      .map((a) => `link told apart by colour only: "${(a.textContent ?? '').trim().slice(0, 40)}"`),
  );

/** One line per violation and element: rule, impact, where, and axe's summary of what fails. */
const describeViolations = (
  url: string,
  width: number,
  violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations'],
) =>
  violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${url} @${width}: ${v.id} (${v.impact}) ${n.target.join(' ')} — ${n.failureSummary?.replace(/\s+/g, ' ')}`,
    ),
  );

describe('axe: no WCAG 2.2 A/AA violation', () => {
  it.each(ROLES)(
    'as $who, at 390 and 1280 px',
    async ({ email, pages }) => {
      const first = await newPage(browser, DESKTOP);
      const context: BrowserContext = first.context();
      if (email) await signIn(first, email);
      const phone = await context.newPage();
      await phone.setViewportSize(PHONE);
      const found: string[] = [];
      for (const [p, width] of [
        [first, DESKTOP.width],
        [phone, PHONE.width],
      ] as const) {
        for (const url of pages) {
          await open(p, url);
          const { violations } = await new AxeBuilder({ page: p }).withTags([...TAGS, 'best-practice']).analyze();
          const kept = violations.filter((v) => v.tags.some((t) => TAGS.includes(t)) || STRUCTURE_RULES.has(v.id));
          found.push(
            ...describeViolations(url, width, kept),
            ...[...(await headingProblems(p)), ...(await colourOnlyLinks(p))].map((h) => `${url} @${width}: ${h}`),
          );
        }
      }
      expect(found).toEqual([]);
      expect(first.errors).toEqual([]);
      await context.close();
    },
    240_000,
  );
});
