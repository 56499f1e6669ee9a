import type { Page } from 'playwright-core';
import { navigateInApp } from './e2e.ts';

/*
 * What a page must hold whatever people write into it (docs/product/layout.md), measured in the page as
 * it is drawn: the long-text sweep (tests/e2e/long-text.spec.ts) runs these on every page of the router.
 */

/* Opening a page for the checks */

/** After a resize: two frames, so layout and any ResizeObserver work have happened. */
export const frames = (p: Page) =>
  p.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

/** Requests a page has open (the realtime connection aside, which stays open). */
const inFlight = new WeakMap<Page, Set<unknown>>();
export function watchRequests(p: Page) {
  const open = new Set<unknown>();
  inFlight.set(p, open);
  p.on('request', (r) => void (r.url().includes('/socket.io/') || open.add(r)));
  p.on('requestfinished', (r) => void open.delete(r));
  p.on('requestfailed', (r) => void open.delete(r));
}

/**
 * Opens `url` as a link inside the app does, through the router's history, and waits until the page is
 * drawn: the router has shown it (after an in-app navigation focus moves into the new page,
 * docs/product/accessibility.md), its code and data are loaded (no request open for a few frames in a
 * row), and no spinner is left. A page outside the app, and an address on the page's own path, load in
 * full.
 */
export async function openDrawn(p: Page, url: string) {
  const inApp = await p.evaluate((to) => {
    if (!document.getElementById('main') || new URL(to, location.href).pathname === location.pathname) return false;
    // focus leaves the page it is on, and the next time it enters the page is the new page's doing (its
    // heading may be drawn again once its data is in, so focus need not stay there)
    const w = window as Window & { focusEnteredPage?: boolean };
    if (w.focusEnteredPage === undefined)
      document.addEventListener('focusin', (e) => {
        if (document.getElementById('main')?.contains(e.target as Node)) w.focusEnteredPage = true;
      });
    (document.activeElement as HTMLElement | null)?.blur();
    w.focusEnteredPage = false;
    return true;
  }, url);
  if (inApp) {
    await navigateInApp(p, url);
    await p
      .waitForFunction(() => (window as Window & { focusEnteredPage?: boolean }).focusEnteredPage)
      .catch(() => {
        throw new Error(`${url}: focus did not move into the page after an in-app navigation`);
      });
  } else {
    await p.goto(url);
    await p.locator('#main').waitFor();
  }
  // a toast shown on the page before (a notification that arrived) closes, as a click closes it: the
  // checks judge the page
  await p.evaluate(() =>
    document.querySelectorAll<HTMLElement>('[data-toast-type][data-state="open"]').forEach((t) => t.click()),
  );
  const open = inFlight.get(p)!;
  for (let calm = 0; calm < 4; calm = open.size ? 0 : calm + 1) await frames(p);
  await untilNoSpinner(p, url);
  await p.evaluate(() => document.fonts.ready.then(() => undefined));
}

/**
 * Waits until no loading spinner is left on the page or in a layer open over it (at most 10 s; `where`
 * names what was loading when one stays). Needs no current test, so tests running at once can wait.
 */
export async function untilNoSpinner(p: Page, where: string) {
  await p
    .waitForFunction(() => !document.querySelector('[role="status"][aria-label^="Loading"]'), undefined, {
      timeout: 10_000,
    })
    .catch(() => {
      throw new Error(`${where}: a loading spinner was still showing after 10 s`);
    });
}

/** Where people's text is drawn: the page, its header, and any dialog or menu open over it. */
const SCOPE = '#main *, header *, [role="dialog"] *, [role="alertdialog"] *, [role="menu"] *';

/** How much wider than the window the document is (0: it fits). */
export const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Boxes that cut their own content off at the side: a box that hides what overflows it
 * (`overflow: hidden` or `clip`) holding something wider than itself. A box that truncates on purpose
 * (an ellipsis, a line clamp) and one that scrolls are not counted.
 */
export const cutBoxes = (p: Page) =>
  p.evaluate(
    (scope) =>
      [...document.querySelectorAll<HTMLElement>(scope)]
        .filter((el) => {
          // a text field scrolls its own text
          if (el.matches('input, textarea, select, iframe, video, img, svg, canvas')) return false;
          const style = getComputedStyle(el);
          if (!/hidden|clip/.test(style.overflowX) || style.textOverflow === 'ellipsis') return false;
          if (style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '') return false;
          if (el.clientWidth <= 2 || !el.checkVisibility()) return false;
          return el.scrollWidth > el.clientWidth + 1;
        })
        .map((el) => {
          const cls = typeof el.className === 'string' ? el.className.split(' ').slice(0, 4).join('.') : '';
          const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
          return `<${el.tagName.toLowerCase()} .${cls}> "${text}" cuts ${el.scrollWidth - el.clientWidth} px of its content`;
        }),
    SCOPE,
  );

