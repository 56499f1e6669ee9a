/* eslint-disable max-lines -- one corpus of payloads written once through the API and then read on every page that shows member text; split, each part would write the corpus again */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { START_UP, settingsPart } from '#shared/metronome';
import { PAGE_CONFIG_ELEMENT_ID } from '#shared/page-config';
import { UPLOAD_TARGETS } from '#shared/upload';
import { cleanDisplayText } from '#shared/display-text';
import { mp4Bytes } from '#test/uploads';
import { XSS_CORPUS as CORPUS } from '#test/xss-corpus';
import { exercise } from '#test/practice-plans';
import { baseURL, DESKTOP, launchBrowser, PHONE, signIn, watchChannels } from '#test/e2e';

// Stored XSS: a corpus of payloads saved through the real API in every user-text field a
// member (or a mentor, for the practice plan) can write, then every page that shows that text opened
// in the real browser. No dialog may open, the marker stays unset, no page error, no injected handler
// or javascript: link in the DOM, and the payload is on the page as text.
//
// Everything is written by two members registered here (and a live show the admin opens and ends),
// so the demo accounts and demo content stay as they were.

const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** Corpus entries packed into strings of at most `max` characters (one per field value). */
function pack(max: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const p of CORPUS) {
    const next = cur ? `${cur} ${p}` : p;
    if (next.length > max) {
      out.push(cur);
      cur = p;
    } else cur = next;
  }
  if (cur) out.push(cur);
  return out;
}
const ALL = `${tag} ${CORPUS.join('\n')}`;
/** The payload name (<= 100 characters): it shows in headers, walls, notifications, admin lists. */
const NAME_A = `Xss ${tag} "><img src=x onerror="window.__xss='n';alert(1)"><svg onload=alert(2)>`;
const NAME_B = `Xss B ${tag} <script>window.__xss='b'</script>`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

type P = Page & { errors: string[]; dialogs: string[] };

let contexts = 0;
/**
 * A fresh context with the Content-Security-Policy BYPASSED: the site's CSP (no inline script) would
 * stop most payloads even if a page rendered them as markup, so the pages' own escaping is what is
 * tested here; the CSP stays a second line of defence. Each context comes from its own address.
 */
async function open(viewport = DESKTOP): Promise<P> {
  contexts += 1;
  const address = `172.${16 + (process.pid % 16)}.${contexts}.${(process.pid % 250) + 1}`;
  const context = await browser.newContext({
    viewport,
    baseURL: baseURL(),
    reducedMotion: 'reduce',
    bypassCSP: true,
    extraHTTPHeaders: { 'X-Forwarded-For': address },
  });
  const page = (await context.newPage()) as P;
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(String(err)));
  page.setDefaultTimeout(15_000);
  page.dialogs = [];
  page.on('dialog', (d) => {
    page.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss().catch(() => undefined);
  });
  return page;
}

