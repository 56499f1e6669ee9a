import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { START_UP, settingsPart } from '#shared/metronome';
import { PAGE_CONFIG_ELEMENT_ID } from '#shared/page-config';
import { UPLOAD_TARGETS } from '#shared/upload';
import { mp4Bytes } from '#test/uploads';
import { ROLE_EMAILS, ROLES, ROUTER_PAGES, type Role, type RouterPage } from '#test/router-pages';
import { launchBrowser, newPage, signIn } from '#test/e2e';
import { check, colourOnlyLinks, headingProblems } from '#test/axe';
import {
  coveredControls,
  cutBoxes,
  frames,
  LAYERS,
  resizeWithLayers,
  layerOverflow,
  openDrawn,
  overflow,
  untitledTruncations,
  watchRequests,
} from '#test/layout-checks';
import { DIALOGS } from '#test/a11y-pages';
import { writeLongAdminContent } from '#test/long-admin-content';

/*
 * Real people write long things: a 101-character topic title, a link pasted into a show's description,
 * a song named at length, a double-barrelled name, a word of 200 letters, right-to-left text. Fresh
 * drummers of each kind write them into every field they can (nothing shared is changed), and every page
 * of the router (tests/support/router-pages.ts), as each kind of person who sees it, holds them at 360,
 * 390, 768 and 1280 px: nothing is wider than the window, no button or link is under another element,
 * and a line cut short with an ellipsis shows its whole text as a tooltip (docs/product/layout.md); at
 * 390 and 1280 px axe and the heading and link checks pass (docs/product/accessibility.md).
 *
 * The dialogs and menus open over those pages hold the same text: each fits the window at every width,
 * and its own controls can be pressed.
 *
 * The 390 px view of every page and of every dialog, as each kind of person, is kept as a picture for
 * review: test-results/phone/<role>/<page>.png and <role>/dialog-<dialog>.png (git-ignored; the run
 * writes them afresh).
 */
const WIDTHS = [360, 390, 768, 1280];
const PHONE_WIDTH = 390;
const HEIGHT = 844;
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/phone');

const stamp = Date.now().toString(36);
const LONG_WORD = `Supercalifragilisticexpialidocious${'x'.repeat(166)}`;
const LONG_URL = `https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG&si=${'a'.repeat(80)}&feature=shared`;
const TITLE =
  'Help: my left-foot heel-toe technique keeps collapsing above 180 bpm on double-bass metal grooves!!'.padEnd(
    101,
    '!',
  );
const RTL = 'مرحبا بالجميع، أنا أتعلم الطبول منذ سنة وأحاول العزف على الدواسة المزدوجة';
const BODY = `${TITLE}\n\n${LONG_WORD}\n\n${LONG_URL}\n\n${RTL}`;
/** display names at the length people give them (names stop at 100 characters) */
const NAMES: Record<Exclude<Role, 'visitor' | 'admin'>, string> = {
  free: `Maximiliana Featherstonehaugh-Okonkwo-Vandersteen ${stamp}`,
  member: `Bartholomew Alexander Montgomery-Wolfeschlegelsteinhausen ${stamp}`,
  student: `${RTL.slice(0, 30)} Oluwaseun Adebayo-Johnson ${stamp}`,
};

type P = Page & { errors: string[] };
let browser: Browser;
let endShow: (() => Promise<unknown>) | undefined;
const people = {} as Record<Role, P>;
const ids = {} as Record<Exclude<Role, 'visitor' | 'admin'>, number>;
/** the addresses of this spec's own data, by route path (and by role where each sees their own) */
const own: Record<string, string | Partial<Record<Role, string>>> = {};