/**
 * Single lines cut with an ellipsis whose full text is nowhere to be read: a line that truncates by design
 * carries its whole text in a tooltip (`title`) on itself or the element around it.
 */
export const untitledTruncations = (p: Page) =>
  p.evaluate(
    (scope) =>
      [...document.querySelectorAll<HTMLElement>(scope)]
        .filter((el) => {
          const style = getComputedStyle(el);
          if (style.textOverflow !== 'ellipsis' || !/hidden|clip/.test(style.overflowX)) return false;
          if (el.clientWidth <= 2 || !el.checkVisibility() || el.scrollWidth <= el.clientWidth + 1) return false;
          const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
          const titled = el.closest<HTMLElement>('[title]');
          const title = titled?.title.replace(/\s+/g, ' ').trim() ?? '';
          // the tooltip holds the person's text; a label before it ("Latest: ") need not repeat there
          return !title || !(text.includes(title) || title.includes(text));
        })
        .map((el) => `"${(el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}" is cut with no tooltip`),
    SCOPE,
  );

/** What a person presses or types into: links and buttons, fields, and the ARIA widgets that stand for them. */
const CONTROLS = [
  'a[href]',
  'button',
  'summary',
  'select',
  'textarea',
  'input:not([type="hidden"])',
  '[contenteditable="true"]',
  ...['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'slider', 'combobox', 'option'].map(
    (r) => `[role="${r}"]`,
  ),
  ...['menuitem', 'menuitemcheckbox', 'menuitemradio'].map((r) => `[role="${r}"]`),
].join(', ');

/** An open dialog or menu (Radix marks it open). */
export const LAYERS = ['dialog', 'alertdialog', 'menu'].map((r) => `[role="${r}"][data-state="open"]`).join(', ');

/**
 * Controls that cannot be pressed where they are: at every scroll position (steps of most of a window,
 * top to bottom) where the control's centre is in the window, something else is the topmost element
 * there (elementFromPoint). A control under a sticky header at one position is pressable at the next; a
 * control under a floating button at the end of the page is not. A field whose centre shows its own label
 * is pressable: a press there reaches the field.
 *
 * With a dialog or menu open (`layers`), its own controls are the ones checked: each scrolled to the
 * middle of the dialog's (and the window's) scroll box in turn, as a person scrolls to reach it.
 */
export const coveredControls = (p: Page, layers = false) =>
  p.evaluate(
    ({ CONTROLS, LAYERS, layers }) => {
      const roots: ParentNode[] = layers ? [...document.querySelectorAll<HTMLElement>(LAYERS)] : [document];
      const controls = roots
        .flatMap((root) => [...root.querySelectorAll<HTMLElement>(CONTROLS)])
        .filter((el) => {
          if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
          if (el.closest('[aria-hidden="true"], [inert]')) return false;
          const r = el.getBoundingClientRect();
          return r.width >= 4 && r.height >= 4;
        });
      const seen = new Map<HTMLElement, string | null>();
      const describe = (el: Element) => {
        const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
        const cls = typeof el.className === 'string' ? el.className.split(' ').slice(0, 3).join('.') : '';
        return `<${el.tagName.toLowerCase()}${cls ? ` .${cls}` : ''}> "${text}"`;
      };
      const look = (el: HTMLElement) => {
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return;
        const hit = document.elementFromPoint(x, y);
        const labels =
          el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? [...(el.labels ?? [])] : [];
        if (!hit || el.contains(hit) || hit.contains(el) || labels.some((l) => l.contains(hit))) seen.set(el, null);
        else seen.set(el, `${describe(el)} is under ${describe(hit)}`);
      };
      if (layers) {
        // put the dialogs' scroll boxes back as they were after, so a picture taken next shows them as opened
        const boxes = roots.flatMap((root) =>
          [root as HTMLElement, ...root.querySelectorAll<HTMLElement>('*')].map((el) => [el, el.scrollTop] as const),
        );
        for (const el of controls) {
          el.scrollIntoView({ block: 'center', inline: 'nearest' });
          look(el);
        }
        for (const [el, top] of boxes) if (el.scrollTop !== top) el.scrollTop = top;
      } else {
        const max = document.documentElement.scrollHeight - innerHeight;
        const step = Math.max(200, Math.floor(innerHeight * 0.6));
        const positions: number[] = [];
        for (let y = 0; y < max; y += step) positions.push(y);
        positions.push(Math.max(0, max));
        for (const y of positions) {
          window.scrollTo(0, y);
          for (const el of controls) if (seen.get(el) !== null) look(el);
        }
        // a control in a box that scrolls by itself (a chat's messages) is reached by scrolling that box: one
        // the window's positions found covered or never showed is judged again scrolled into view there
        for (const el of controls) {
          if (seen.get(el) === null) continue;
          let box = el.parentElement;
          while (
            box &&
            box !== document.body &&
            !(/auto|scroll/.test(getComputedStyle(box).overflowY) && box.scrollHeight > box.clientHeight)
          )
            box = box.parentElement;
          if (!box || box === document.body) continue;
          const top = box.scrollTop;
          el.scrollIntoView({ block: 'center', inline: 'nearest' });
          look(el);
          box.scrollTop = top;
        }
      }
      window.scrollTo(0, 0);
      return [...seen.values()].filter((v): v is string => v !== null);
    },
    { CONTROLS, LAYERS, layers },
  );

