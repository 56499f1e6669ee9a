import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { START_UP, settingsPart } from '#shared/metronome';
import { PAGE_CONFIG_ELEMENT_ID } from '#shared/page-config';
import { userChannel } from '#shared/realtime';
import { UPLOAD_TARGETS } from '#shared/upload';
import { mp4Bytes } from '#test/uploads';
import { ROLE_EMAILS, ROLES, ROUTER_PAGES, type Role, type RouterPage } from '#test/router-pages';
import { apiCall, launchBrowser, newDrummer, newPage, reviewShot, signIn, watchChannels, type Method } from '#test/e2e';
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
  untilNoSpinner,
  watchRequests,
} from '#test/layout-checks';
import { DIALOGS, type DialogCase } from '#test/a11y-pages';
import { writeLongAdminContent, writeLongPracticePlan, writeLongShop } from '#test/long-admin-content';

/*
 * Real people write long things: a 101-character topic title, a link pasted into a show's description,
 * a song named at length, a double-barrelled name, a word of 200 letters, right-to-left text. Fresh
 * drummers of each kind write them into every field they can (nothing shared is changed), and every page
 * of the router (tests/support/router-pages.ts), as each kind of person who sees it, holds them at 360,
 * 390, 768 and 1280 px: nothing is wider than the window, no button or link is under another element,
 * and a line cut short with an ellipsis shows its whole text as a tooltip (docs/product/layout.md); at
 * 390 and 1280 px axe and the heading and link checks pass (docs/product/accessibility.md). The admin
 * names what others read at its limits too: a course and its tiers, a lesson, a stage, an achievement, a
 * forum category, and the membership checkout (the academy's one, renamed and named back afterwards).
 *
 * The dialogs and menus open over those pages hold the same text: each fits the window at every width,
 * and its own controls can be pressed.
 *
 * The 390 px view of every page and of every dialog, as each kind of person, is kept as a picture for
 * review (reviewShot): test-results/phone/<role>/<page>.png and <role>/dialog-<dialog>.png.
 */
const WIDTHS = [360, 390, 768, 1280];
const PHONE_WIDTH = 390;
const HEIGHT = 844;

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
const PAYPAL_NAME = `Anastasia Konstantinopoulou-Van der Westhuizen ${stamp}`;

type P = Page & { errors: string[] };
let browser: Browser;
/** the calls that put back what the spec changed of the demo's, in the order they are to be made */
const undo: (() => Promise<unknown>)[] = [];
const people = {} as Record<Role, P>;
/** a member paying through PayPal, for the PayPal cancel dialog */
let paypal: P;
let channels: ReturnType<typeof watchChannels>;
const ids = {} as Record<Exclude<Role, 'visitor' | 'admin'>, number>;
/** the addresses of this spec's own data, by route path (and by role where each sees their own) */
const own: Record<string, string | Partial<Record<Role, string>>> = {};

const call = apiCall;
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
  for (const role of ['free', 'student'] as const) await register(role);
  // the admin's content at its limits: a course (with its tiers on sale), a lesson in it, a stage, an
  // achievement; the checkout plan and a forum category, before anyone buys or writes
  const texts = { title: TITLE, word: LONG_WORD, url: LONG_URL, rtl: RTL, body: BODY };
  const send = <T>(m: Method, url: string, data?: unknown) => call<T>(people.admin, m, url, data);
  const content = await writeLongAdminContent(send, texts, stamp);
  const course = Number(content['/admin/courses/:id'].split('/').pop());
  const shop = await writeLongShop(send, texts, stamp, course, undo);
  Object.assign(own, content, shop.pages);
  // the paying member buys the monthly membership by card at the checkout (so Upgrade and Cancel show),
  // listening on their own channel (an achievement reaches the page there); another pays through PayPal
  people.member = await newPage(browser, { width: PHONE_WIDTH, height: HEIGHT });
  channels = watchChannels(people.member);
  ids.member = (await newDrummer(people.member, { name: NAMES.member, member: true })).id;
  await people.member.goto('/dashboard');
  paypal = await newPage(browser, { width: PHONE_WIDTH, height: HEIGHT });
  await newDrummer(paypal, { name: PAYPAL_NAME, member: true, paypal: true });
  watchRequests(paypal);
  const { admin, free, member, student } = people;

  // the student holds a mentorship with the admin as mentor
  await post(admin, `/api/admin/members/${ids.student}/entitlements`, { kind: 'mentorship' });
  await post(admin, `/api/mentorship/students/${ids.student}/mentor`, { mentor_id: (await config(admin)).authId });
  await student.reload();

  // the member: status, a forum topic (in the long category: moved out before it is deleted), a lesson
  // discussion post, a song, journal, metronome, a review
  await post(member, '/status', { status: `${LONG_WORD.slice(0, 120)} ${RTL}`.slice(0, 280) });
  const { topic } = await post<{ topic: { id: number } }>(member, `/api/forums/${shop.category.slug}/topics`, {
    title: TITLE,
    body: BODY,
  });
  const home = await send<{ data: { id: number; slug: string }[] }>('GET', '/api/admin/categories?q=technique');
  const technique = home.data.find((c) => c.slug === 'technique')!.id;
  undo.push(() => post(admin, `/api/forums/topics/${topic.id}/move`, { category_id: technique }));
  const thread = await call<{ data: { posts: { id: number }[] }[] }>(member, 'GET', `/forums/api/topic/${topic.id}`);
  own['/forums/topic/:id'] = `/forums/topic/${topic.id}`;
  own['/forums/:slug'] = `/forums/${shop.category.slug}`;
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
  await writeLongPracticePlan(send, texts, ids.student);

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
  undo.push(() => post(admin, `/api/admin/live-shows/${onAir}/status`, { status: 'ended' }));
  own['/live/:id'] = {
    free: `/live/${later}`,
    admin: `/live/${later}`,
    member: `/live/${onAir}`,
    student: `/live/${onAir}`,
  };

  // the notifications the writing above sent: the member's reply, the student's welcome
  const first = async (p: Page, area: string) =>
    (await call<{ data: { id: number }[] }>(p, 'GET', `/api/notifications${area}`)).data[0]!.id;
  own['/notifications/:id'] = { member: `/notifications/${await first(member, '')}` };
  own['/mentorship/notifications/:id'] = {
    student: `/mentorship/notifications/${await first(student, '?area=mentorship')}`,
  };
}, 180_000);

