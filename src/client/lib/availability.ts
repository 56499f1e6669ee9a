import { useSyncExternalStore } from 'react';

/**
 * Whether the server said it is briefly unavailable (503: a service it needs is away) on its latest
 * answer. Any later answer that is not a server failure clears it: the page need not be reloaded.
 */
let unavailable = false;
const listeners = new Set<() => void>();

export function noteAnswer(status: number) {
  const next = status === 503 ? true : status < 500 ? false : unavailable;
  if (next === unavailable) return;
  unavailable = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export const useUnavailable = () =>
  useSyncExternalStore(
    subscribe,
    () => unavailable,
    () => unavailable,
  );