/**
 * Changes the window's size with dialogs or menus open. A menu is placed beside its button again once
 * the resize is handled (floating-ui, in frames of its own), so this waits two frames and then for every
 * open layer to lie inside the window, for at most 3 s: what layerOverflow then finds outside stays there.
 */
export async function resizeWithLayers(p: Page, size: { width: number; height: number }) {
  await p.setViewportSize(size);
  await frames(p);
  await p
    .waitForFunction(
      (layers) =>
        [...document.querySelectorAll(layers)].every((el) => {
          const r = el.getBoundingClientRect();
          return r.left >= -1 && r.right <= innerWidth + 1;
        }),
      LAYERS,
      { timeout: 3_000 },
    )
    .catch(() => undefined);
}

/**
 * Open dialogs and menus that do not fit the window. A dialog is fixed to the window, so it never widens
 * the document and the page's overflow cannot show it: here the dialog's box must lie inside the window,
 * nothing in it may run past the window's sides, and no box in it may scroll sideways (a field's own
 * text, code and tables aside).
 */
export const layerOverflow = (p: Page) =>
  p.evaluate((LAYERS) => {
    const found: string[] = [];
    const describe = (el: Element) => {
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}> "${text}"`;
    };
    // how far a box and what overflows it reach: the box itself, or its content where it lets that show
    const outside = (el: HTMLElement) => {
      const r = el.getBoundingClientRect();
      const shows = getComputedStyle(el).overflowX === 'visible';
      const right = r.left + Math.max(r.width, shows ? el.scrollWidth : 0);
      return r.width > 0 && (r.left < -1 || right > innerWidth + 1);
    };
    for (const layer of document.querySelectorAll<HTMLElement>(LAYERS)) {
      if (!layer.checkVisibility()) continue;
      const name = `${layer.getAttribute('role')} ${describe(layer).slice(0, 30)}`;
      const r = layer.getBoundingClientRect();
      if (r.left < -1 || r.right > innerWidth + 1)
        found.push(`the ${name} spans ${Math.round(r.left)} to ${Math.round(r.right)} px of a ${innerWidth} px window`);
      for (const el of [layer, ...layer.querySelectorAll<HTMLElement>('*')]) {
        if (!el.checkVisibility()) continue;
        const style = getComputedStyle(el);
        if (
          /auto|scroll/.test(style.overflowX) &&
          el.clientWidth > 2 &&
          el.scrollWidth > el.clientWidth + 1 &&
          !el.matches('input, textarea, select, pre, code') &&
          !el.closest('table')
        )
          found.push(`${describe(el)} in the ${name} scrolls sideways by ${el.scrollWidth - el.clientWidth} px`);
        // a box, or its text, past the window's side where no box between it and the dialog scrolls or clips
        // it; reported at the innermost such box, the one holding what is too wide
        if (el === layer || !outside(el) || [...el.children].some((c) => c instanceof HTMLElement && outside(c)))
          continue;
        let held = false;
        for (let up = el.parentElement; up && up !== layer; up = up.parentElement)
          if (getComputedStyle(up).overflowX !== 'visible') held = true;
        if (!held && getComputedStyle(layer).overflowX === 'visible')
          found.push(`${describe(el)} in the ${name} runs past the window`);
      }
    }
    return found;
  }, LAYERS);
