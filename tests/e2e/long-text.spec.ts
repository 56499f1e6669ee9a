import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, registerInPage, signIn } from '#test/e2e';

// Real people write long things: a 101-character topic title, a link pasted into a show's description,
// a song named at length, a double-barrelled name, a word of 200 letters, right-to-left text. Every page
// holds them at a phone's and a desktop's width: nothing is wider than the window.
const WIDTHS = [360, 390, 768, 1280];
const stamp = Date.now();
const LONG_NAME = `Maximiliana Featherstonehaugh-Okonkwo-Vandersteen ${stamp}`;
const LONG_WORD = `Supercalifragilisticexpialidocious${'x'.repeat(166)}`;
const LONG_URL = `https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG&si=${'a'.repeat(80)}&feature=shared`;
const TOPIC_TITLE =
  'Help: my left-foot heel-toe technique keeps collapsing above 180 bpm on double-bass metal grooves!!'.padEnd(
    101,
    '!',
  );
const RTL = 'مرحبا بالجميع، أنا أتعلم الطبول منذ سنة';

let browser: Browser;
let member: Page;
const made: { topic: string; show: string; song: string; profile: string } = {
  topic: '',
  show: '',
  song: '',
  profile: '',
};

async function call<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': token },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    { method, url, body },
  );
}

beforeAll(async () => {
  browser = await launchBrowser();
  member = await newPage(browser);
  expect(
    await registerInPage(member, { name: LONG_NAME, email: `long-${stamp}@test.test`, password: 'drumsdemo1' }),
  ).toBe(200);
  const me = await call<{ user: { id: number; profileUrl: string | null } }>(member, 'GET', '/api/me');
  const admin = await newPage(browser);
  await signIn(admin, 'admin@demo.test', undefined, '/admin');
  await call(admin, 'POST', `/api/admin/members/${me.user.id}/entitlements`, { kind: 'membership' });
  const show = await call<{ data: { id: number } }>(admin, 'POST', '/api/admin/live-shows', {
    title: `${TOPIC_TITLE} (live Q&A)`,
    description: `Bring your questions! Playlist: ${LONG_URL} ${LONG_WORD} ${RTL}`,
    starts_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  made.show = `/live/${show.data.id}`;
  await admin.close();
  await member.reload();
  const forums = await call<{ data: { slug: string }[] } | { categories: { slug: string }[] }>(
    member,
    'GET',
    '/api/forums',
  );
  const slug = 'data' in forums ? forums.data[0]!.slug : forums.categories[0]!.slug;
  const topic = await call<{ data?: { id: number }; id?: number; url?: string }>(
    member,
    'POST',
    `/api/forums/${slug}/topics`,
    { title: TOPIC_TITLE, body: `${LONG_WORD}\n\n${LONG_URL}\n\n${RTL}` },
  );
  made.topic = topic.url ?? `/forums/topic/${topic.data?.id ?? topic.id}`;
  const song = await call<{ id: string }>(member, 'POST', '/songmapper', {
    song: {
      title: `${TOPIC_TITLE.slice(0, 70)} — extended live version, long drum solo`,
      bpm: '182',
      expandFields: false,
      sections: [
        {
          title: LONG_WORD.slice(0, 60),
          otherTitle: true,
          measures: '16',
          division: '16th',
          otherDivision: false,
          surface: LONG_WORD.slice(0, 80),
          snare: '',
        },
      ],
    },
    id: null,
  });
  made.song = `/songmapper/${song.id}`;
  made.profile = (await call<{ user: { profileUrl: string } }>(member, 'GET', '/api/me')).user.profileUrl;
});
afterAll(async () => browser.close());

const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('long text at every width', () => {
  const pages = () => [
    '/forums',
    made.topic,
    '/live',
    made.show,
    made.song,
    made.profile,
    '/dashboard',
    '/account/profile',
    '/notifications',
  ];
  for (const width of WIDTHS) {
    it(`${width} px: no page is wider than the window`, async () => {
      await member.setViewportSize({ width, height: 900 });
      const wide: string[] = [];
      for (const url of pages()) {
        await member.goto(url);
        await member.locator('#main h1:visible').first().waitFor();
        await member.waitForLoadState('networkidle');
        const extra = await overflow(member);
        if (extra > 0) wide.push(`${url}: ${extra} px too wide`);
      }
      expect(wide).toEqual([]);
    });
  }
});
