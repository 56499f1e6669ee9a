import { useRef } from 'react';

/**
 * Focus goes back to what opened a dialog when it closes (docs/product/accessibility.md). Radix returns
 * focus to a dialog's Trigger; a dialog opened some other way (by name through a page-wide event, by an
 * awaited confirm, from a menu item) has none, and Radix would leave focus on <body>. These helpers keep
 * the element that had focus when it opened and give focus back to it.
 */

/**
 * The element that has focus now, as the one to give focus back to, unless that is nothing in
 * particular (<body>). A menu item stands for its menu's button (the element the menu is labelled by):
 * the menu closes as the dialog opens, taking the item with it, and its own return of focus to its
 * button comes only after the dialog has taken focus.
 */
export const focusedElement = (): HTMLElement | null => {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || el === document.body) return null;
  const menuButtonId = el.closest('[role="menu"]')?.getAttribute('aria-labelledby');
  return (menuButtonId ? document.getElementById(menuButtonId) : null) ?? el;
};

/**
 * For a dialog's `onOpenAutoFocus`: an opener that has left the page (a menu item, whose menu closed as
 * the dialog opened) is replaced by what has focus as the dialog takes it (that menu's button).
 */
export function keepOpener(opener: { current: HTMLElement | null }) {
  if (!opener.current?.isConnected) opener.current = focusedElement();
}

/** For a dialog's `onCloseAutoFocus`: focus the opener if it is still on the page. */
export function returnFocus(event: Event, opener: HTMLElement | null) {
  if (!opener?.isConnected) return;
  event.preventDefault();
  opener.focus();
}

/**
 * A Radix dialog's `onOpenAutoFocus` and `onCloseAutoFocus` for a dialog that opens without a trigger:
 * it keeps what had focus as the dialog opened (the link or button that opened it) and returns focus there.
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current = focusedElement();
    },
    onCloseAutoFocus: (event: Event) => returnFocus(event, opener.current),
  };
}
