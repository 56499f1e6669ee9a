import { CSRF_HEADER, FIRST_ANSWERS_ELEMENT_ID, SOCKET_ID_HEADER } from '#shared/constants';
import type { ErrorResponse } from '#shared/http';
import { pageConfig } from './page-config.ts';
import { noteAnswer } from './availability.ts';

let token: string | null = null;
let socketId: string | null = null;
let warned = false;

function csrfToken(): string | null {
  if (token) return token;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  token = meta || pageConfig().csrfToken || null;
  return token;
}

/** The socket id of this tab, sent as X-Socket-ID so broadcasts leave the sender out. */
export function setSocketId(id: string | null) {
  socketId = id;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> | undefined,
    readonly body: unknown,
  ) {
    super(message);
  }
  /** the first message of the first of these fields that has one */
  firstError(fields: string[]): string | undefined {
    for (const f of fields) {
      const m = this.errors?.[f]?.[0];
      if (m) return m;
    }
    return undefined;
  }
}

export const NETWORK_ERROR = 'We could not reach the server. Please try again.';

/** What to tell the user about a failed call: the first message of these fields, else the server's message, else `fallback` (no answer at all). */
export const errorMessage = (err: unknown, fields: string[], fallback: string = NETWORK_ERROR) =>
  err instanceof ApiError ? (err.firstError(fields) ?? err.message) : fallback;

/**
 * A registration inside a checkout: the server's first field error of name, email or
 * password, the rate limit's message, else the general fallback.
 */
export function registrationErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    const first = err.firstError(['name', 'email', 'email_confirmation', 'password']);
    if (first) return first;
    if (err.status === 429) return err.message;
  }
  return fallback;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** how long after the page loaded its first answers may be used (a first render waits for its scripts) */
export const FIRST_ANSWERS_MS = 30_000;

/**
 * The server's answers to this page's first reads, written into the page (src/server/plugins/first-answers.ts):
 * each is taken once, for the address it was made for, while the page is still the one it came with and
 * is young; after that every read asks the server.
 */
const firstAnswers = new Map<string, unknown>();
const firstPage = typeof location === 'undefined' ? '' : location.pathname + location.search;
if (typeof document !== 'undefined') {
  const element = document.getElementById(FIRST_ANSWERS_ELEMENT_ID);
  try {
    const block = element?.textContent;
    if (block)
      for (const [url, answer] of Object.entries(JSON.parse(block) as Record<string, unknown>))
        firstAnswers.set(url, answer);
  } catch {
    // a damaged block: every read asks the server
  }
  // read once: the page does not keep a second copy of the member's data in its document
  element?.remove();
}
function takeFirstAnswer(url: string, keep = false): { answer: unknown } | null {
  if (firstAnswers.size === 0) return null;
  if (location.pathname + location.search !== firstPage || performance.now() > FIRST_ANSWERS_MS) {
    firstAnswers.clear();
    return null;
  }
  if (!firstAnswers.has(url)) return null;
  const answer = firstAnswers.get(url);
  if (!keep) firstAnswers.delete(url);
  return { answer };
}

/**
 * The page's first answer for `url` without taking it yet, for a component's state: React may render a
 * component more than once before it commits (and drop a render it did ahead), so the component calls
 * `take()` once it is mounted, and a later mount asks the server.
 */
export function firstAnswerPeek<T>(url: string): { answer: T; take: () => void } | undefined {
  const first = takeFirstAnswer(url, true);
  return first ? { answer: first.answer as T, take: () => void takeFirstAnswer(url) } : undefined;
}

/**
 * The page's first answer for `url`, now (taken, as a read would take it), for a query's `initialData`:
 * the page's first render then shows the data, instead of rendering its loading state and then the data
 * in a second, synchronous render when the read resolves (main-thread time a signed-in page need not spend).
 */
export function firstAnswerNow<T>(url: string): T | undefined {
  return takeFirstAnswer(url)?.answer as T | undefined;
}

/** JSON over fetch with the CSRF header on every state-changing call. */
export async function api<T>(method: Method, url: string, body?: unknown): Promise<T> {
  if (method === 'GET') {
    const first = takeFirstAnswer(url);
    if (first) return first.answer as T;
  }
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') {
    const t = csrfToken();
    if (t) headers[CSRF_HEADER] = t;
    else if (!warned) {
      warned = true;
      console.error('CSRF token not found: the page has no <meta name="csrf-token">.');
    }
  }
  if (socketId) headers[SOCKET_ID_HEADER] = socketId;
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  noteAnswer(res.status);
  const rotated = res.headers.get(CSRF_HEADER);
  if (rotated) {
    token = rotated;
    const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
    if (meta) meta.content = rotated;
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data ?? {}) as Partial<ErrorResponse>;
    throw new ApiError(res.status, err.message ?? res.statusText, err.errors, data);
  }
  return data as T;
}

export const get = <T>(url: string) => api<T>('GET', url);
export const post = <T>(url: string, body?: unknown) => api<T>('POST', url, body ?? {});
