import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { userChannel } from '#shared/realtime';
import { DESKTOP, launchBrowser, newDrummer, newPage, PHONE, signIn, watchChannels } from '#test/e2e';

/*
 * By keyboard and screen reader (docs/product/accessibility.md): a dialog gives focus back to what
 * opened it, a save leaves focus where it was, the quiz says what happened, the tempo takes arrow keys,
 * the metronome says its tempo once it settles.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

/** Is `target` the element with focus? */
const hasFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement);
const focusedTag = (p: Page) => p.evaluate(() => document.activeElement?.tagName ?? '');

describe('focus returns to what opened a dialog', () => {
  it('the registration modal: Escape gives focus back to Join', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/');
    const join = p.getByRole('banner').getByRole('button', { name: 'Join' });
    await join.focus();
    await p.keyboard.press('Enter');
    await p.getByRole('dialog', { name: 'Create Your Account' }).waitFor();
    await p.keyboard.press('Escape');
    await p.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(join)).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('the metronome’s save dialog: Escape gives focus back to "Save current settings"', async () => {
    const p = await newPage(browser, PHONE);
    await p.goto('/metronome');
    const save = p.getByRole('button', { name: 'Save current settings' });
    await save.focus();
    await p.keyboard.press('Enter');
    await p.getByRole('dialog', { name: 'Save settings' }).waitFor();
    await p.keyboard.press('Escape');
    await p.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(save)).toBe(true);
    expect(await focusedTag(p)).toBe('BUTTON');
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('the topic modal: Escape gives focus back to the topic’s link', async () => {
    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'member@demo.test', undefined, '/forums');
    await p.locator('#main a[href^="/forums/"]:not([href^="/forums/topic"])').first().click();
    const topic = p.locator('#main a[href^="/forums/topic/"]').first();
    await topic.focus();
    await p.keyboard.press('Enter');
    await p.getByTestId('topic-modal').waitFor();
    await p.keyboard.press('Escape');
    await p.getByTestId('topic-modal').waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(topic)).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('the posts modal: Escape gives focus back to "Open in a window"', async () => {
    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'member@demo.test', undefined, '/lessons/1');
    // a post of the lesson's discussion, shown on its own (?to=), offers to open it in a window
    const post = p.getByTestId('lesson-discussion').locator('article[data-post-id]').first();
    await post.waitFor();
    await p.goto(`/lessons/1?to=${await post.getAttribute('data-post-id')}`, { waitUntil: 'networkidle' });
    const opener = p.getByRole('button', { name: 'Open in a window' });
    await opener.focus();
    await p.keyboard.press('Enter');
    await p.getByRole('dialog', { name: 'Discussion' }).waitFor();
    // the post has loaded in the window: a member pressing Escape has seen it
    await p.frameLocator('[data-testid="posts-modal-frame"]').getByTestId('post-embed').waitFor();
    await p.keyboard.press('Escape');
    await p.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(opener)).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('the achievement popup after a quiz: closing it gives focus back to the quiz', async () => {
    const p = await newPage(browser, PHONE);
    // a new member's first passed quiz unlocks an achievement, said on their own channel
    const channels = watchChannels(p);
    const { id } = await newDrummer(p, { member: true });
    await p.goto('/courses/groove-foundations');
    await p.getByRole('link', { name: /Playing to a Click/ }).click();
    // the lesson is a page load of its own: its connection joins the channel once the page is up
    const quiz = p.locator('section[aria-labelledby="quiz"]');
    await quiz.waitFor();
    await channels.joined(userChannel(id));
    for (const answer of ['Beats 2 and 4', 'Option 1', '120']) {
      await quiz.getByRole('button', { name: answer, exact: true }).focus();
      await p.keyboard.press('Enter');
    }
    const popup = p.getByRole('dialog', { name: 'Achievement unlocked!' });
    await popup.waitFor();
    await p.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(quiz.getByRole('heading', { name: 'Lesson quiz' }))).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it.each(['Account menu', /^Notifications/])(
    'the header’s %s: Escape gives focus back to its button',
    async (name) => {
      const p = await newPage(browser, DESKTOP);
      await signIn(p, 'member@demo.test', undefined, '/dashboard');
      const trigger = p.getByRole('banner').getByRole('button', { name });
      await trigger.focus();
      await p.keyboard.press('Enter');
      await p.getByRole('menu').waitFor();
      await p.keyboard.press('Escape');
      await p.getByRole('menu').waitFor({ state: 'detached' });
      await expect.poll(() => hasFocus(trigger)).toBe(true);
      expect(await trigger.getAttribute('aria-expanded')).toBe('false');
      expect(p.errors).toEqual([]);
      await p.context().close();
    },
  );
});

describe('the registration form', () => {
  it('marks each wrong field next to it, announces which to correct and moves focus to the first wrong field', async () => {
    const p = await newPage(browser, PHONE);
    await p.goto('/');
    await p.getByRole('button', { name: 'Start learning free' }).click();
    const dialog = p.getByRole('dialog', { name: 'Create Your Account' });
    // no name and a short password: two wrong fields, the name first
    await dialog.getByLabel('Email', { exact: true }).fill('keyboard-drummer@example.com');
    await dialog.getByLabel('Confirm Email').fill('keyboard-drummer@example.com');
    await dialog.getByLabel('Password').fill('short');
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please correct these 2 fields: Name, Password.' }).waitFor();
    const name = dialog.getByLabel('Name');
    await expect.poll(() => hasFocus(name)).toBe(true);
    for (const field of [name, dialog.getByLabel('Password')]) {
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      const described = await field.getAttribute('aria-describedby');
      expect(((await p.locator(`[id="${described}"]`).textContent()) ?? '').length).toBeGreaterThan(0);
    }
    expect(await dialog.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(p.errors).toEqual([]);
    await p.context().close();
  });
});

describe('after a save in the admin console', () => {
  it('"Save lesson" keeps focus on itself and the result is announced', async () => {
    const p = await newPage(browser, DESKTOP);
    await signIn(p, 'admin@demo.test', undefined, '/admin/lessons/1');
    const save = p.getByRole('button', { name: 'Save lesson' });
    await save.focus();
    await p.keyboard.press('Enter');
    await p.getByRole('status').filter({ hasText: 'Lesson saved.' }).first().waitFor();
    expect(await hasFocus(save)).toBe(true);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });
});

describe('practice tools by keyboard and screen reader', () => {
  it('the quiz acknowledges each answer and announces the result politely', async () => {
    const p = await newPage(browser, PHONE);
    // a member of the test's own: the quiz result below is theirs
    await newDrummer(p, { member: true });
    await p.goto('/courses/groove-foundations');
    await p.getByRole('link', { name: /Playing to a Click/ }).click();
    const quiz = p.locator('section[aria-labelledby="quiz"]');
    const said = quiz.getByRole('status').and(p.getByTestId('quiz-announcement'));
    await said.waitFor({ state: 'attached' });
    expect(await said.textContent()).toBe('');
    await quiz.getByRole('button', { name: 'Beats 2 and 4' }).click();
    await expect.poll(() => said.textContent()).toBe('Answer 1 recorded. Question 2 of 3.');
    await quiz.getByRole('button', { name: 'Option 1' }).click();
    await quiz.getByRole('button', { name: '240', exact: true }).click();
    await expect
      .poll(() => said.textContent())
      .toMatch(/^Quiz result: 2 of 3 right \(\d+%\)\. Question \d was wrong\. Not passed: 70% passes\.$/);
    // the list shows the same, each answer in words beside its mark
    expect(
      await quiz
        .getByRole('list', { name: 'Your answers' })
        .getByText(/: wrong$/)
        .count(),
    ).toBe(1);
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('the metronome’s tempo is a spinbutton: arrows ±1, Page Up/Down ±10, its value said with the tempo’s name', async () => {
    const p = await newPage(browser, DESKTOP);
    // the page has read what it keeps (the saved settings, the playlist) before the keys go in
    await p.goto('/metronome', { waitUntil: 'networkidle' });
    await p.getByRole('button', { name: 'Start', exact: true }).waitFor();
    const tempo = p.getByRole('spinbutton', { name: 'BPM' });
    await tempo.focus();
    const start = Number(await tempo.getAttribute('aria-valuenow'));
    await p.keyboard.press('ArrowUp');
    await expect.poll(() => tempo.getAttribute('aria-valuenow')).toBe(String(start + 1));
    await p.keyboard.press('PageUp');
    await expect.poll(() => tempo.getAttribute('aria-valuenow')).toBe(String(start + 11));
    await p.keyboard.press('PageDown');
    await p.keyboard.press('ArrowDown');
    await expect.poll(() => tempo.getAttribute('aria-valuenow')).toBe(String(start));
    await expect.poll(() => tempo.inputValue()).toBe(String(start));
    expect(await tempo.getAttribute('aria-valuetext')).toMatch(new RegExp(`^${start} BPM, \\w+`));
    expect(p.errors).toEqual([]);
    await p.context().close();
  });

  it('the metronome says the tempo once it settles after several clicks, and says Start and Stop', async () => {
    const p = await newPage(browser, DESKTOP);
    await p.goto('/metronome', { waitUntil: 'networkidle' });
    const said = p.getByRole('status').and(p.getByTestId('metronome-announcement'));
    await said.waitFor({ state: 'attached' });
    expect(await said.textContent()).toBe('');
    const tempo = p.getByRole('spinbutton', { name: 'BPM' });
    const before = Number(await tempo.getAttribute('aria-valuenow'));
    const faster = p.getByRole('button', { name: 'Faster' });
    for (let i = 0; i < 5; i += 1) await faster.click();
    await expect.poll(() => tempo.getAttribute('aria-valuenow')).toBe(String(before + 5));
    await expect.poll(() => said.textContent()).toBe(`${before + 5} BPM`);
    await p.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => said.textContent()).toBe(`Playing at ${before + 5} BPM, 4/4`);
    await p.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(() => said.textContent()).toBe('Stopped');
    expect(p.errors).toEqual([]);
    await p.context().close();
  });
});
