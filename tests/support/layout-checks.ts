import type { Page } from 'playwright-core';

/*
 * What a page must hold whatever people write into it (docs/product/layout.md), measured in the page as
 * it is drawn: the long-text sweep (tests/e2e/long-text.spec.ts) runs these on every page of the router.
 */

/** How much wider than the window the document is (0: it fits). */
export const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Boxes that cut their own content off at the side: a box that hides what overflows it
 * (`overflow: hidden` or `clip`) holding something wider than itself. A box that truncates on purpose
 * (an ellipsis, a line clamp) and one that scrolls are not counted.
 */
export const cutBoxes = (p: Page) =>
  p.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('#main *, header *, [role="dialog"] *')]
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
  );

/**
 * Single lines cut with an ellipsis whose full text is nowhere to be read: a line that truncates by design
 * carries its whole text in a tooltip (`title`) on itself or the element around it.
 */
export const untitledTruncations = (p: Page) =>
  p.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('#main *, header *, [role="dialog"] *')]
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
  );

/**
 * Buttons and links that cannot be pressed where they are: at every scroll position (steps of most of
 * a window, top to bottom) where the control's centre is in the window, something else is the topmost
 * element there (elementFromPoint). A control under a sticky header at one position is pressable at the
 * next; a control under a floating button at the end of the page is not.
 */
export const coveredControls = (p: Page) =>
  p.evaluate(() => {
    const controls = [
      ...document.querySelectorAll<HTMLElement>('a[href], button, [role="button"], summary, select'),
    ].filter((el) => {
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
    const max = document.documentElement.scrollHeight - innerHeight;
    const step = Math.max(200, Math.floor(innerHeight * 0.6));
    const positions: number[] = [];
    for (let y = 0; y < max; y += step) positions.push(y);
    positions.push(Math.max(0, max));
    for (const y of positions) {
      window.scrollTo(0, y);
      for (const el of controls) {
        if (seen.get(el) === null) continue;
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2;
        const cy = r.top + r.height / 2;
        if (x < 0 || cy < 0 || x >= innerWidth || cy >= innerHeight) continue;
        const hit = document.elementFromPoint(x, cy);
        if (!hit || el.contains(hit) || hit.contains(el)) seen.set(el, null);
        else seen.set(el, `${describe(el)} is under ${describe(hit)}`);
      }
    }
    window.scrollTo(0, 0);
    return [...seen.values()].filter((v): v is string => v !== null);
  });
