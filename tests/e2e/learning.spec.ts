import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LEARNING } from '#shared/learning';
import {
  authId,
  baseURL,
  browserIdle,
  DESKTOP,
  launchBrowser,
  newDrummer,
  newPage,
  PHONE,
  signIn,
  watchChannels,
} from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

async function lessonId(p: Page, slug: string, index: number) {
  return p.evaluate(
    async ([s, i]) =>
      ((await (await fetch(`/api/courses/${s}`)).json()) as { data: { lessons: { id: number }[] } }).data.lessons[
        i as number
      ]!.id,
    [slug, index] as const,
  );
}

describe('courses and lessons', () => {
  it('a free member sees members-only courses locked and a way to subscribe', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'free@demo.test', undefined, '/courses');
    await p
      .getByRole('link', { name: /Groove Foundations/ })
      .getByText('Members')
      .waitFor();
    const id = await lessonId(p, 'groove-foundations', 0);
    await p.goto(`/lessons/${id}`);
    await p.getByText(LEARNING.membersOnly).waitFor();
    expect(await p.locator('iframe').count()).toBe(0);
    expect(await p.getByRole('link', { name: 'See membership plans' }).getAttribute('href')).toBe('/join');
  });

  it('a member saves a lesson to My Practice and completes it; course progress follows', async () => {
    const p = await newPage(browser, DESKTOP);
    await newDrummer(p, { member: true });
    const id = await lessonId(p, 'fills-that-flow', 1);
    await p.goto(`/lessons/${id}`);
    await p.getByRole('heading', { name: 'Triplet Fills' }).waitFor();
    await p.getByRole('button', { name: 'Save' }).click();
    await p.getByRole('button', { name: 'Saved' }).waitFor();
    await p.getByRole('status').filter({ hasText: LEARNING.bookmarkSaved }).waitFor();
    await p.getByRole('button', { name: 'Mark as complete' }).click();
    // the completion may unlock an achievement, whose dialog hides the page from the accessibility tree
    await p.getByRole('button', { name: 'Completed', includeHidden: true }).waitFor();
    await p.goto('/courses/fills-that-flow');
    await p.getByText('1 of 3 lessons complete').waitFor();
    expect(await p.getByRole('button', { name: 'Triplet Fills: completed' }).getAttribute('aria-pressed')).toBe('true');
    await p.goto('/dashboard');
    await p
      .getByRole('region', { name: 'My Practice' })
      .or(p.locator('section[aria-labelledby="my-practice"]'))
      .getByRole('link', { name: /Triplet Fills/ })
      .waitFor();
    // the saved state survives a reload
    await p.goto(`/lessons/${id}`);
    await p.getByRole('button', { name: 'Saved' }).waitFor();
    await p.getByRole('button', { name: 'Saved' }).click();
    await p.getByRole('button', { name: 'Save' }).waitFor();
  });

  it("a lesson completed in one tab shows as completed in the member's other tab", async () => {
    const a = await newPage(browser, DESKTOP);
    await newDrummer(a, { member: true });
    const id = await lessonId(a, 'fills-that-flow', 1);
    const b = await a.context().newPage();
    const channels = watchChannels(b);
    await a.goto(`/lessons/${id}`);
    await b.goto(`/lessons/${id}`);
    await b.getByRole('button', { name: 'Mark as complete' }).waitFor();
    await channels.joined(`user.${await authId(b)}`);
    await a.getByRole('button', { name: 'Mark as complete' }).click();
    // the completion may unlock an achievement, whose dialog hides the page from the accessibility tree
    await b.getByRole('button', { name: 'Completed', includeHidden: true }).waitFor({ timeout: 5000 });
  });

  it("a notation path completed in one tab shows as completed in the member's other tab", async () => {
    const a = await newPage(browser, DESKTOP);
    await newDrummer(a, { member: true });
    const id = await lessonId(a, 'groove-foundations', 2);
    const b = await a.context().newPage();
    const channels = watchChannels(b);
    await a.goto(`/lessons/${id}`);
    await b.goto(`/lessons/${id}`);
    const name = /play-along/;
    await b.getByRole('button', { name }).waitFor();
    const memberId = await authId(b);
    await channels.joined(`user.${memberId}`); // its socket joined the member's private channel
    await a.getByRole('button', { name: /Mark .*play-along complete/ }).click();
    await b.getByRole('button', { name: /play-along: completed/ }).waitFor({ timeout: 5000 });
  });
});

