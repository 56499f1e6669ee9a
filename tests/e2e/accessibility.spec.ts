import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mp4Bytes } from '#test/uploads';
import { userChannel } from '#shared/realtime';
import {
  DESKTOP,
  launchBrowser,
  newDrummer,
  newPage,
  PHONE,
  sendPracticeVideo,
  signIn,
  watchChannels,
} from '#test/e2e';
import { DIALOGS, rolesFor, type DialogCase } from '#test/a11y-pages';
import { ROLE_EMAILS, ROLES, ROUTER_PAGES, type Role } from '#test/router-pages';

/*
 * axe-core on every page of the router and with every dialog and menu open, as each kind of drummer whose
 * view differs, at phone and desktop width: any WCAG 2.0–2.2 A or AA violation fails
 * (docs/product/accessibility.md). The pages and dialogs are listed in tests/support/a11y-pages.ts . One signed-in browser context per kind of
 * drummer with a page per width, the two widths side by side; after the first page each address is opened
 * inside the app (as a link would), so the app's code loads once per width.
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

let browser: Browser;
/** addresses of pages whose object the spec makes (the demo has no practice video) */
const made = new Map<string, string>();
beforeAll(async () => {
  browser = await launchBrowser();
  const student = await newPage(browser, DESKTOP);
  await signIn(student, ROLE_EMAILS.student!);
  const id = await sendPracticeVideo(student, 'Paradiddle grooves at 90 BPM, week three', mp4Bytes(4000));
  made.set('mentorship-video', `/mentorship/videos/${id}`);
  await student.context().close();
});
afterAll(async () => browser.close());

/**
 * The page is drawn: its code and data loaded, no spinner left, and its own heading there (not the
 * previous page's, which `open` marks). False when it does not settle in time.
 */
const settled = (p: Page, timeout: number) =>
  p
    .waitForFunction(
      () =>
        !document.querySelector('[role="status"][aria-label^="Loading"]') &&
        document.querySelector('#main h1:not([data-previous-page])') !== null,
      undefined,
      { timeout },
    )
    .then(
      () => true,
      () => false,
    );

/**
 * Opens `url` inside the app as a link does, through the router's history; a full load the first time,
 * and when the page keeps the previous page's heading element (a page drawn by the same component).
 * False when the page did not settle.
 */
