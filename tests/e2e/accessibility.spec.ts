import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { userChannel } from '#shared/realtime';
import { DESKTOP, launchBrowser, navigateInApp, newDrummer, newPage, PHONE, signIn, watchChannels } from '#test/e2e';
import { DIALOGS, type DialogCase } from '#test/a11y-pages';
import { check } from '#test/axe';
import { ROLE_EMAILS, type Role } from '#test/router-pages';

/*
 * axe-core with every dialog and menu open, as the kind of drummer who opens it, at phone and desktop
 * width: any WCAG 2.0–2.2 A or AA violation fails (docs/product/accessibility.md). The dialogs are listed
 * in tests/support/a11y-pages.ts. Every page of the router is checked with axe as each kind of person who
 * sees it by the long-text sweep (tests/e2e/long-text.spec.ts), on pages full of long real-world text.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
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
  let inApp = await p
    .evaluate((to) => {
      if (!document.querySelector('#main')) return false;
      // into or out of the mentorship area (its own dark theme): a full load, as the side menu's links there are
      const dark = to.startsWith('/mentorship') && !/^\/mentorship\/(checkout|stripe)/.test(to);
      if (dark !== document.body.classList.contains('theme-dark')) return false;
      if (window.location.pathname + window.location.search === to) return true;
      document.querySelector('#main h1')?.setAttribute('data-previous-page', '');
      return 'navigate';
    }, url)
    .catch(() => false);
  if (inApp === 'navigate')
    inApp = await navigateInApp(p, url).then(
      () => true,
      () => false,
    );
  if (inApp) {
    await p.waitForURL((u) => u.pathname + u.search === url);
    if (await settled(p, 3_000)) return true;
  }
  await p.goto(url, { waitUntil: 'networkidle' });
  return settled(p, 15_000);
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

/** The dialog or menu that opened: Radix marks it open; a menu is role menu, the rest role dialog. */
const openLayer = (p: Page) =>
  p.locator(
    '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"], [role="menu"][data-state="open"]',
  );

type OpenerWindow = Window & { a11yOpener?: Element | null; a11yWatching?: boolean };

/**
 * Keeps the control a person last clicked outside any dialog or menu: the one that opened the next
 * dialog (a menu item that opens a dialog is inside the menu, so its menu's button is kept).
 */
const watchOpener = (p: Page) =>
  p.evaluate(() => {
    const w = window as OpenerWindow;
    w.a11yOpener = null;
    if (w.a11yWatching) return;
    w.a11yWatching = true;
    document.addEventListener(
      'click',
      (e) => {
        const target = e.target instanceof Element ? e.target : null;
        if (!target || target.closest('[role="dialog"], [role="alertdialog"], [role="menu"]')) return;
        w.a11yOpener = target.closest('button, a, [tabindex]');
      },
      true,
    );
  });

/**
 * Closes the open dialog or menu with Escape: nothing when focus is back on the control that opened it,
 * else where focus went instead (docs/product/accessibility.md, Focus).
 */
async function closeAndCheckFocus(p: Page, where: string, width: number) {
  await p.keyboard.press('Escape');
  await openLayer(p).first().waitFor({ state: 'detached' });
  const back = await p
    .waitForFunction(
      () => {
        const opener = (window as OpenerWindow).a11yOpener;
        return !!opener && document.activeElement === opener;
      },
      undefined,
      { timeout: 2_000 },
    )
    .then(
      () => true,
      () => false,
    );
  if (back) return [];
  const found = await p.evaluate(() => {
    const name = (el: Element | null | undefined) =>
      el
        ? `<${el.tagName.toLowerCase()}> "${(el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`
        : 'nothing';
    return `${name(document.activeElement)} instead of ${name((window as OpenerWindow).a11yOpener)}`;
  });
  return [`${where} @${width}: focus after Escape is on ${found}`];
}

/**
 * Opens `dialog` on its page as a person does and runs axe with it open: its violations, or why it
 * could not be checked. The dialog is left open.
 */
async function checkDialog(p: Page, dialog: DialogCase, who: string, width: number, expect: ExpectStatic) {
  if (!(await open(p, dialog.url))) return [`${who} ${dialog.name} @${width}: ${dialog.url} did not finish loading`];
  await watchOpener(p);
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

describe('axe: no WCAG 2.2 A/AA violation with a dialog or menu open; Escape gives focus back to its opener', () => {
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
            found.push(...(await closeAndCheckFocus(p, `${role} ${dialog.name} on ${dialog.url}`, width)));
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
        [DESKTOP, PHONE]
          .filter((viewport) => !dialog.phoneOnly || viewport === PHONE)
          .map(async (viewport) => {
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
            if (!dialog.focusElsewhere)
              found.push(...(await closeAndCheckFocus(p, `${dialog.own} ${dialog.name}`, viewport.width)));
            expect(p.errors).toEqual([]);
            await p.context().close();
          }),
      );
      expect(found).toEqual([]);
    },
  );
});