/** A JSON call from the page's own session, with its CSRF token (read from the page's meta tag). */
async function call<T = unknown>(
  p: Page,
  method: 'POST' | 'PUT' | 'GET',
  url: string,
  data?: unknown,
  ok = true,
): Promise<{ status: number; body: T; retryAfter: number }> {
  const token = (await p.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '';
  const res = await p.request.fetch(url, {
    method,
    data: data as object,
    headers: { 'X-CSRF-TOKEN': token, Accept: 'application/json' },
  });
  const text = await res.text();
  if (ok && !res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${text}`);
  return {
    status: res.status(),
    body: (text ? JSON.parse(text) : null) as T,
    retryAfter: Number(res.headers()['retry-after'] ?? '2'),
  };
}

/** Post through the API, waiting out a per-member limit when it answers 429. */
async function post<T = unknown>(p: Page, url: string, data: unknown): Promise<T> {
  for (;;) {
    const res = await call<T>(p, 'POST', url, data, false);
    if (res.status === 429) {
      // the limit is a window of time: the answer names how long until it lets the next post through
      await p.waitForTimeout(res.retryAfter * 1000);
      continue;
    }
    if (res.status >= 300) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
}

const config = (p: Page) =>
  p.evaluate(
    (id) =>
      JSON.parse(document.getElementById(id)!.textContent!) as {
        authId: number;
        authProfileUrl: string;
        authName: string;
      },
    PAGE_CONFIG_ELEMENT_ID,
  );

/** Register a fresh member from a page (JSON, as the register form does) and land on the dashboard. */
async function register(p: Page, name: string, email: string) {
  await p.goto('/register');
  await post(p, '/register', { name, email, email_confirmation: email, password: 'xss-drummer-1' });
  await p.goto('/dashboard');
  expect(new URL(p.url()).pathname).toBe('/dashboard');
  return config(p);
}

/** Text on the page: the document's text plus the values of its form fields. */
const pageText = (p: Page) =>
  p.evaluate(() => {
    const values = [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')].map(
      (el) => el.value,
    );
    return [document.body.textContent ?? '', ...values].join('\n');
  });

/** what the DOM holds that a payload could have put there */
const injected = (p: Page) =>
  p.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      for (const attr of el.getAttributeNames()) {
        if (/^on/i.test(attr)) found.push(`${el.tagName.toLowerCase()}[${attr}]`);
        if (
          /^(href|src|action|formaction|xlink:href)$/i.test(attr) &&
          /^\s*javascript:/i.test(el.getAttribute(attr) ?? '')
        )
          found.push(`${el.tagName.toLowerCase()}[${attr}=javascript:]`);
        if (attr === 'srcdoc') found.push(`${el.tagName.toLowerCase()}[srcdoc]`);
      }
      if (el.tagName === 'SCRIPT' && /__xss/.test(el.textContent ?? '')) found.push('script with the payload');
      if (el.tagName === 'STYLE' && /javascript:/.test(el.textContent ?? '')) found.push('style with the payload');
    }
    return found;
  });

/**
 * Open a page (or use the current one when url is null) and check it: every expected text shows as
 * text, nothing ran, nothing was injected.
 */
async function check(p: P, url: string | null, expected: string[], label = url ?? p.url()) {
  if (url) await p.goto(url);
  // names and titles are stored without bidi controls and invisible characters (two payloads carry
  // some), so what must be shown is compared without them, on both sides
  await expect
    .poll(
      async () => {
        const text = cleanDisplayText(await pageText(p));
        return expected.filter((e) => !text.includes(cleanDisplayText(e)));
      },
      { timeout: 15_000, message: `${label}: text not shown` },
    )
    .toEqual([]);
  // images with src=x and the like have been fetched (and failed) by now
  await p.waitForLoadState('networkidle');
  expect(
    await p.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
    `${label}: a payload ran`,
  ).toBeUndefined();
  expect(p.dialogs, `${label}: a dialog opened`).toEqual([]);
  expect(p.errors, `${label}: page errors`).toEqual([]);
  expect(await injected(p), `${label}: markup injected`).toEqual([]);
}

let a: P; // the member with the payload name who writes everything
let b: P; // a second member who receives the notifications
let admin: P;
let idA = 0;
let idB = 0;
let profileA = '';
let profileB = '';
const emailA = `xss-a-${tag}@test.test`;
const emailB = `xss-b-${tag}@test.test`;
const written: {
  titles: string[];
  topicA: number;
  topicB: number;
  titleB: string;
  lesson: number;
  show: number;
  songs: string[];
  songTitles: string[];
  status: string;
  labels: string[];
  planWeek: string;
  video: number;
} = {
  titles: [],
  topicA: 0,
  topicB: 0,
  titleB: '',
  lesson: 0,
  show: 0,
  songs: [],
  songTitles: [],
  status: '',
  labels: [],
  planWeek: '',
  video: 0,
};

describe('stored XSS corpus in the real browser', () => {
  it('the checks catch a payload that does run (control)', async () => {
    const p = await open(DESKTOP);
    await p.goto('/');
    await p.evaluate(
      (html) => document.body.insertAdjacentHTML('beforeend', `<div id="control">${html}</div>`),
      CORPUS.join(''),
    );
    await expect.poll(() => p.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeDefined();
    await expect.poll(() => p.dialogs.length).toBeGreaterThan(0);
    expect((await injected(p)).length).toBeGreaterThan(0);
  });

  it('two members register (one with a payload name) and the admin grants them membership and mentorship', async () => {
    a = await open(DESKTOP);
    b = await open(DESKTOP);
    const ca = await register(a, NAME_A, emailA);
    const cb = await register(b, NAME_B, emailB);
    // the page config (JSON in the page) carries the name as data
    expect(ca.authName).toBe(NAME_A);
    expect(cb.authName).toBe(NAME_B);
    [idA, idB, profileA, profileB] = [ca.authId, cb.authId, ca.authProfileUrl, cb.authProfileUrl];
    await check(a, null, [], 'dashboard of the payload name');

    admin = await open(DESKTOP);
    await signIn(admin, 'admin@demo.test', undefined, '/admin');
    for (const id of [idA, idB]) await post(admin, `/api/admin/members/${id}/entitlements`, { kind: 'membership' });
    await post(admin, `/api/admin/members/${idA}/entitlements`, { kind: 'mentorship' });
  });

  it('the member writes the corpus into every field they can save', async () => {
    await a.goto('/dashboard');
    await b.goto('/dashboard');

    // status (280)
    written.status = pack(280)[0]!;
    await post(a, '/status', { status: written.status });

    // forum topics: titles (150) and bodies; B's topic gets A's reply (a reply notification to B)
    written.titles = pack(150).slice(0, 4);
    for (const [i, title] of written.titles.entries()) {
      const { topic } = await post<{ topic: { id: number } }>(a, '/api/forums/technique/topics', {
        title,
        body: i === 0 ? ALL : `${tag} ${title}`,
      });
      if (i === 0) written.topicA = topic.id;
    }
    written.titleB = `${tag} B asks ${CORPUS[0]}`;
    written.topicB = (
      await post<{ topic: { id: number } }>(b, '/api/forums/technique/topics', {
        title: written.titleB,
        body: `B's ${tag} ${CORPUS[2]}`,
      })
    ).topic.id;
    await post(a, '/posts', { type: 'forumtopic', resource_id: written.topicA, body: `reply ${ALL}` });
    await post(a, '/posts', { type: 'forumtopic', resource_id: written.topicB, body: `reply to B ${ALL}` });

    // lesson discussion, on a lesson no other spec writes on
    written.lesson = await a.evaluate(async () => {
      const res = await fetch('/api/courses/double-kick-basics', { headers: { accept: 'application/json' } });
      const { data } = (await res.json()) as { data: { lessons: { id: number }[] } };
      return data.lessons.at(-1)!.id;
    });
    await post(a, '/posts', { type: 'lesson', resource_id: written.lesson, body: `lesson ${ALL}` });

    // wall: A writes on B's wall (and replies to it), B is notified with A's name
    const wall = await post<{ id: number }[]>(a, '/profile-comments', { to_id: idB, body: `wall ${ALL}` });
    await post(a, '/profile-comments', { to_id: idB, parent_id: wall[0]!.id, body: `wall reply ${pack(1000)[0]}` });
    await post(a, '/profile-comments', { to_id: idA, body: `own wall ${ALL}` });

    // friend request with the payload name
    await post(a, '/friends', { user_id: idB });

    // B reports A's wall comment with a payload reason: the admin reports page shows both
    await post(b, '/api/reports', { kind: 'wall', id: wall[0]!.id, reason: `${tag} ${pack(480)[0]}` });

    // song mapper: titles (120) and every section field
    const sections = CORPUS.map((p) => ({
      title: p,
      otherTitle: true,
      measures: '4',
      division: p,
      otherDivision: true,
      surface: p,
      snare: p,
    }));
    written.songTitles = pack(120).slice(0, 3);
    for (const title of written.songTitles) {
      const { id } = await post<{ id: string }>(a, '/songmapper', {
        song: { title, bpm: '120', expandFields: true, sections },
        id: null,
      });
      written.songs.push(id);
    }

    // journal: exercise names (10 per entry) and notes
    for (let i = 0; i < CORPUS.length; i += 10) {
      const exercises = CORPUS.slice(i, i + 10).map((p) => ({
        practicedToday: p,
        startingTempo: '60',
        endingTempo: '80',
      }));
      await post(a, '/journal', { exercises: JSON.stringify(exercises), notes: `notes ${pack(1900)[0]}` });
    }

    // a review and a contact message
    await post(a, '/contact/send', { subject: pack(190)[0], body: `review ${ALL}`, studentReview: 1 });
    await post(a, '/contact/send', { subject: `${tag} contact`, body: `contact ${ALL}` });

    // metronome setting names (60)
    for (const name of CORPUS)
      await post(a, '/api/metronome_settings', { name, fav: false, settings: settingsPart(START_UP) });

    // accountability: labels; a URL with an attribute break-out is either refused or kept as data; javascript: is refused
    written.labels = [...pack(200)];
    for (const label of written.labels)
      await post(a, '/mentorship/accountability/links', { student_id: idA, url: `https://example.com/${tag}`, label });
    const breakout = await call(
      a,
      'POST',
      '/mentorship/accountability/links',
      { student_id: idA, url: `https://example.com/?q="><img src=x onerror=alert(1)>`, label: 'breakout' },
      false,
    );
    expect([201, 422]).toContain(breakout.status);
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)//https://',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
    ]) {
      expect(
        (await call(a, 'POST', '/mentorship/accountability/links', { student_id: idA, url, label: 'bad' }, false))
          .status,
      ).toBe(422);
    }

    // a practice video: title and note from the student, feedback from the mentor (the student is notified)
    const bytes = mp4Bytes(2500);
    const start = await post<{ data: { session_id: string } }>(a, UPLOAD_TARGETS.chunked, {
      phase: 'start',
      mime_type: 'video/mp4',
      size: bytes.length,
      name: `${CORPUS[0]}.mp4`,
      purpose: 'practice-video',
    });
    const session = start.data.session_id;
    const token = (await a.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '';
    const chunk = await a.request.post(UPLOAD_TARGETS.chunked, {
      headers: { 'X-CSRF-TOKEN': token, Accept: 'application/json' },
      multipart: {
        phase: 'upload',
        session_id: session,
        start_offset: '0',
        chunk: { name: 'blob', mimeType: 'application/octet-stream', buffer: bytes },
      },
    });
    expect(chunk.status(), await chunk.text()).toBe(200);
    await post(a, UPLOAD_TARGETS.chunked, { phase: 'finish', session_id: session });
    const video = await post<{ data: { id: number } }>(a, '/mentorship/videos', {
      upload_id: session,
      title: pack(100)[0],
      note: `note ${tag} ${pack(900)[0]}`,
    });
    written.video = video.data.id;
    await admin.goto('/admin');
    await post(admin, `/mentorship/videos/${written.video}/feedback`, { feedback: `feedback ${ALL}` });

    // live chat (500 a message) on a show the admin opens
    await admin.goto('/live');
    const { data } = await post<{ data: { id: number } }>(admin, '/api/live/shows', {
      title: `${tag} ${CORPUS[1]}`,
      starts_at: new Date().toISOString(),
      video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    });
    written.show = data.id;
    await post(admin, `/api/live/shows/${written.show}/status`, { status: 'live' });
    for (const body of pack(480)) await post(a, '/live-chat/messages', { body, showId: written.show });

    // practice plan: the mentor (admin) writes day titles, exercise titles, links and notes
    const plan = (
      await call<{ id: number; admin_version: number; student_version: number }>(
        admin,
        'GET',
        `/mentorship/practice-plan?student_id=${idA}`,
      )
    ).body;
    written.planWeek = `${tag} day`;
    const day = (i: number, ps: readonly string[]) => ({
      id: `d${i}`,
      title: i === 0 ? `${written.planWeek} ${CORPUS[0]}` : ps[0]!,
      complete: false,
      exercises: ps.map((p, j) =>
        exercise({
          id: `e${i}x${j}`,
          title: p,
          link: j % 2 ? `https://example.com/"><img src=x onerror=alert(${j})>` : `https://example.com/${tag}`,
          notes: `${p} ${ALL}`,
        }),
      ),
    });
    const week = [day(0, CORPUS.slice(0, 8)), day(1, CORPUS.slice(8))];
    await post(admin, '/mentorship/practice-plan', {
      id: plan.id,
      admin_version: plan.admin_version,
      student_version: plan.student_version,
      practice_plan: { phase1: [week], phase2: [], phase3: [] },
    });
    // javascript: links are refused in the plan
    const bad = { ...week[0]!, exercises: [{ ...week[0]!.exercises[0]!, link: 'javascript:alert(1)' }] };
    const refused = await call(
      admin,
      'POST',
      '/mentorship/practice-plan',
      { id: plan.id, practice_plan: { phase1: [[bad]], phase2: [], phase3: [] } },
      false,
    );
    expect(refused.status).toBe(422);
  });

  it('the member pages show the text and run nothing', async () => {
    await check(a, '/dashboard', []);
    await check(a, profileA, [NAME_A, written.status, `own wall ${tag}`, ...CORPUS]);
    await check(a, profileB, [NAME_A, NAME_B, `wall ${tag}`, ...CORPUS]);
    await check(a, '/forums/technique', [...written.titles, written.titleB]);
    await check(a, `/forums/topic/${written.topicA}`, [written.titles[0]!, NAME_A, ...CORPUS]);
    await check(a, `/forums/topic/${written.topicB}`, [written.titleB, NAME_B, NAME_A, `reply to B ${tag}`]);
    await check(a, '/forums', []);
    await check(a, `/lessons/${written.lesson}`, [NAME_A, `lesson ${tag}`, ...CORPUS]);
    await check(a, `/live/${written.show}`, [...pack(480), NAME_A]);
    await check(a, '/songmapper', written.songTitles);
    for (const id of written.songs) await check(a, `/songmapper/${id}`, [...CORPUS]);
    await check(a, '/journal', [...CORPUS]);
    await check(a, '/metronome', [...CORPUS]);
    await check(a, '/mentorship/accountability', written.labels);
    await check(a, '/mentorship/practice-plan', [...CORPUS]);
    await check(a, '/mentorship', []);
    await check(a, '/mentorship/videos', [pack(100)[0]!]);
    await check(a, `/mentorship/videos/${written.video}`, [pack(100)[0]!, `note ${tag}`, `feedback ${tag}`, ...CORPUS]);
    await check(a, '/mentorship/notifications', [pack(100)[0]!]);
    await check(a, '/account/profile', [NAME_A]);
    await check(a, '/friends', [NAME_B]);
  });

  it('the notified member sees the payload name as text in the notifications menu, page and detail', async () => {
    await check(b, '/friends', [NAME_A]);
    await check(b, profileB, [NAME_A, `wall ${tag}`]);
    await check(b, '/notifications', [NAME_A, written.titleB]);
    // the header menu
    await b.goto('/dashboard');
    await b.getByRole('button', { name: /^Notifications/ }).click();
    await check(b, null, [NAME_A, written.titleB], 'notifications menu');
    // each notification's own page
    const { data } = (await call<{ data: { id: number; body: string }[] }>(b, 'GET', '/api/notifications?page=1')).body;
    let named = 0;
    for (const n of data) {
      const text = await b.evaluate(
        (html) => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '',
        n.body,
      );
      if (text.includes(NAME_A)) named += 1;
      await check(b, `/notifications/${n.id}`, [text], `/notifications/${n.id}`);
    }
    // wall comment, wall reply, friend request, reply in B's topic
    expect(named).toBeGreaterThanOrEqual(4);
    // live, as a notification arrives over the socket (the toast)
    const channels = watchChannels(b);
    await b.goto('/dashboard');
    await b.getByRole('button', { name: /^Notifications/ }).waitFor();
    await channels.joined(`user.${idB}`);
    await post(a, '/profile-comments', { to_id: idB, body: `live toast ${tag}` });
    await check(b, null, [`${NAME_A} wrote on your wall.`], 'notification toast');
    // the live chat seen by another member
    await check(b, `/live/${written.show}`, [...pack(480)]);
  });

  it('the admin pages show the text and run nothing', async () => {
    await check(admin, '/admin/members', []);
    await admin.getByLabel('Search members').fill(emailA);
    await admin.locator('tbody tr', { hasText: emailA }).waitFor();
    await check(admin, null, [NAME_A], 'admin members search');
    await admin.getByRole('link', { name: NAME_A }).click();
    await check(admin, null, [NAME_A], 'admin member page');
    await check(admin, '/admin/audit-log', [NAME_A]);
    await check(admin, '/admin/reviews', [NAME_A, `review ${tag}`]);
    await check(admin, '/admin/reports', [NAME_A, `wall ${tag}`]);
    await check(admin, '/admin/moderation', []);
    await admin.getByLabel('Search text or author').fill(tag);
    await check(admin, null, [NAME_A, `lesson ${tag}`], 'admin moderation search');
    await check(admin, '/mentorship/students', []);
    await check(admin, `/mentorship/students/${idA}`, [NAME_A, ...written.labels]);
    await check(admin, `/mentorship/students/${idA}/practice-plan`, [NAME_A, ...CORPUS]);
    await check(admin, `/live/${written.show}`, [...pack(480)]);
    await check(admin, '/admin/live', []);
    await check(admin, `/mentorship/students/${idA}/videos`, [pack(100)[0]!]);
    await check(admin, `/mentorship/videos/${written.video}`, [
      NAME_A,
      pack(100)[0]!,
      `note ${tag}`,
      `feedback ${tag}`,
    ]);
    await check(admin, '/mentorship/videos', []);
    // end the show again
    await post(admin, `/api/live/shows/${written.show}/status`, { status: 'ended' });
  });

  it('pages work at phone width with the payloads', async () => {
    const phone = await open(PHONE);
    await signIn(phone, emailA, 'xss-drummer-1', `/forums/topic/${written.topicA}`);
    await check(phone, null, [written.titles[0]!, ...CORPUS], 'topic page at phone width');
    await check(phone, '/mentorship/practice-plan', [...CORPUS]);
    expect(a.errors).toEqual([]);
  });
});
