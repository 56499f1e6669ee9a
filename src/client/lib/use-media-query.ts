import { useCallback, useSyncExternalStore } from 'react';

/** Tailwind's `lg` breakpoint (the side menu's aside and the phone drawer switch here). */
export const LG_QUERY = '(min-width: 64rem)';

/** Whether a CSS media query matches now; the component re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
