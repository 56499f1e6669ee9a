import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { LIVE_MESSAGES } from '#shared/live';
import { RATE_LIMITS } from '#server/lib/rate-limits';
import { DESKTOP, launchBrowser, newDrummer, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

/** A JSON call from the page's own session, with its CSRF token. */
async function call(p: Page, url: string, data: Record<string, unknown>) {
  const token = await p.locator('meta[name="csrf-token"]').getAttribute('content');
  const res = await p.request.post(url, { data, headers: { 'X-CSRF-TOKEN': token ?? '', Accept: 'application/json' } });
  if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
  return res.json();
}

/** Post a chat message through the API, waiting out the per-member limit when it answers 429. */
async function chatAs(p: Page, showId: number, body: string) {
  const token = await p.locator('meta[name="csrf-token"]').getAttribute('content');
  for (;;) {
    const res = await p.request.post('/live-chat/messages', {
      data: { body, showId },
      headers: { 'X-CSRF-TOKEN': token ?? '', Accept: 'application/json' },
    });
    if (res.status() !== 429) {
      expect(res.status()).toBe(200);
      return;
    }
    // the limit is a window of time: the answer names how long until it lets the next message through
    await p.waitForTimeout(Number(res.headers()['retry-after'] ?? '2') * 1000);
  }
}

/** The admin schedules a show of its own and goes live (which opens the chat). */
async function liveShow(admin: Page, title: string): Promise<number> {
  const { data } = await call(admin, '/api/live/shows', {
    title,
    starts_at: new Date().toISOString(),
    video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  });
  await call(admin, `/api/live/shows/${data.id}/status`, { status: 'live' });
  return data.id;
}

const messages = (p: Page) => p.getByTestId('chat-message');
const message = (p: Page, text: string) =>
  messages(p).filter({ has: p.getByTestId('chat-body').getByText(text, { exact: true }) });
const input = (p: Page) => p.getByPlaceholder(COMMUNITY_MESSAGES.chatPlaceholder);

it('two members chat on one show: messages, hearts and the admin topic cross between browsers', async () => {
  const admin = await newPage(browser, DESKTOP);
  await signIn(admin, 'admin@demo.test', undefined, '/live');
  const id = await liveShow(admin, `Chat test ${Date.now()}`);
  const member = await newPage(browser, PHONE);
  await newDrummer(member, { member: true });
  await member.goto(`/live/${id}`);
  await admin.goto(`/live/${id}`);
  for (const p of [admin, member]) {
    await p.getByText('No messages yet. Say hello!').waitFor();
    await p.getByRole('region', { name: 'Live chat' }).getByText('Live', { exact: true }).waitFor();
  }
  // the show's player, with the host's captions on
  await admin.waitForFunction(
    () =>
      document.querySelector('iframe')?.getAttribute('src') ===
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?cc_load_policy=1&cc_lang_pref=en',
  );

  // an empty message is not sent (the next one is the only message posted and shown)
  const posted: string[] = [];
  member.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/live-chat/messages') posted.push(r.postData() ?? '');
  });
  await input(member).fill('   ');
  await input(member).press('Enter');

  // the member's message shows at once, then in the admin's browser
  await input(member).fill('Hello from the member <b>not bold</b>');
  await input(member).press('Enter');
  await message(member, 'Hello from the member <b>not bold</b>').waitFor();
  expect(await input(member).inputValue()).toBe('');
  await message(admin, 'Hello from the member <b>not bold</b>').waitFor();
  expect(posted).toHaveLength(1);
  expect(await messages(member).count()).toBe(1);
  // its temporary id was replaced by the server's
  await expect
    .poll(async () => Number(await message(member, 'Hello from the member <b>not bold</b>').getAttribute('data-id')))
    .toBeGreaterThan(0);
  expect(await admin.locator('b', { hasText: 'not bold' }).count()).toBe(0);

  // the admin's reply carries the shield badge in the member's browser
  await input(admin).fill('Welcome to the clinic!');
  await input(admin).press('Enter');
  const welcome = message(member, 'Welcome to the clinic!');
  await welcome.waitFor();
  await welcome.getByRole('img', { name: 'Admin' }).waitFor();
  expect(
    await message(member, 'Hello from the member <b>not bold</b>').getByRole('img', { name: 'Admin' }).count(),
  ).toBe(0);
  expect(await messages(member).count()).toBe(2);

  // a heart in one browser updates the count in the other, both ways
  await welcome.getByTestId('chat-heart').click();
  await expect.poll(() => welcome.getByTestId('chat-hearts').textContent()).toBe('1');
  expect(await welcome.getByTestId('chat-heart').getAttribute('aria-pressed')).toBe('true');
  const adminWelcome = message(admin, 'Welcome to the clinic!');
  await expect.poll(() => adminWelcome.getByTestId('chat-hearts').textContent()).toBe('1');
  await adminWelcome.getByTestId('chat-heart').click();
  await expect.poll(() => welcome.getByTestId('chat-hearts').textContent()).toBe('2');
  await welcome.getByTestId('chat-heart').click();
  await expect.poll(() => adminWelcome.getByTestId('chat-hearts').textContent()).toBe('1');
  await expect.poll(() => welcome.getByTestId('chat-hearts').textContent()).toBe('1');

  // the admin stars the member's message: it becomes the member's pinned topic
  expect(await member.getByRole('button', { name: 'Set as topic' }).count()).toBe(0);
  await message(admin, 'Hello from the member <b>not bold</b>').getByRole('button', { name: 'Set as topic' }).click();
  await expect
    .poll(() => member.getByTestId('chat-topic').textContent())
    .toContain('Hello from the member <b>not bold</b>');
  await admin.getByRole('button', { name: 'Clear topic' }).click();
  await member.getByTestId('chat-topic').waitFor({ state: 'detached' });

  // the admin closes the chat: the member's input goes, with the closed message
  await admin.getByRole('button', { name: 'Close chat' }).click();
  await member.getByText(COMMUNITY_MESSAGES.chatClosed).waitFor();
  expect(await input(member).count()).toBe(0);
  await admin.getByRole('button', { name: 'Open chat' }).click();
  await input(member).waitFor();

  // ending the show closes the chat
  await admin.getByRole('button', { name: 'End show' }).click();
  await member.getByText(COMMUNITY_MESSAGES.chatClosed).waitFor();
  await admin.getByText('Ended', { exact: true }).first().waitFor();

  expect(admin.errors).toEqual([]);
  expect(member.errors).toEqual([]);
});