async function open(p: Page, url: string): Promise<boolean> {
  const inApp = await p
    .evaluate((to) => {
      if (!document.querySelector('#main')) return false;
      // into or out of the mentorship area (its own dark theme): a full load, as the side menu's links there are
      const dark = to.startsWith('/mentorship') && !/^\/mentorship\/(checkout|stripe)/.test(to);
      if (dark !== document.body.classList.contains('theme-dark')) return false;
      if (window.location.pathname + window.location.search === to) return true;
      document.querySelector('#main h1')?.setAttribute('data-previous-page', '');
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
      return true;
    }, url)
    .catch(() => false);
  if (inApp) {
    await p.waitForURL((u) => u.pathname + u.search === url);
    if (await settled(p, 3_000)) return true;
  }
  await p.goto(url, { waitUntil: 'networkidle' });
  return settled(p, 15_000);
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
async function check(p: Page, where: string, width: number) {
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

/** A signed-in (or visitor's) browser context for `role` with a page at each width. */
async function session(role: Role) {
  const first = await newPage(browser, DESKTOP);
  const email = ROLE_EMAILS[role];
  if (email) await signIn(first, email);
  const phone = await first.context().newPage();
  phone.on('pageerror', (err) => first.errors.push(String(err)));
  await phone.setViewportSize(PHONE);
  return { desktop: first, phone, context: first.context() as BrowserContext, errors: first.errors };
}

describe('axe: no WCAG 2.2 A/AA violation on any page', () => {
  // a role's pages in groups of ten, each group a test with its own time limit and its own sign-in
  const groups = ROLES.flatMap((role) => {
    const seen = ROUTER_PAGES.filter((page) => rolesFor(page).includes(role));
    return Array.from({ length: Math.ceil(seen.length / 10) }, (_, i) => {
      const pages = seen.slice(i * 10, i * 10 + 10);
      return { role, pages, which: `${pages[0]!.name} to ${pages.at(-1)!.name}` };
    });
  });
  it.for(groups)(
    'as $role: every page they see ($which), at 390 and 1280 px',
    { timeout: 180_000 },
    async ({ role, pages }, { expect }) => {
      const { desktop, phone, context, errors } = await session(role);
      const found: string[] = [];
      await Promise.all(
        (
          [
            [desktop, DESKTOP.width],
            [phone, PHONE.width],
          ] as const
        ).map(async ([p, width]) => {
          for (const page of pages) {
            const url = made.get(page.name) ?? page.url;
            if (!(await open(p, url))) {
              found.push(`${role} ${url} @${width}: the page did not finish loading (a spinner, or no <h1>)`);
              continue;
            }
            found.push(
              ...(await check(p, `${role} ${url}`, width)),
              ...[...(await headingProblems(p)), ...(await colourOnlyLinks(p))].map(
                (h) => `${role} ${url} @${width}: ${h}`,
              ),
            );
          }
        }),
      );
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

/** The dialog or menu that opened: Radix marks it open; a menu is role menu, the rest role dialog. */
const openLayer = (p: Page) =>
  p.locator(
    '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"], [role="menu"][data-state="open"]',
  );

/**
 * Opens `dialog` on its page as a person does and runs axe with it open: its violations, or why it
 * could not be checked. The dialog is left open.
 */
async function checkDialog(p: Page, dialog: DialogCase, who: string, width: number, expect: ExpectStatic) {
  if (!(await open(p, dialog.url))) return [`${who} ${dialog.name} @${width}: ${dialog.url} did not finish loading`];
  await dialog.open(p);
  await openLayer(p).first().waitFor({ state: 'visible' });
  // the opening animation has finished (reduced motion: none), and what the dialog loads is in
  await expect
    .poll(() => p.evaluate(() => document.querySelectorAll('[role="status"][aria-label^="Loading"]').length))
    .toBe(0);
  // and the layout has settled: its pictures are in (a lazy one out of sight loads only when scrolled
  // to) and no transition is still moving a control
  await expect
    .poll(
      () =>
        p.evaluate(
          () =>
            [...document.images].every((img) => img.complete || img.loading === 'lazy') &&
            document
              .getAnimations()
              .every((a) => a.effect?.getTiming().iterations === Infinity || a.playState !== 'running'),
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
  return check(p, `${who} ${dialog.name} on ${dialog.url}`, width);
}

describe('axe: no WCAG 2.2 A/AA violation with a dialog or menu open', () => {
  const byRole = new Map<Role, DialogCase[]>();
  for (const d of DIALOGS.filter((d) => !d.own)) byRole.set(d.role, [...(byRole.get(d.role) ?? []), d]);
  it.for([...byRole].map(([role, dialogs]) => ({ role, dialogs })))(
    'as $role: each dialog and menu, at 390 and 1280 px',
    { timeout: 120_000 },
    async ({ role, dialogs }, { expect }) => {
      const { desktop, phone, context, errors } = await session(role);
      const found: string[] = [];
      await Promise.all(
        (
          [
            [desktop, DESKTOP.width],
            [phone, PHONE.width],
          ] as const
        ).map(async ([p, width]) => {
          for (const dialog of dialogs) {
            if (dialog.phoneOnly && width !== PHONE.width) continue;
            found.push(...(await checkDialog(p, dialog, role, width, expect)));
            await p.keyboard.press('Escape');
            await openLayer(p).first().waitFor({ state: 'detached' });
          }
        }),
      );
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it.for(DIALOGS.filter((d) => d.own))(
    'the $name, opened by a person of its own ($own), at 390 and 1280 px',
    { timeout: 120_000 },
    async (dialog, { expect }) => {
      const found: string[] = [];
      await Promise.all(
        [DESKTOP, PHONE].map(async (viewport) => {
          // one browser per width: the dialog shows once per person, or its flow changes what they have
          const p = await newPage(browser, viewport);
          if (dialog.own !== 'visitor') {
            const channels = watchChannels(p);
            const { id } = await newDrummer(p, { member: true, paypal: dialog.own === 'paypal member' });
            // a fresh load as the new member (the page the sign-up was made from is a visitor's), listening
            // on their own channel, so that what the server tells them (an achievement) reaches the page
            await p.goto(dialog.url, { waitUntil: 'networkidle' });
            await channels.joined(userChannel(id));
          }
          found.push(...(await checkDialog(p, dialog, dialog.own!, viewport.width, expect)));
          expect(p.errors).toEqual([]);
          await p.context().close();
        }),
      );
      expect(found).toEqual([]);
    },
  );
});