async function call<T = unknown>(p: Page, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown): Promise<T> {
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
const post = <T = unknown>(p: Page, url: string, data: unknown) => call<T>(p, 'POST', url, data);

const config = (p: Page) =>
  p.evaluate(
    (id) => JSON.parse(document.getElementById(id)!.textContent!) as { authId: number; authProfileUrl: string },
    PAGE_CONFIG_ELEMENT_ID,
  );

async function register(role: keyof typeof NAMES) {
  const p = await newPage(browser, { width: PHONE_WIDTH, height: HEIGHT });
  const email = `long-${role}-${stamp}@test.test`;
  await p.goto('/register');
  await post(p, '/register', { name: NAMES[role], email, email_confirmation: email, password: 'long-drummer-1' });
  await p.goto('/dashboard');
  ids[role] = (await config(p)).authId;
  people[role] = p;
}

beforeAll(async () => {
  browser = await launchBrowser();
  people.visitor = await newPage(browser, { width: PHONE_WIDTH, height: HEIGHT });
  people.admin = await newPage(browser, { width: PHONE_WIDTH, height: HEIGHT });
  await signIn(people.admin, ROLE_EMAILS.admin!);
  for (const role of ['free', 'member', 'student'] as const) await register(role);
  const { admin, free, member, student } = people;

  // the paying member holds a membership; the student a mentorship with the admin as mentor
  await post(admin, `/api/admin/members/${ids.member}/entitlements`, { kind: 'membership' });
  await post(admin, `/api/admin/members/${ids.student}/entitlements`, { kind: 'mentorship' });
  await post(admin, `/api/mentorship/students/${ids.student}/mentor`, { mentor_id: (await config(admin)).authId });
  for (const p of [member, student]) await p.reload();

  // the member: status, a forum topic, a lesson discussion post, a song, journal, metronome, a review
  await post(member, '/status', { status: `${LONG_WORD.slice(0, 120)} ${RTL}`.slice(0, 280) });
  const { topic } = await post<{ topic: { id: number } }>(member, '/api/forums/technique/topics', {
    title: TITLE,
    body: BODY,
  });
  const thread = await call<{ data: { posts: { id: number }[] }[] }>(member, 'GET', `/forums/api/topic/${topic.id}`);
  own['/forums/topic/:id'] = `/forums/topic/${topic.id}`;
  own['/forums/:slug'] = '/forums/technique';
  own['/forums/post/:id/edit'] = `/forums/post/${thread.data[0]!.posts[0]!.id}/edit`;
  // the student answers: the member is notified, with the student's name and the topic's title
  await post(student, '/posts', { type: 'forumtopic', resource_id: topic.id, body: `${LONG_URL} ${RTL}` });
  const lesson = await post<{ post: { id: number } }>(member, '/posts', {
    type: 'lesson',
    resource_id: 1,
    body: BODY,
  });
  own['/posts/:id'] = `/posts/${lesson.post.id}`;
  const song = await post<{ id: string }>(member, '/songmapper', {
    song: {
      title: `${TITLE.slice(0, 70)} — extended live version, long drum solo`,
      bpm: '182',
      expandFields: true,
      sections: [
        {
          title: LONG_WORD.slice(0, 60),
          otherTitle: true,
          measures: '16',
          division: LONG_WORD.slice(0, 40),
          otherDivision: true,
          surface: LONG_WORD.slice(0, 80),
          snare: RTL,
        },
      ],
    },
    id: null,
  });
  own['/songmapper/:id?'] = { member: `/songmapper/${song.id}` };
  await post(member, '/journal', {
    exercises: JSON.stringify([
      { practicedToday: LONG_WORD.slice(0, 100), startingTempo: '60', endingTempo: '80' },
      { practicedToday: RTL, startingTempo: '70', endingTempo: '90' },
    ]),
    notes: BODY,
  });
  await post(member, '/api/metronome_settings', {
    name: LONG_WORD.slice(0, 60),
    fav: true,
    settings: settingsPart(START_UP),
  });
  await post(member, '/contact/send', { subject: TITLE, body: BODY, studentReview: 1 });
  own['/profile/:slug'] = (await config(member)).authProfileUrl;

  // the free member asks the member to be friends, writes on the student's wall and reports it
  await post(free, '/friends', { user_id: ids.member });
  const wall = await post<{ id: number }[]>(free, '/profile-comments', { to_id: ids.student, body: BODY });
  await post(member, '/api/reports', { kind: 'wall', id: wall[0]!.id, reason: `${TITLE} ${LONG_URL}`.slice(0, 480) });

  // the student: accountability links, a practice video (the mentor answers it)
  await post(student, '/mentorship/accountability/links', { student_id: ids.student, url: LONG_URL, label: TITLE });
  await post(student, '/mentorship/accountability/links', { student_id: ids.student, url: LONG_URL, label: RTL });
  const bytes = mp4Bytes(2500);
  const start = await post<{ data: { session_id: string } }>(student, UPLOAD_TARGETS.chunked, {
    phase: 'start',
    mime_type: 'video/mp4',
    size: bytes.length,
    name: `${LONG_WORD.slice(0, 80)}.mp4`,
    purpose: 'practice-video',
  });
  const session = start.data.session_id;
  const token = (await student.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '';
  const chunk = await student.request.post(UPLOAD_TARGETS.chunked, {
    headers: { 'X-CSRF-TOKEN': token, Accept: 'application/json' },
    multipart: {
      phase: 'upload',
      session_id: session,
      start_offset: '0',
      chunk: { name: 'blob', mimeType: 'application/octet-stream', buffer: bytes },
    },
  });
  expect(chunk.status(), await chunk.text()).toBe(200);
  await post(student, UPLOAD_TARGETS.chunked, { phase: 'finish', session_id: session });
  const video = await post<{ data: { id: number } }>(student, '/mentorship/videos', {
    upload_id: session,
    title: TITLE.slice(0, 100),
    note: BODY,
  });
  await post(admin, `/mentorship/videos/${video.data.id}/feedback`, { feedback: BODY });
  own['/mentorship/videos/:id'] = `/mentorship/videos/${video.data.id}`;
  for (const p of [
    '/mentorship/students/:id',
    '/mentorship/students/:id/practice-plan',
    '/mentorship/students/:id/videos',
  ])
    own[p] = p.replace(':id', String(ids.student));
  own['/admin/members/:id'] = `/admin/members/${ids.member}`;

  // the mentor's practice plan for the student: day and exercise titles, links, notes
  const plan = await call<{ id: number; admin_version: number; student_version: number }>(
    admin,
    'GET',
    `/mentorship/practice-plan?student_id=${ids.student}`,
  );
  const day = (i: number) => ({
    id: `d${i}`,
    title: i ? RTL : TITLE,
    complete: false,
    exercises: [LONG_WORD.slice(0, 100), TITLE, RTL].map((title, j) => ({
      id: `e${i}x${j}`,
      title,
      link: LONG_URL,
      notes: BODY,
      goal: '100',
      endingTempo1: '',
      endingTempo2: '',
      endingTempo3: '',
      endingTempo4: '',
      timeWithoutMistakes: '',
    })),
  });
  await post(admin, '/mentorship/practice-plan', {
    id: plan.id,
    admin_version: plan.admin_version,
    student_version: plan.student_version,
    practice_plan: { phase1: [[day(0), day(1)]], phase2: [], phase3: [] },
  });

  // live shows with a long title, a pasted link and a long word in the description: one tomorrow, and one
  // on air whose chat has a long topic and long messages (the paying member and the student see that one)
  const show = (startsAt: number) =>
    post<{ data: { id: number } }>(admin, '/api/admin/live-shows', {
      title: `${TITLE} (live Q&A)`.slice(0, 150),
      description: `Bring your questions! Playlist: ${LONG_URL} ${LONG_WORD} ${RTL}`,
      starts_at: new Date(startsAt).toISOString(),
    });
  const [later, onAir] = [(await show(Date.now() + 86_400_000)).data.id, (await show(Date.now())).data.id];
  await post(admin, `/api/admin/live-shows/${onAir}/status`, { status: 'live' });
  await post(admin, `/api/admin/live-shows/${onAir}/chat`, { open: true });
  await post(admin, `/api/admin/live-shows/${onAir}/topic`, { topic: `${TITLE} ${LONG_URL} ${RTL}` });
  for (const p of [member, student]) await post(p, '/live-chat/messages', { showId: onAir, body: BODY.slice(0, 480) });
  endShow = () => post(admin, `/api/admin/live-shows/${onAir}/status`, { status: 'ended' });
  own['/live/:id'] = {
    free: `/live/${later}`,
    admin: `/live/${later}`,
    member: `/live/${onAir}`,
    student: `/live/${onAir}`,
  };

  // the admin's content at its limits: a course, a lesson in it, a stage and an achievement
  const texts = { title: TITLE, word: LONG_WORD, url: LONG_URL, rtl: RTL, body: BODY };
  Object.assign(own, await writeLongAdminContent((m, url, data) => call(admin, m, url, data), texts, stamp));

  // the notifications the writing above sent: the member's reply, the student's welcome
  const first = async (p: Page, area: string) =>
    (await call<{ data: { id: number }[] }>(p, 'GET', `/api/notifications${area}`)).data[0]!.id;
  own['/notifications/:id'] = { member: `/notifications/${await first(member, '')}` };
  own['/mentorship/notifications/:id'] = {
    student: `/mentorship/notifications/${await first(student, '?area=mentorship')}`,
  };
}, 180_000);

// the show on air ends: the specs after this one see the demo's live shows as they were
afterAll(async () => {
  await endShow?.();
  await browser?.close();
});

/** The address `role` opens for `page`: this spec's own data where it made some, else the demo's. */
function addressFor(page: RouterPage, role: Role): string {
  const mine = own[page.path];
  if (typeof mine === 'string') return mine;
  if (mine && role in mine) return mine[role] ?? page.url;
  return page.url;
}

describe('long text on every page of the router, at every width, as everyone who sees it', () => {
  it.each(ROLES)(
    'as %s',
    async (role) => {
      const p = people[role];
      watchRequests(p);
      mkdirSync(path.join(SHOTS, role), { recursive: true });
      const found: string[] = [];
      for (const page of ROUTER_PAGES.filter((pg) => pg.roles.includes(role))) {
        const url = addressFor(page, role);
        await p.setViewportSize({ width: PHONE_WIDTH, height: HEIGHT });
        await openDrawn(p, url);
        for (const width of WIDTHS) {
          await p.setViewportSize({ width, height: HEIGHT });
          await frames(p);
          const extra = await overflow(p);
          if (extra > 0) found.push(`${url} @${width}: ${extra} px wider than the window`);
          for (const c of await coveredControls(p)) found.push(`${url} @${width}: ${c}`);
          if (width === PHONE_WIDTH)
            for (const c of [...(await cutBoxes(p)), ...(await untitledTruncations(p))])
              found.push(`${url} @${width}: ${c}`);
          // axe and the heading and link checks, as this kind of person, at a phone's and a desktop's width
          if (width === PHONE_WIDTH || width === 1280)
            found.push(
              ...(await check(p, `${role} ${url}`, width)),
              ...[...(await headingProblems(p)), ...(await colourOnlyLinks(p))].map((h) => `${url} @${width}: ${h}`),
            );
          if (width === PHONE_WIDTH)
            await p.screenshot({ path: path.join(SHOTS, role, `${page.name}.png`), fullPage: true });
        }
      }
      expect(found).toEqual([]);
      expect(p.errors).toEqual([]);
    },
    // up to 95 pages at four widths, with axe at two: over ten minutes on a shared two-core machine
    1_200_000,
  );
});

/**
 * The dialogs and menus of tests/support/a11y-pages.ts, each opened by the person of this spec's own of
 * its kind, on this spec's data where the page it opens on shows some (the long topic, the long
 * student's plan). The header's menus and the phone's drawer are opened by every signed-in kind of
 * person: each holds their own name and notifications. Those a demo account's history opens (a card
 * membership's Upgrade and Cancel, a first quiz, a PayPal member) stay with the accessibility spec.
 */
const EVERY_SIGNED_IN = ['account menu', 'notifications menu', 'side menu drawer'];
const LAYERS_HERE = DIALOGS.filter((d) => !d.own && !['upgrade dialog', 'cancel dialog'].includes(d.name)).flatMap(
  (d) =>
    EVERY_SIGNED_IN.includes(d.name) ? ROLES.filter((role) => role !== 'visitor').map((role) => ({ ...d, role })) : [d],
);

const openLayer = (p: Page) => p.locator(LAYERS);

describe('long text in every dialog and menu, at every width', () => {
  it.each(ROLES.filter((role) => LAYERS_HERE.some((d) => d.role === role)))(
    'as %s',
    async (role) => {
      const p = people[role];
      watchRequests(p);
      mkdirSync(path.join(SHOTS, role), { recursive: true });
      const found: string[] = [];
      for (const dialog of LAYERS_HERE.filter((d) => d.role === role)) {
        const page = ROUTER_PAGES.find((pg) => pg.url === dialog.url);
        const url = page ? addressFor(page, role) : dialog.url;
        await p.setViewportSize({ width: PHONE_WIDTH, height: HEIGHT });
        await openDrawn(p, url);
        // the topic modal opens on the long topic of this spec's own, not the list's first
        if (dialog.name === 'topic modal')
          await p
            .getByRole('main')
            .locator(`a[href="${own['/forums/topic/:id'] as string}"]`)
            .first()
            .click();
        else await dialog.open(p);
        await openLayer(p).first().waitFor({ state: 'visible' });
        await expect
          .poll(() => p.locator('[role="status"][aria-label^="Loading"]').count(), { timeout: 10_000 })
          .toBe(0);
        for (const width of dialog.phoneOnly ? [360, PHONE_WIDTH] : WIDTHS) {
          await resizeWithLayers(p, { width, height: HEIGHT });
          const at = `${dialog.name} on ${url} @${width}`;
          if ((await openLayer(p).count()) === 0) {
            found.push(`${at}: closed when the window changed size`);
            break;
          }
          if (width === PHONE_WIDTH)
            await p.screenshot({ path: path.join(SHOTS, role, `dialog-${dialog.name.replaceAll(' ', '-')}.png`) });
          const extra = await overflow(p);
          if (extra > 0) found.push(`${at}: the page is ${extra} px wider than the window`);
          for (const c of [...(await layerOverflow(p)), ...(await coveredControls(p, true))]) found.push(`${at}: ${c}`);
          if (width === PHONE_WIDTH)
            for (const c of [...(await cutBoxes(p)), ...(await untitledTruncations(p))]) found.push(`${at}: ${c}`);
        }
        await p.keyboard.press('Escape');
        await openLayer(p).first().waitFor({ state: 'detached' });
      }
      expect(found).toEqual([]);
      expect(p.errors).toEqual([]);
    },
    240_000,
  );
});
