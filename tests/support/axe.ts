import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

/*
 * axe-core as the browser suite runs it (docs/product/accessibility.md): the WCAG 2.0–2.2 A and AA rules
 * plus the structure rules below, and the two checks axe leaves to judgement. Used by the dialog sweep
 * (tests/e2e/accessibility.spec.ts) and, on every page of the router as each kind of person, by the
 * long-text sweep (tests/e2e/long-text.spec.ts).
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

/**
 * What axe leaves to judgement: the page has exactly one <h1>, and no heading comes before it (the
 * frame's menus label their groups without headings, so a heading list starts with the page's name).
 */
export const headingProblems = (p: Page) =>
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
export const colourOnlyLinks = (p: Page) =>
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
const describeViolations = (url: string, width: number, violations: AxeResults['violations']) =>
  violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${url} @${width}: ${v.id} (${v.impact}) ${n.target.join(' ')} — ${n.failureSummary?.replace(/\s+/g, ' ')}`,
    ),
  );

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: TAGS },
  rules: Object.fromEntries([...STRUCTURE_RULES].map((id) => [id, { enabled: true }])),
  resultTypes: ['violations'],
  // the video hosts' players are theirs (cross-origin); the academy's own frames are checked on their own pages
  iframes: false,
};

/**
 * axe with the WCAG A and AA rules and the structure rules; one line per violation and element. axe is
 * added to a document once (pages opened inside the app keep it), not on every check.
 */
export async function check(p: Page, where: string, width: number) {
  if (!(await p.evaluate(() => 'axe' in window))) await p.evaluate(AXE_SOURCE);
  const violations = await p.evaluate(
    async (options) =>
      (
        await (window as unknown as { axe: { run: (c: Document, o: unknown) => Promise<AxeResults> } }).axe.run(
          document,
          options,
        )
      ).violations,
    AXE_OPTIONS,
  );
  return describeViolations(where, width, violations);
}