describe('stages', () => {
  it('ticks a checklist step and keeps it', async () => {
    const p = await newPage(browser, PHONE);
    await newDrummer(p, { member: true });
    await p.goto('/stages');
    await p.getByRole('link', { name: /Coordination Conquest/ }).click();
    await p.waitForURL('**/stages/2');
    const box = p.getByRole('checkbox', { name: 'Play a one-bar fill and return to the groove' });
    // the box ticks at once; the reload waits for the server to have answered
    await Promise.all([p.waitForResponse((r) => r.request().method() === 'POST' && r.ok()), box.click()]);
    await expect.poll(() => box.isChecked()).toBe(true);
    await p.reload();
    expect(await p.getByRole('checkbox', { name: 'Play a one-bar fill and return to the groove' }).isChecked()).toBe(
      true,
    );
  });
});

describe('practice journal and timer', () => {
  it('adds rows up to 10, removes while more than one remains, saves into the history', async () => {
    const p = await newPage(browser, DESKTOP);
    // a member of this test's own, whose journal only this test writes
    await newDrummer(p, { member: true });
    await p.goto('/journal');
    expect(await p.getByRole('button', { name: /Remove exercise/ }).count()).toBe(0);
    for (let i = 0; i < 9; i++) await p.getByRole('button', { name: 'Add exercise' }).click();
    expect(await p.getByLabel('What did you practise?').count()).toBe(10);
    expect(await p.getByRole('button', { name: 'Add exercise' }).count()).toBe(0);
    for (let i = 0; i < 8; i++) await p.getByRole('button', { name: 'Remove exercise 1', exact: true }).click();
    expect(await p.getByLabel('What did you practise?').count()).toBe(2);
    await p.getByLabel('What did you practise?').nth(0).fill('Paradiddles');
    await p.getByLabel('Starting tempo').nth(0).fill('8a0');
    expect(await p.getByLabel('Starting tempo').nth(0).inputValue()).toBe('80');
    await p.getByLabel('Ending tempo').nth(0).fill('96');
    await p.getByLabel('What did you practise?').nth(1).fill('Doubles');
    const hidden = JSON.parse((await p.locator('input[type="hidden"][name="exercises"]').inputValue()) as string);
    expect(hidden).toEqual([
      { practicedToday: 'Paradiddles', startingTempo: '80', endingTempo: '96' },
      { practicedToday: 'Doubles', startingTempo: '', endingTempo: '' },
    ]);
    await p.getByRole('button', { name: 'Save entry' }).click();
    await p.getByRole('cell', { name: 'Paradiddles' }).waitFor();
    await p.getByRole('cell', { name: '96 bpm' }).waitFor();
  });

  it('the timer counts, pauses, and logs the minutes rounded up, following the redirect', async () => {
    const p = await newPage(browser, PHONE);
    // a member of this test's own, whose journal only this test writes
    await newDrummer(p, { member: true });
    await p.goto('/journal');
    const timer = p.getByRole('timer');
    expect(await timer.textContent()).toBe('00:00:00');
    expect(await p.getByRole('button', { name: 'Log practice time' }).count()).toBe(0);
    await p.getByRole('button', { name: 'Start timer' }).click();
    await expect.poll(() => timer.textContent(), { timeout: 5000 }).toBe('00:00:01');
    expect(await p.getByRole('button', { name: 'Log practice time' }).count()).toBe(0);
    await p.getByRole('button', { name: 'Pause timer' }).click();
    await p.getByRole('button', { name: 'Log practice time' }).click();
    await p.waitForURL('**/journal?logged=1');
    await p.getByText('Logged 1 minute of practice.').waitFor();
  });
});