it('a refused message is taken back and the first server error for body is shown', async () => {
  const admin = await newPage(browser, DESKTOP);
  await signIn(admin, 'admin@demo.test', undefined, '/live');
  const id = await liveShow(admin, `Flood test ${Date.now()}`);
  const member = await newPage(browser, DESKTOP);
  await newDrummer(member, { member: true });
  await member.goto(`/live/${id}`);
  await input(member).waitFor();
  // a burst of 5 is allowed; the 6th is refused (429, errors.body)
  for (let i = 1; i <= 6; i++) {
    await input(member).fill(`Flood ${i}`);
    await input(member).press('Enter');
  }
  await member.getByRole('alert').getByText('Please correct this field: Message.').waitFor();
  const tooFast = member.getByText(LIVE_MESSAGES.chatTooFast);
  expect(await tooFast.getAttribute('id')).toBe(await input(member).getAttribute('aria-describedby'));
  await expect.poll(() => messages(member).count()).toBe(5);
  expect(await message(member, 'Flood 6').count()).toBe(0);
  expect(await input(member).inputValue()).toBe('Flood 6');
  // the admin's chat still works during the member's flood
  await admin.goto(`/live/${id}`);
  await input(admin).fill('Still on air');
  await input(admin).press('Enter');
  await message(member, 'Still on air').waitFor();
  expect(member.errors).toEqual([]);
});

