import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Component tests fake only the network (a third party to the component): `fetch` answers as the
 * server would, and the page carries the CSRF meta tag the client's API calls read. Call once at a
 * test file's top level; it returns the fake `fetch` to queue answers on.
 */
export function fakeNetwork() {
  const fetchMock = vi.fn();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    document.head.innerHTML = '<meta name="csrf-token" content="tok">';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });
  return fetchMock;
}

/** An answer of the server: `status` with `body` as JSON. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
