/**
 * After signing in (or joining) the browser loads the next page afresh; that page moves focus to its
 * `<h1>` as an in-app navigation would (app/route-announcer.tsx), so a screen reader says where the
 * member landed instead of starting again at the top of the document. The mark lives for that one load.
 */
const KEY = 'backbeat:focus-heading';

/** Marks the next page load of this tab as one that focuses its heading. */
export function focusHeadingOnNextPage() {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // storage switched off: the next page keeps focus at the top, where the skip link is
  }
}

/** Whether this page load was marked (reading the mark removes it). */
export function takeHeadingFocusMark(): boolean {
  try {
    const marked = sessionStorage.getItem(KEY) === '1';
    if (marked) sessionStorage.removeItem(KEY);
    return marked;
  } catch {
    return false;
  }
}