it("'Load older...' pages back through a long chat", async () => {
  const admin = await newPage(browser, DESKTOP);
  await signIn(admin, 'admin@demo.test', undefined, '/live');
  const id = await liveShow(admin, `Long chat ${Date.now()}`);
  // each member may post a burst of messages before the chat holds them back: enough members that the
  // messages fit in their bursts, posting in turn (chatAs waits out a refusal all the same)
  const total = COMMUNITY.chatPageSize + 6;
  const members = await Promise.all(
    Array.from({ length: Math.ceil(total / RATE_LIMITS.chatPerUser.points) - 1 }, async () => {
      const p = await newPage(browser, DESKTOP);
      await newDrummer(p, { member: true });
      // the page's CSRF token as the new member's (chatAs reads it from the page)
      await p.goto('/live');
      return p;
    }),
  );
  const member = members[0]!;
  const authors = [admin, ...members];
  for (let n = 1; n <= total; n++) await chatAs(authors[(n - 1) % authors.length]!, id, `Message ${n}`);
  await member.goto(`/live/${id}`);
  await message(member, `Message ${total}`).waitFor();
  expect(await messages(member).count()).toBe(COMMUNITY.chatPageSize);
  expect(await message(member, 'Message 1').count()).toBe(0);
  // the newest message is in view (auto-scroll)
  await expect.poll(() => message(member, `Message ${total}`).isVisible()).toBe(true);
  await member.getByRole('button', { name: COMMUNITY_MESSAGES.loadOlder }).click();
  await message(member, 'Message 1').waitFor({ state: 'attached' });
  expect(await messages(member).count()).toBe(total);
  expect(await member.getByRole('button', { name: COMMUNITY_MESSAGES.loadOlder }).count()).toBe(0);
  const bodies = await member.getByTestId('chat-body').allTextContents();
  expect(bodies.slice(0, 3)).toEqual(['Message 1', 'Message 2', 'Message 3']);
  expect(bodies.at(-1)).toBe(`Message ${total}`);
}, 120_000);

it('the show list: status badges, and admins schedule a show; a free member is told to join', async () => {
  const admin = await newPage(browser, DESKTOP);
  await signIn(admin, 'admin@demo.test', undefined, '/live');
  await admin.getByRole('region', { name: 'Live now' }).getByText('Sunday Groove Clinic').waitFor();
  await admin.getByRole('region', { name: 'Past shows' }).getByText('Ended').first().waitFor();
  await admin.getByRole('button', { name: 'Schedule a show' }).click();
  const form = admin.getByRole('form', { name: 'Schedule a show' });
  await form.getByLabel('Title').fill('Brushes for beginners');
  await form.getByLabel('Starts at').fill('2031-05-04T19:30');
  await form.getByLabel('Video address').fill('https://evil.example/video');
  await form.getByRole('button', { name: 'Schedule' }).click();
  await form.getByText('The video must be an https embed address', { exact: false }).waitFor();
  await form.getByLabel('Video address').fill('https://vimeo.com/76979871');
  await form.getByRole('button', { name: 'Schedule' }).click();
  const card = admin.getByRole('region', { name: 'Upcoming' }).getByRole('link', { name: /Brushes for beginners/ });
  await card.waitFor();
  expect(await card.getByTestId('show-status').textContent()).toBe('Upcoming');
  // the date in the viewer's locale and time zone
  expect(await card.locator('time').textContent()).toContain('2031');

  const free = await newPage(browser, PHONE);
  await signIn(free, 'free@demo.test', undefined, '/live');
  await free.getByText(COMMUNITY_MESSAGES.communityMembersOnly).waitFor();
  expect(await free.getByRole('link', { name: 'Become a member' }).getAttribute('href')).toBe('/join');
  expect(admin.errors).toEqual([]);
});

it('a member asks to be reminded of a show that has not started; the choice stays after a reload', async () => {
  const admin = await newPage(browser, DESKTOP);
  await signIn(admin, 'admin@demo.test', undefined, '/live');
  const title = `Reminder test: linear fills, ghost notes and a long question-and-answer session ${Date.now()}`;
  const { data } = await call(admin, '/api/live/shows', {
    title,
    description: 'Bring your sticks and your questions.',
    starts_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    video_url: '',
  });
  for (const viewport of [PHONE, DESKTOP]) {
    const member = await newPage(browser, viewport);
    await newDrummer(member, { member: true });
    await member.goto(`/live/${data.id}`);
    const button = member.getByRole('button', { name: /Remind me|Reminder on/ });
    await button.click();
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => button.textContent()).toContain('Reminder on');
    await member.reload();
    await expect
      .poll(() => member.getByRole('button', { name: 'Reminder on' }).getAttribute('aria-pressed'))
      .toBe('true');
    await reviewShot(member, `live/reminder-${viewport.width}.png`);
    expect(member.errors).toEqual([]);
    await member.close();
  }
  await admin.close();
});