describe('practice at a glance', () => {
  it('shows the streak, the weekly goal and tempo over time, and the goal can be changed', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/');
    const email = `stats-${Date.now()}@test.test`;
    await p.evaluate(async (address) => {
      const call = async (url: string, body: unknown) => {
        const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': token },
          body: JSON.stringify(body),
        });
        const rotated = res.headers.get('x-csrf-token');
        if (rotated) document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content = rotated;
      };
      await call('/register', {
        name: 'Stat Drummer',
        email: address,
        email_confirmation: address,
        password: 'stats-drummer-1',
      });
      await call('/journal/log-time-practiced', { minutes_practiced: 25 });
      await call('/journal', {
        exercises: JSON.stringify([{ practicedToday: 'Paradiddles', startingTempo: '80', endingTempo: '92' }]),
      });
    }, email);
    await p.goto('/dashboard');
    await expect.poll(() => p.getByTestId('current-streak').textContent()).toBe('1 day');
    expect(await p.getByTestId('goal-progress').textContent()).toBe('1/4 days');
    await p.getByRole('img', { name: 'Paradiddles: ending tempo from 92 to 92 bpm over 1 entries' }).waitFor();
    await p.getByRole('img', { name: /Minutes practised per day over the last 4 weeks: 25 minutes/ }).waitFor();
    await p.getByRole('button', { name: 'Change goal' }).click();
    await p.getByLabel('Days a week').selectOption('2');
    // a goal out of range is marked on its field, which takes focus, and the summary names it
    const minutes = p.getByLabel('Minutes a day');
    await minutes.fill('1');
    await p.getByRole('button', { name: 'Save goal' }).click();
    await p.getByText('Choose 5 to 600 minutes a day.').waitFor();
    expect(await minutes.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => minutes.evaluate((el) => el === document.activeElement)).toBe(true);
    await p.getByRole('alert').filter({ hasText: 'Minutes a day' }).waitFor();
    await minutes.fill('30');
    await p.getByRole('button', { name: 'Save goal' }).click();
    await expect.poll(() => p.getByTestId('goal-progress').textContent()).toBe('0/2 days');
  });
});

describe('time zone', () => {
  const TZ_POST_MS = 10_000;
  it('a signed-in browser posts its time zone once a day (one-day cookie)', async () => {
    const context = await browser.newContext({ baseURL: baseURL(), timezoneId: 'Europe/Lisbon' });
    const p = await context.newPage();
    const posted: string[] = [];
    p.on('request', (r) => {
      if (r.url().endsWith('/dashboard/update-timezone')) posted.push(r.postData() ?? '');
    });
    // a member: the thread page below is the community's
    await newDrummer(p, { member: true });
    await p.goto('/dashboard');
    // the zone is worked out in a module worker after the page has rendered: on a loaded machine that
    // took more than expect.poll's default second (a CI run on two busy cores)
    await expect.poll(() => posted.length, { timeout: TZ_POST_MS }).toBe(1);
    expect(JSON.parse(posted[0]!)).toEqual({ timezone: 'Europe/Lisbon' });
    const cookie = (await context.cookies()).find((c) => c.name === 'bb_tz_sent')!;
    expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(86_000);
    await p.goto('/courses');
    await p.getByRole('heading', { name: 'Courses' }).waitFor();
    // the report runs once the page is idle (lib/idle.ts): let it have its chance before checking, and
    // before the cookie it reads is cleared below
    await browserIdle(p);
    expect(posted.length).toBe(1);
    // the next day (no cookie): a worker works the zone out, and neither the thread page nor the lesson
    // page makes a date formatter on the main thread as it loads (the first one loads the locale data,
    // a visible cost on a phone's CPU)
    await context.clearCookies({ name: 'bb_tz_sent' });
    await p.addInitScript(() => {
      (window as unknown as { formattersMade: number }).formattersMade = 0;
      const Original = Intl.DateTimeFormat;
      const counting = function (this: unknown, ...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        (window as unknown as { formattersMade: number }).formattersMade++;
        return new Original(...args);
      } as unknown as typeof Intl.DateTimeFormat;
      Object.assign(counting, Original);
      Intl.DateTimeFormat = counting;
    });
    await p.goto('/forums/topic/1');
    await p.locator('main').getByText('Hi from Lisbon').first().waitFor();
    await expect.poll(() => posted.length, { timeout: TZ_POST_MS }).toBe(2);
    expect(JSON.parse(posted[1]!)).toEqual({ timezone: 'Europe/Lisbon' });
    expect(await p.evaluate(() => (window as unknown as { formattersMade: number }).formattersMade)).toBe(0);
    await p.goto('/lessons/1');
    await p.getByRole('heading', { name: 'Setting Up Your Kit' }).waitFor();
    await p.waitForLoadState('networkidle');
    expect(await p.evaluate(() => (window as unknown as { formattersMade: number }).formattersMade)).toBe(0);
    await context.close();
  });
});
