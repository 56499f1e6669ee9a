import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { SANDBOX_CARDS } from '#shared/commerce';

export const DEMO_PASSWORD = 'drumsdemo1';
export const baseURL = () => inject('baseURL');

export async function launchBrowser(): Promise<Browser> {
  const info = inject('chromium');
  return playwright.launch({ executablePath: info.path, args: info.args, headless: true });
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Where the browser suite keeps its pictures for review: test-results/ (git-ignored); each run overwrites the ones it takes. */
const SHOTS_DIR = path.resolve(import.meta.dirname, '../../test-results');

/**
 * Keeps a picture of `page` for a person to look at, at `file` under SHOTS_DIR (the whole page unless
 * `fullPage: false`). A picture is for review, never a check; CI keeps none of a run's files, so there
 * none is taken.
 */
export async function reviewShot(page: Page, file: string, options: { fullPage?: boolean } = {}) {
  if (process.env.CI) return;
  const to = path.join(SHOTS_DIR, file);
  mkdirSync(path.dirname(to), { recursive: true });
  await page.screenshot({ path: to, fullPage: options.fullPage ?? true });
}

let contexts = 0;

/**
 * A fresh browser context (own cookies) and page; uncaught page errors are collected. Each context
 * comes from its own address (the test server trusts X-Forwarded-For, as behind a load balancer), so
 * the per-address sign-in limit sees one drummer per context, not the whole suite as one.
 */
export async function newPage(browser: Browser, viewport = DESKTOP): Promise<Page & { errors: string[] }> {
  contexts += 1;
  const address = `10.${process.pid % 250}.${Math.floor(contexts / 250) % 250}.${(contexts % 250) + 1}`;
  const context = await browser.newContext({
    viewport,
    baseURL: baseURL(),
    reducedMotion: 'reduce',
    extraHTTPHeaders: { 'X-Forwarded-For': address },
  });
  const page = (await context.newPage()) as Page & { errors: string[] };
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(String(err)));
  return page;
}

/**
 * Moves the page to `to` as the app's own links do, without loading it: a new history entry, announced
 * with `popstate`, which the router follows (`pushState` alone tells it nothing).
 */
export async function navigateInApp(page: Page, to: string) {
  await page.evaluate((url) => {
    history.pushState(null, '', url);
    dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

/** Sign in through the real /login page. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, to?: string) {
  await page.goto(to ? `/login?to=${encodeURIComponent(to)}` : '/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A call to the app's JSON API from `p`'s browser (its cookies and CSRF token), as the page's own code
 * makes it; the answer's JSON (null when empty), or an error naming the call and the server's answer.
 */
export async function apiCall<T = unknown>(p: Page, method: Method, url: string, data?: unknown): Promise<T> {
  for (;;) {
    const token = (await p.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '';
    const res = await p.request.fetch(url, {
      method,
      data: data as object,
      headers: { 'X-CSRF-TOKEN': token, Accept: 'application/json' },
    });
    // a per-member write limit: wait it out (the limits are minutes long only for far more writes)
    if (res.status() === 429) {
      await p.waitForTimeout(1000);
      continue;
    }
    const text = await res.text();
    if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }
}

/** The answer to the page's next POST whose path matches `path`: wait on it before a reload that expects the change stored. */
export const postAnswer = (page: Page, path: RegExp) =>
  page.waitForResponse((r) => r.request().method() === 'POST' && path.test(new URL(r.url()).pathname));

/**
 * Resolves once the page has been idle: the work the app defers to idle callbacks (lib/idle.ts: the
 * realtime connection, the daily time-zone report) was queued before this one and
 * has run. Wait on it before changing what that work reads (a cookie), or before checking it did not happen.
 */
export const browserIdle = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 })));

/**
 * Resolves once the page has painted twice more: a state change set off before (an event from outside
 * React, an answer that arrived) has been rendered by then. Wait on it before checking that something
 * did not appear or did not change.
 */
export const painted = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );

/** The signed-in member's id, from the page-wide configuration the shell carries. */
export async function authId(page: Page): Promise<number> {
  return JSON.parse((await page.locator('#page-config').textContent())!).authId as number;
}

/**
 * Watches a page's realtime connection; call it before the page opens. `joined(channel)` resolves once
 * the server has accepted the page's subscription to that channel (`user.5`, `show.2`): from then on,
 * events on it reach the page. After a page load, ask once the new page is up: until its document has
 * loaded, the previous page's subscriptions still count. Socket.IO frames: `42<id>["subscribe","user.5"]`, answered `43<id>[{"ok":true}]`.
 */
export function watchChannels(page: Page) {
  const accepted = new Set<string>();
  const waiting = new Map<string, () => void>();
  // a new document's connection opens only once that page is idle: from the moment the document
  // changes, what the previous page had joined no longer reaches this one
  page.on('domcontentloaded', () => accepted.clear());
  page.on('websocket', (ws) => {
    // a new connection (a page load, or a reconnect) subscribes afresh
    accepted.clear();
    const asked = new Map<string, string>();
    ws.on('framesent', ({ payload }) => {
      const m = /^42(\d+)\["subscribe","([^"]+)"\]$/.exec(String(payload));
      if (m) asked.set(m[1]!, m[2]!);
    });
    ws.on('framereceived', ({ payload }) => {
      const m = /^43(\d+)\[\{"ok":true\}\]$/.exec(String(payload));
      const channel = m && asked.get(m[1]!);
      if (!channel) return;
      accepted.add(channel);
      waiting.get(channel)?.();
    });
  });
  return {
    joined: (channel: string) =>
      accepted.has(channel) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(channel, resolve)),
  };
}

