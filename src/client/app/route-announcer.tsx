import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { takeHeadingFocusMark } from '#client/lib/heading-focus.ts';

const SITE = 'Backbeat';
/** a layer the member opened (a header menu, a dialog, a list of options) or the button that opened it */
const OPEN_LAYER = '[role="menu"], [role="dialog"], [role="alertdialog"], [role="listbox"], [aria-expanded="true"]';

/** "Forums – Backbeat"; a page without a heading is just "Backbeat" */
export function pageTitle(heading: string | null | undefined): string {
  const words = heading?.replace(/\s+/g, ' ').trim();
  return words ? `${words} – ${SITE}` : SITE;
}

/**
 * Names each page and announces it after an in-app navigation, as a full page load would: the
 * document title follows the page's <h1> (a lesson's, topic's or member's name where the page has
 * one, also once it has loaded), and after a navigation focus moves to that <h1>, so that a screen
 * reader reads the new page and the next Tab starts from it. The first page of a visit keeps focus
 * at the top (where the skip link is), unless it is the page a sign-in led to. See docs/product/accessibility.md.
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const firstPage = useRef(true);
  useEffect(() => {
    // the first page of a visit focuses its heading too when it follows a sign-in (lib/heading-focus.ts)
    const navigated = !firstPage.current || takeHeadingFocusMark();
    firstPage.current = false;
    const main = document.getElementById('main') ?? document.body;
    // the layer the navigation was made from (a link in the phone's menu drawer) closes with it
    const layerOfNavigation = document.activeElement?.closest(OPEN_LAYER) ?? null;
    let announced = false;
    let focused: HTMLElement | null = null;
    let frame = 0;
    const focusHeading = (h1: HTMLElement) => {
      if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
      h1.focus({ preventScroll: true });
      focused = h1;
    };
    const follow = () => {
      frame = 0;
      const h1 = main.querySelector('h1');
      const title = pageTitle(h1?.textContent);
      if (document.title !== title) document.title = title;
      if (!h1) return;
      if (announced) {
        // the page drew its heading anew (what its data says changed it): focus, which fell back to the
        // document with the heading it was on, goes to the new one
        if (focused && !focused.isConnected && h1 !== focused && document.activeElement === document.body)
          focusHeading(h1);
        return;
      }
      announced = true;
      if (!navigated) return;
      // a control the member has moved to since (a search box, a form field) keeps its focus, and so
      // does a menu or dialog they have opened since: focus leaving it would close it
      const active = document.activeElement;
      if (active && active !== document.body && main.contains(active) && active.closest('h1') === null && active !== h1)
        return;
      const layer = active?.closest(OPEN_LAYER);
      if (layer && layer !== layerOfNavigation) return;
      focusHeading(h1);
    };
    follow();
    // the heading arrives with the page's code or data, and may change (a name that loads)
    const observer = new MutationObserver(() => {
      if (!frame) frame = requestAnimationFrame(follow);
    });
    observer.observe(main, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [pathname]);
  return null;
}