// the show on air ends, the topic leaves the long category, which goes, and the plan and the tier get
// their names back: the specs after this one see the demo's shows, forums and checkouts as they were
afterAll(async () => {
  const failed: unknown[] = [];
  for (const step of undo.reverse()) await step().catch((err: unknown) => failed.push(err));
  await browser?.close();
  expect(failed).toEqual([]);
});

/** The address `role` opens for `page`: this spec's own data where it made some, else the demo's. */
function addressFor(page: RouterPage, role: Role): string {
  const mine = own[page.path];
  if (typeof mine === 'string') return mine;
  if (mine && role in mine) return mine[role] ?? page.url;
  return page.url;
}

describe('long text on every page of the router, at every width, as everyone who sees it', () => {
  // Each kind of person walks the router in a browser context of their own, and the checks judge only how
  // each page holds its text, so the five walk side by side: while one waits for its frames to be drawn,
  // the others have the cores.
  it.concurrent.each(ROLES)(
    'as %s',
    async (role) => {
      const p = people[role];
      watchRequests(p);
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
          if (width === PHONE_WIDTH) await reviewShot(p, `phone/${role}/${page.name}.png`);
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
 * its kind, on this spec's data where the page it opens on shows some (the long topic, song and category,
 * the long student's plan). The header's menus and the phone's drawer are opened by every signed-in kind
 * of person: each holds their own name and notifications. The paying member bought a card membership
 * (Upgrade, Cancel) and passes a first quiz here; the PayPal cancel dialog is the PayPal member's; the
 * card's 3-D Secure dialog opens for a new visitor joining, in a browser of its own (joining signs it in).
 */
const EVERY_SIGNED_IN = ['account menu', 'notifications menu', 'side menu drawer'];
const LAYERS_HERE = DIALOGS.flatMap((d) =>
  EVERY_SIGNED_IN.includes(d.name) ? ROLES.filter((role) => role !== 'visitor').map((role) => ({ ...d, role })) : [d],
);

/** who opens `dialog`: the PayPal member, a new visitor, or this spec's own person of its kind */
async function opener(dialog: DialogCase): Promise<P> {
  if (dialog.own === 'paypal member') return paypal;
  if (dialog.own !== 'visitor') return people[dialog.role];
  const fresh = await newPage(browser, { width: PHONE_WIDTH, height: HEIGHT });
  watchRequests(fresh);
  return fresh;
}

const openLayer = (p: Page) => p.locator(LAYERS);

describe('long text in every dialog and menu, at every width', () => {
  it.each(ROLES.filter((role) => LAYERS_HERE.some((d) => d.role === role)))(
    'as %s',
    async (role) => {
      const p = people[role];
      watchRequests(p);
      const found: string[] = [];
      for (const dialog of LAYERS_HERE.filter((d) => d.role === role)) {
        const q = await opener(dialog);
        const page = ROUTER_PAGES.find((pg) => pg.url === dialog.url);
        const url = page ? addressFor(page, role) : dialog.url;
        await q.setViewportSize({ width: PHONE_WIDTH, height: HEIGHT });
        await openDrawn(q, url);
        if (dialog.name === 'achievement popup') await channels.joined(userChannel(ids.member));
        // the topic modal opens on the long topic of this spec's own, not the list's first
        if (dialog.name === 'topic modal')
          await q
            .getByRole('main')
            .locator(`a[href="${own['/forums/topic/:id'] as string}"]`)
            .first()
            .click();
        else await dialog.open(q);
        await openLayer(q).first().waitFor({ state: 'visible' });
        await untilNoSpinner(q, `${dialog.name} on ${url}`);
        for (const width of dialog.phoneOnly ? [360, PHONE_WIDTH] : WIDTHS) {
          await resizeWithLayers(q, { width, height: HEIGHT });
          const at = `${dialog.name} on ${url} @${width}`;
          if ((await openLayer(q).count()) === 0) {
            found.push(`${at}: closed when the window changed size`);
            break;
          }
          if (width === PHONE_WIDTH)
            await reviewShot(q, `phone/${role}/dialog-${dialog.name.replaceAll(' ', '-')}.png`, { fullPage: false });
          const extra = await overflow(q);
          if (extra > 0) found.push(`${at}: the page is ${extra} px wider than the window`);
          for (const c of [...(await layerOverflow(q)), ...(await coveredControls(q, true))]) found.push(`${at}: ${c}`);
          if (width === PHONE_WIDTH)
            for (const c of [...(await cutBoxes(q)), ...(await untitledTruncations(q))]) found.push(`${at}: ${c}`);
        }
        await q.keyboard.press('Escape');
        await openLayer(q).first().waitFor({ state: 'detached' });
        if (q === p) continue;
        found.push(...q.errors.map((err) => `${dialog.name}: ${err}`));
        if (dialog.own === 'visitor') await q.context().close();
      }
      expect(found).toEqual([]);
      expect(p.errors).toEqual([]);
    },
    // the paying member opens most, some only after a purchase or a quiz answer
    360_000,
  );
});