/** Register a new drummer from `page`'s browser (signs that browser in); the answer's status. */
export async function registerInPage(
  page: Page,
  account: { name: string; email: string; password: string },
): Promise<number> {
  if (new URL(page.url()).origin !== new URL(baseURL()).origin) await page.goto('/');
  return page.evaluate(async ({ name, email, password }) => {
    const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
    const res = await fetch('/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': token },
      body: JSON.stringify({ name, email, email_confirmation: email, password }),
    });
    return res.status;
  }, account);
}

let drummers = 0;

/**
 * A new drummer of this test's own, registered from `page`'s browser (which is signed in as them
 * afterwards); `member: true` also buys the monthly membership in the sandbox, by card, or with
 * `paypal: true` through the sandbox PayPal's approval; `student: true` buys the mentorship in full on
 * the sandbox's hosted checkout (a mentor is assigned as for any buyer). A browser spec changes only
 * what it made, so the demo accounts other specs read stay as they are.
 */
export async function newDrummer(
  page: Page,
  opts: { name?: string; member?: boolean; paypal?: boolean; student?: boolean } = {},
): Promise<{ id: number; name: string; email: string; password: string; profilePath: string }> {
  if (new URL(page.url()).origin !== new URL(baseURL()).origin) await page.goto('/login');
  let token = (await page.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '';
  const call = async <T>(method: 'GET' | 'POST', url: string, data?: Record<string, unknown>) => {
    const res = await page.request.fetch(url, {
      method,
      ...(data ? { data } : {}),
      headers: { 'X-CSRF-TOKEN': token, Accept: 'application/json' },
    });
    const body = (await res.json().catch(() => null)) as T;
    if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${JSON.stringify(body)}`);
    token = res.headers()['x-csrf-token'] ?? token;
    return body;
  };
  const n = ++drummers;
  const name = opts.name ?? `Test Drummer ${n}`;
  const email = `drummer-${Date.now().toString(36)}-${process.pid}-${n}@test.test`;
  const password = 'sticks-and-skins';
  await call('POST', '/register', { name, email, email_confirmation: email, password });
  if (opts.member && opts.paypal) {
    const approval = await call<{ url: string }>('POST', '/paypal/get-approval-url', {
      checkout: 'academy',
      plan: 'monthly',
    });
    const ref = approval.url.split('?')[0]!.split('/').pop()!;
    const back = await call<{ url: string }>('POST', `/sandbox/paypal/approve/${ref}`);
    // PayPal sends the buyer back to the academy, which starts the membership
    await page.goto(back.url);
  } else if (opts.member) {
    const { clientSecret } = await call<{ clientSecret: string }>('GET', '/order/stripe-client-secret');
    const { payment_method } = await call<{ payment_method: string }>('POST', '/sandbox/setup-intents/confirm', {
      client_secret: clientSecret,
      number: SANDBOX_CARDS.succeeds,
      exp_month: 12,
      exp_year: 2040,
      cvc: '123',
      name,
    });
    await call('POST', '/order/stripe', { checkout: 'academy', plan: 'monthly', stripeToken: payment_method });
  }
  if (opts.student) {
    const hosted = await call<{ url: string }>('POST', '/mentorship/create-checkout', { price: 3200 });
    const paid = await call<{ url: string }>('POST', `/sandbox/checkout/${hosted.url.split('/').pop()}/pay`, {
      method: 'card',
      number: SANDBOX_CARDS.succeeds,
      exp_month: 12,
      exp_year: 2040,
      cvc: '123',
      name,
    });
    // back from the hosted page: the academy confirms the payment and opens the mentorship
    await page.goto(paid.url);
    await page.waitForURL((url) => url.pathname === '/mentorship');
  }
  const { user } = await call<{ user: { id: number; profileUrl: string } }>('GET', '/api/me');
  return { id: user.id, name, email, password, profilePath: new URL(user.profileUrl, baseURL()).pathname };
}

/**
 * A mentorship student's practice video, sent from `page`'s browser through the calls the upload form
 * makes (one chunk, then the submission); its id. `bytes` must sniff as a video (an MP4 `ftyp` box).
 */
export async function sendPracticeVideo(page: Page, title: string, bytes: Buffer): Promise<number> {
  return page.evaluate(
    async ({ title, bytes }) => {
      const token = () => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const call = async (url: string, body: BodyInit, json = true) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            accept: 'application/json',
            'x-csrf-token': token(),
            ...(json ? { 'content-type': 'application/json' } : {}),
          },
          body,
        });
        if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
        return res.json();
      };
      const data = new Uint8Array(bytes);
      const start = await call(
        '/uploads/chunked',
        JSON.stringify({
          phase: 'start',
          mime_type: 'video/mp4',
          size: data.length,
          name: 'groove.mp4',
          purpose: 'practice-video',
        }),
      );
      const session = start.data.session_id as string;
      const form = new FormData();
      form.set('phase', 'upload');
      form.set('session_id', session);
      form.set('start_offset', '0');
      form.set('chunk', new Blob([data]), 'blob');
      await call('/uploads/chunked', form, false);
      await call('/uploads/chunked', JSON.stringify({ phase: 'finish', session_id: session }));
      const sent = await call('/mentorship/videos', JSON.stringify({ upload_id: session, title, note: '' }));
      return sent.data.id as number;
    },
    { title, bytes: [...bytes] },
  );
}
