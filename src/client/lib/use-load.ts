import { useEffect, useState } from 'react';
import { firstAnswerPeek } from './api.ts';

/** What useLoad answers: the same fields the pages read from a TanStack Query result. */
export interface Loaded<T> {
  isPending: boolean;
  isError: boolean;
  data: T | undefined;
  error: unknown;
}

// one request per key at a time: components that mount together share it
const inFlight = new Map<string, Promise<unknown>>();

/**
 * One read when the component mounts (again when `key` changes), no retries, no cache: for the
 * public checkout pages, whose only server data is one or two GETs. They do not load TanStack Query
 * (about 12 KB gzip), so their initial JavaScript stays within its budget (scripts/initial-js.ts).
 * Pages that share, mutate or refresh server data use TanStack Query (src/client/app/query.tsx).
 * `firstAnswer`: the address `read` asks, when a signed-in visit's page may carry its answer
 * (src/server/plugins/first-answers.ts); the first render then shows it, with no read.
 */
export function useLoad<T>(key: string, read: () => Promise<T>, firstAnswer?: string): Loaded<T> {
  const [state, setState] = useState<{
    key: string;
    done: boolean;
    data?: T;
    failed?: boolean;
    error?: unknown;
    take?: () => void;
  }>(() => {
    const first = firstAnswer === undefined ? undefined : firstAnswerPeek<T>(firstAnswer);
    return first ? { key, done: true, data: first.answer, take: first.take } : { key, done: false };
  });
  useEffect(() => {
    if (state.key === key && state.take) {
      state.take();
      return;
    }
    let live = true;
    let request = inFlight.get(key) as Promise<T> | undefined;
    if (!request) {
      request = read();
      inFlight.set(key, request);
      const forget = () => inFlight.delete(key);
      request.then(forget, forget);
    }
    request.then(
      (data) => live && setState({ key, done: true, data }),
      (error: unknown) => live && setState({ key, done: true, failed: true, error }),
    );
    return () => {
      live = false;
    };
    // `read` is the same call for the same key; the answer from the page is taken once, on mount
  }, [key]);
  const now = state.key === key ? state : { done: false, data: undefined, failed: false, error: undefined };
  return { isPending: !now.done, isError: !!now.failed, data: now.data, error: now.error };
}
