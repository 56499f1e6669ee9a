import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { DEMO_PASSWORD, DESKTOP, launchBrowser, newDrummer, newPage, PHONE } from '#test/e2e';

/*
 * The main flows by keyboard alone (docs/product/accessibility.md): Tab, Shift+Tab, Enter, Space,
 * arrows, Escape and typing; no pointer. Each flow that changes data works on data it made itself
 * (a new member, a new topic, a new show, a new course).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const stamp = Date.now().toString(36);
let seq = 0;
const uniqueEmail = (what: string) => `kbd-${what}-${stamp}-${++seq}@keyboard.test`;

const hasFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has focus; fails when it is not reached. */
async function tabTo(p: Page, target: Locator, { back = false, max = 80 } = {}) {
  await target.waitFor();
  for (let i = 0; i < max; i++) {
    if (await hasFocus(target)) return;
    await p.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

/** Tabs to a text field, clears it and types `text`. */
async function typeInto(p: Page, field: Locator, text: string) {
  await tabTo(p, field);
  await p.keyboard.press('ControlOrMeta+A');
  await p.keyboard.press('Backspace');
  await p.keyboard.type(text);
}

/** The announced summary of a form (its role="alert" line). */
const summary = (scope: Page | Locator) => scope.getByRole('alert').filter({ hasText: /^Please correct/ });

/** Is the field marked wrong, with a message tied to it? */
async function expectMarked(p: Page, field: Locator, message?: string | RegExp) {
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  const described = await field.getAttribute('aria-describedby');
  expect(described).toBeTruthy();
  const text = (await p.locator(`[id="${described}"]`).textContent()) ?? '';
  if (message) expect(text).toMatch(message);
  else expect(text.length).toBeGreaterThan(0);
}

/** Sign in through /login by keyboard. */
async function keyboardSignIn(p: Page, email: string, to: string, password = DEMO_PASSWORD) {
  await p.goto(`/login?to=${encodeURIComponent(to)}`);
  await typeInto(p, p.getByLabel('Email'), email);
  await typeInto(p, p.getByLabel('Password', { exact: true }), password);
  await p.keyboard.press('Enter');
  await p.waitForURL((url) => url.pathname !== '/login');
}

/**
 * A member of the test's own, made in a browser of its own; the test's page then signs in as them by
 * keyboard. What the test posts is theirs, not a demo account's.
 */
async function ownMember() {
  const maker = await newPage(browser, DESKTOP);
  const drummer = await newDrummer(maker, { member: true });
  await maker.context().close();
  return drummer;
}

/** each page's CSRF token, as its last answer renewed it (signing in renews it) */
const tokens = new WeakMap<Page, string>();

/** A JSON call from the page's own session, with its CSRF token. */
async function call<T>(p: Page, url: string, data?: Record<string, unknown>, method = 'POST'): Promise<T> {
  const token = tokens.get(p) ?? (await p.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '';
  const res = await p.request.fetch(url, {
    method,
    ...(data ? { data } : {}),
    headers: { 'X-CSRF-TOKEN': token, Accept: 'application/json' },
  });
  if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
  tokens.set(p, res.headers()['x-csrf-token'] ?? token);
  return (await res.json()) as T;
}

describe('by keyboard alone', () => {
  it('sign-in: a wrong password marks the field and keeps focus in the form; signed in, focus is on the page’s heading', async () => {
    const p = await newPage(browser, PHONE);
    await p.goto('/login?to=%2Fforums');
    const email = p.getByLabel('Email');
    await typeInto(p, email, 'member@demo.test');
    await typeInto(p, p.getByLabel('Password', { exact: true }), 'not-the-password');
    await p.keyboard.press('Enter');
    await summary(p).waitFor();
    await expect.poll(() => hasFocus(email)).toBe(true);
    await expectMarked(p, email);
    // corrected: the next page starts at its heading
    await typeInto(p, p.getByLabel('Password', { exact: true }), DEMO_PASSWORD);
    await p.keyboard.press('Enter');
    await p.waitForURL('**/forums');
    const h1 = p.locator('#main h1');
    await expect.poll(() => hasFocus(h1)).toBe(true);
    // the phone's menu drawer gives focus back to its button
    const menu = p.getByRole('button', { name: 'Open menu' });
    await tabTo(p, menu, { back: true });
    await p.keyboard.press('Enter');
    await p.getByRole('dialog', { name: 'Menu' }).waitFor();
    await p.keyboard.press('Escape');
    await p.getByRole('dialog', { name: 'Menu' }).waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(menu)).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('join: every missing field is marked at once; the card’s 3-D Secure step by keyboard; Escape leaves focus on the card', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/join');
    const form = p.locator('#checkout-form');
    const submit = form.getByRole('button', { name: /Start my 7-day free trial/ });
    await tabTo(p, submit);
    await p.keyboard.press('Enter');
    const name = form.getByLabel('Your name');
    await summary(form).waitFor();
    expect(await summary(form).textContent()).toMatch(/^Please correct these \d fields: Your name, Email, Password/);
    await expect.poll(() => hasFocus(name)).toBe(true);
    await expectMarked(p, name, COMMERCE_MESSAGES.nameRequired);
    await expectMarked(p, form.getByLabel('Password', { exact: true }), COMMERCE_MESSAGES.passwordRequired);
    await expectMarked(p, form.getByLabel(/I accept the/), COMMERCE_MESSAGES.termsRequired);

    const email = uniqueEmail('join');
    await typeInto(p, name, 'Keyboard Drummer');
    await typeInto(p, form.getByLabel('Email', { exact: true }), email);
    await typeInto(p, form.getByLabel('Confirm email'), email);
    await typeInto(p, form.getByLabel('Password', { exact: true }), 'sticks-and-skins');
    // an edited field is no longer marked
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    await typeInto(p, form.getByLabel('Card holder name'), 'Keyboard Drummer');
    const number = form.getByLabel('Card number');
    await typeInto(p, number, SANDBOX_CARDS.needsAuthentication);
    await typeInto(p, form.getByLabel(/Expiry/), `12${(new Date().getUTCFullYear() + 2) % 100}`);
    await typeInto(p, form.getByLabel('CVC'), '123');
    await tabTo(p, form.getByLabel(/I accept the/));
    await p.keyboard.press('Space');
    await tabTo(p, submit);
    await p.keyboard.press('Enter');

    // the bank's step: Escape refuses it; the refusal is under the card, with focus on the card
    const challenge = p.getByRole('dialog', { name: 'Sandbox 3-D Secure' });
    await challenge.waitFor();
    await p.keyboard.press('Escape');
    await challenge.waitFor({ state: 'detached' });
    await form.getByTestId('card-error').waitFor();
    await expect.poll(() => hasFocus(number)).toBe(true);
    await expectMarked(p, number);

    await tabTo(p, submit);
    await p.keyboard.press('Enter');
    await challenge.waitFor();
    await tabTo(p, challenge.getByRole('button', { name: 'Complete authentication' }));
    await p.keyboard.press('Enter');
    await p.waitForURL(/\/order\?order=\d+/);
    await p.getByRole('heading', { name: "You're in!" }).waitFor();
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('a reply in a forum topic', async () => {
    const p = await newPage(browser, PHONE);
    const me = await ownMember();
    await keyboardSignIn(p, me.email, '/forums', me.password);
    const title = `Keyboard topic ${stamp}`;
    const { topic } = await call<{ topic: { url: string } }>(p, '/api/forums/gear/topics', {
      title,
      body: 'Which pedal do you use?',
    });
    await p.goto(topic.url);
    const reply = p.getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder).first();
    await tabTo(p, reply);
    await p.keyboard.type(`A double pedal, typed ${stamp}.`);
    await tabTo(p, p.getByRole('button', { name: 'Post', exact: true }).first());
    await p.keyboard.press('Enter');
    await p.getByText(`A double pedal, typed ${stamp}.`).waitFor();
    // a reply box opened from a post's Reply and closed with Escape gives focus back to that Reply
    const posted = p.locator('article[data-post-id]').filter({ hasText: `A double pedal, typed ${stamp}.` });
    const replyButton = posted.getByRole('button', { name: 'Reply', exact: true });
    await tabTo(p, replyButton);
    await p.keyboard.press('Enter');
    await p.getByRole('textbox', { name: /^Reply to / }).waitFor();
    await expect.poll(() => p.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await p.keyboard.press('Escape');
    await p.getByRole('textbox', { name: /^Reply to / }).waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(replyButton)).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('a live show’s chat message', async () => {
    const admin = await newPage(browser, DESKTOP);
    await keyboardSignIn(admin, 'admin@demo.test', '/live');
    const { data } = await call<{ data: { id: number } }>(admin, '/api/live/shows', {
      title: `Keyboard show ${stamp}`,
      starts_at: new Date().toISOString(),
      video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    });
    await call(admin, `/api/live/shows/${data.id}/status`, { status: 'live' });
    await admin.context().close();

    const p = await newPage(browser, PHONE);
    const me = await ownMember();
    await keyboardSignIn(p, me.email, `/live/${data.id}`, me.password);
    const input = p.getByPlaceholder(COMMUNITY_MESSAGES.chatPlaceholder);
    await tabTo(p, input);
    await p.keyboard.type('Hello by keyboard');
    await p.keyboard.press('Enter');
    await p.getByTestId('chat-body').getByText('Hello by keyboard', { exact: true }).waitFor();
    // focus stays in the message box for the next message
    expect(await hasFocus(input)).toBe(true);
    expect(await input.inputValue()).toBe('');
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('the metronome: start and stop, the tempo by arrows', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/metronome', { waitUntil: 'networkidle' });
    const start = p.getByRole('button', { name: 'Start', exact: true });
    await tabTo(p, start);
    await p.keyboard.press('Enter');
    const stop = p.getByRole('button', { name: 'Stop', exact: true });
    await stop.waitFor();
    await p.keyboard.press('Enter');
    await start.waitFor();
    const tempo = p.getByRole('spinbutton', { name: 'BPM' });
    await tabTo(p, tempo);
    const before = Number(await tempo.getAttribute('aria-valuenow'));
    await p.keyboard.press('ArrowUp');
    await p.keyboard.press('ArrowUp');
    await expect.poll(() => tempo.getAttribute('aria-valuenow')).toBe(String(before + 2));
    await p.keyboard.press('ArrowDown');
    await expect.poll(() => tempo.getAttribute('aria-valuenow')).toBe(String(before + 1));
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('the practice timer says start, pause and the logged minutes', async () => {
    const p = await newPage(browser, PHONE);
    // a new member: logging time adds to their journal
    await p.goto('/login');
    const email = uniqueEmail('timer');
    await call(p, '/register', { name: 'Timer Drummer', email, email_confirmation: email, password: DEMO_PASSWORD });
    await p.goto('/journal');
    const said = p.getByTestId('timer-announcement');
    await said.waitFor({ state: 'attached' });
    expect(await said.getAttribute('role')).toBe('status');
    expect(await said.textContent()).toBe('');
    await tabTo(p, p.getByRole('button', { name: 'Start timer' }));
    await p.keyboard.press('Enter');
    await expect.poll(() => said.textContent()).toBe('Timer started.');
    await p.getByRole('button', { name: 'Pause timer' }).waitFor();
    await p.keyboard.press('Enter');
    await expect.poll(() => said.textContent()).toMatch(/^Timer paused at \d+ seconds?\.$/);
    await tabTo(p, p.getByRole('button', { name: 'Log practice time' }));
    await p.keyboard.press('Enter');
    await p.waitForURL('**/journal?logged=1');
    const logged = p.getByRole('status').filter({ hasText: 'Logged 1 minute of practice.' });
    await expect.poll(() => hasFocus(logged)).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('a quiz answer', async () => {
    const p = await newPage(browser, PHONE);
    const me = await ownMember();
    await keyboardSignIn(p, me.email, '/courses/groove-foundations', me.password);
    await tabTo(p, p.getByRole('link', { name: /Playing to a Click/ }));
    await p.keyboard.press('Enter');
    const quiz = p.locator('section[aria-labelledby="quiz"]');
    const said = quiz.getByTestId('quiz-announcement');
    await said.waitFor({ state: 'attached' });
    await tabTo(p, quiz.getByRole('button', { name: 'Beats 2 and 4' }));
    await p.keyboard.press('Enter');
    await expect.poll(() => said.textContent()).toBe('Answer 1 recorded. Question 2 of 3.');
    expect(p.errors).toEqual([]);
    await p.context().close();
  });
});

describe('by keyboard alone: the account’s own changes', () => {
  it('cancelling a membership: each step takes focus, a missing reason is marked, the result is focused', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/login');
    const email = uniqueEmail('cancel');
    await call(p, '/register', { name: 'Cancel Drummer', email, email_confirmation: email, password: DEMO_PASSWORD });
    const { clientSecret } = await call<{ clientSecret: string }>(p, '/order/stripe-client-secret', undefined, 'GET');
    const pm = await call<{ payment_method: string }>(p, '/sandbox/setup-intents/confirm', {
      client_secret: clientSecret,
      number: SANDBOX_CARDS.succeeds,
      exp_month: 12,
      exp_year: 2040,
      cvc: '123',
      name: 'Cancel Drummer',
    });
    await call(p, '/order/stripe', { checkout: 'academy', plan: 'monthly', stripeToken: pm.payment_method });
    await p.goto('/account/billing');
    await p.getByTestId('billing-plan').waitFor();

    await tabTo(p, p.getByRole('button', { name: 'Cancel or pause membership' }));
    await p.keyboard.press('Enter');
    const dialog = p.getByRole('dialog');
    const step = (n: number) => dialog.getByTestId(`cancel-step-${n}`);
    const label = dialog.getByTestId('cancel-step');
    const cont = dialog.getByRole('button', { name: 'Continue', exact: true });
    await step(1).waitFor();
    await tabTo(p, cont);
    await p.keyboard.press('Enter');
    await step(2).waitFor();
    await expect.poll(() => hasFocus(label)).toBe(true);
    // no reason chosen: the reasons are marked and the first takes focus
    await tabTo(p, cont);
    await p.keyboard.press('Enter');
    await summary(dialog).waitFor();
    const reasons = step(2).getByRole('group', { name: 'Why do you want to cancel?' });
    await expectMarked(p, reasons, COMMERCE_MESSAGES.reasonRequired);
    const first = dialog.getByRole('radio').first();
    await expect.poll(() => hasFocus(first)).toBe(true);
    await p.keyboard.press('Space');
    expect(await first.isChecked()).toBe(true);
    await tabTo(p, cont);
    await p.keyboard.press('Enter');
    await step(3).waitFor();
    await expect.poll(() => hasFocus(label)).toBe(true);
    // a radio group is one Tab stop: the arrows move through its choices
    await tabTo(p, step(3).getByRole('radio').first());
    const cancelChoice = step(3).getByTestId('choice-cancel').locator('input');
    for (let i = 0; i < 6 && !(await hasFocus(cancelChoice)); i++) await p.keyboard.press('ArrowDown');
    await p.keyboard.press('Space');
    expect(await cancelChoice.isChecked()).toBe(true);
    await tabTo(p, cont);
    await p.keyboard.press('Enter');
    await step(4).waitFor();
    await tabTo(p, cont);
    await p.keyboard.press('Enter');
    await step(5).waitFor();
    await tabTo(p, dialog.getByRole('button', { name: 'Cancel membership' }));
    await p.keyboard.press('Enter');
    const done = step(0).getByRole('status');
    await done.getByText(/Your membership is cancelled/).waitFor();
    await expect.poll(() => hasFocus(done)).toBe(true);
    await p.keyboard.press('Escape');
    await expect.poll(() => p.getByTestId('billing-next').textContent()).toMatch(/^Ends on /);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('an admin creates and edits a course: the missing fields are named, marked and focused; Save keeps focus', async () => {
    const p = await newPage(browser, DESKTOP);
    await keyboardSignIn(p, 'admin@demo.test', '/admin/courses/new');
    const create = p.getByRole('button', { name: 'Create course' });
    await tabTo(p, create);
    await p.keyboard.press('Enter');
    const title = p.getByLabel('Title', { exact: true });
    await summary(p).waitFor();
    expect(await summary(p).textContent()).toMatch(/^Please correct (this field|these \d+ fields): Title\b/);
    await expect.poll(() => hasFocus(title)).toBe(true);
    await expectMarked(p, title);

    const name = `Keyboard course ${stamp}`;
    await typeInto(p, title, name);
    await typeInto(p, p.getByLabel('Description', { exact: true }), 'Made and edited by keyboard alone.');
    await tabTo(p, create);
    await p.keyboard.press('Enter');
    await p.waitForURL(/\/admin\/courses\/\d+$/);
    await p.getByRole('heading', { level: 1, name }).waitFor();

    await typeInto(p, p.getByLabel('Title', { exact: true }), `${name} (edited)`);
    const save = p.getByRole('button', { name: 'Save course' });
    await tabTo(p, save);
    await p.keyboard.press('Enter');
    await p.getByRole('status').filter({ hasText: 'Course saved.' }).first().waitFor();
    expect(await hasFocus(save)).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });
});
