import type { Page } from 'playwright-core';
import { SANDBOX_CARDS } from '#shared/commerce';
import type { Role } from './router-pages.ts';

/*
 * The dialogs and menus the accessibility sweep (tests/e2e/accessibility.spec.ts) opens, each as a person
 * who can open it. Pages are checked with axe by the long-text sweep, every page of the router as each
 * kind of person who sees it. src/client/app/a11y-pages.test.tsx checks each dialog opens on a page of the
 * router that its person sees.
 */

/** A dialog or menu: where it opens, for whom, and how a person opens it. */
export interface DialogCase {
  name: string;
  role: Role;
  url: string;
  /** the drawer exists only at phone width */
  phoneOnly?: boolean;
  /**
   * Opened by a person of the sweep's own rather than the demo account of `role`, in a fresh browser
   * at each width: a new visitor, a new member (paying by card), or a new member paying through
   * PayPal. For a dialog that shows once per person (an achievement), one the demo accounts cannot
   * open (they pay by card), and one whose flow changes what the person has (joining).
   */
  own?: 'visitor' | 'member' | 'paypal member';
  open: (page: Page) => Promise<void>;
  /**
   * Where focus goes when the dialog closes, when that is not back to what opened it: the spec or test
   * that checks it there. The sweep checks every other dialog and menu gives focus back to its opener.
   */
  focusElsewhere?: string;
}

const button =
  (name: string | RegExp, exact = true) =>
  async (page: Page) =>
    page
      .getByRole('button', { name, exact: typeof name === 'string' ? exact : undefined })
      .first()
      .click();
const bannerButton = (name: string | RegExp) => async (page: Page) =>
  page.getByRole('banner').getByRole('button', { name }).click();
const mainButton = (name: string) => async (page: Page) =>
  page.getByRole('main').getByRole('button', { name, exact: true }).click();

export const DIALOGS: DialogCase[] = [
  { name: 'registration modal', role: 'visitor', url: '/', open: bannerButton('Join') },
  { name: 'account menu', role: 'member', url: '/dashboard', open: bannerButton('Account menu') },
  { name: 'notifications menu', role: 'member', url: '/dashboard', open: bannerButton(/^Notifications/) },
  { name: 'side menu drawer', role: 'member', url: '/dashboard', phoneOnly: true, open: bannerButton('Open menu') },
  {
    name: 'mentorship side menu drawer',
    role: 'student',
    url: '/mentorship',
    phoneOnly: true,
    open: bannerButton('Open menu'),
  },
  { name: 'review modal', role: 'member', url: '/dashboard', open: button('Leave a review') },
  { name: 'profile image modal', role: 'member', url: '/account/profile', open: button('Change profile image') },
  { name: 'metronome save dialog', role: 'member', url: '/metronome', open: button('Save current settings') },
  { name: 'upgrade dialog', role: 'member', url: '/account/billing', open: button('Upgrade') },
  { name: 'cancel dialog', role: 'member', url: '/account/billing', open: button(/^Cancel (or pause )?membership$/) },
  { name: 'new topic dialog', role: 'member', url: '/forums/general', open: button('New topic') },
  {
    name: 'topic modal',
    role: 'member',
    url: '/forums/general',
    // a topic's title in the category's list opens it in the modal
    open: async (page) => page.getByRole('main').locator('a[href^="/forums/topic/"]').first().click(),
  },
  { name: 'report dialog', role: 'member', url: '/forums/topic/1', open: button(/^Report this post/) },
  { name: 'topic moderation menu', role: 'admin', url: '/forums/topic/1', open: button('Moderate topic') },
  { name: 'song templates menu', role: 'member', url: '/songmapper', open: mainButton('Templates') },
  {
    name: 'save as template dialog',
    role: 'member',
    url: '/songmapper',
    // an item of the Templates menu: focus comes back to the menu's button
    open: async (page) => {
      await mainButton('Templates')(page);
      await page.getByRole('menuitem', { name: /Save as template/ }).click();
    },
  },
  {
    name: 'saved day picker',
    role: 'admin',
    url: '/mentorship/students/3/practice-plan',
    open: button(/^Insert saved day/),
  },
  { name: 'confirmation dialog', role: 'admin', url: '/admin/categories', open: button(/^Delete/) },
  {
    name: 'posts modal',
    role: 'member',
    url: '/lessons/1',
    // a lesson post's permalink (the lesson's address with the post's id as its hash) shows that thread,
    // which offers to open it in the modal
    open: async (page) => {
      const post = page.getByTestId('lesson-discussion').locator('article[data-post-id]').first();
      const id = await post.getAttribute('data-post-id');
      await page.evaluate((hash) => (window.location.hash = hash), String(id));
      await button('Open in a window')(page);
    },
  },
  {
    name: 'achievement popup',
    role: 'member',
    url: '/courses/groove-foundations',
    // a new member's first passed quiz unlocks an achievement
    own: 'member',
    focusElsewhere: 'the quiz’s heading (tests/e2e/focus-and-announcements.spec.ts)',
    open: async (page) => {
      await page.getByRole('link', { name: /Playing to a Click/ }).click();
      const quiz = page.locator('section[aria-labelledby="quiz"]');
      for (const answer of ['Beats 2 and 4', 'Option 1', '120'])
        await quiz.getByRole('button', { name: answer, exact: true }).click();
    },
  },
  {
    name: 'more song actions menu',
    role: 'member',
    url: '/songmapper',
    phoneOnly: true,
    // only a saved song has it: the member's own when the page shows one, else a new member's song,
    // saved as its title is typed
    own: 'member',
    open: async (page) => {
      const saved = /\/songmapper\/[A-Za-z0-9_-]{22}$/;
      if (!saved.test(page.url())) {
        await page.getByLabel('Song title').fill('Sweep Song');
        await page.waitForURL(saved);
      }
      await page.getByRole('button', { name: 'More song actions' }).click();
    },
  },
  {
    name: 'post history dialog',
    role: 'member',
    url: '/forums/topic/1',
    // a new member's reply to the topic on the page, edited once, shows "edited", which opens its
    // earlier version
    own: 'member',
    open: async (page) => {
      const id = await page.evaluate(async () => {
        const topic = Number(window.location.pathname.split('/').pop());
        const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
        const send = (method: string, url: string, body: unknown) =>
          fetch(url, {
            method,
            headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': token },
            body: JSON.stringify(body),
          }).then((res) => res.json() as Promise<{ post?: { id: number }; id?: number }>);
        const made = await send('POST', '/posts', {
          type: 'forumtopic',
          resource_id: topic,
          parent_id: null,
          body: 'Opening groove at 92 BPM: the ghost notes on the snare keep rushing.',
        });
        await send('PATCH', `/posts/${made.post!.id}`, {
          body: 'Opening groove at 92 BPM: the ghost notes on the snare keep rushing ahead of the hi-hat.',
        });
        return made.post!.id;
      });
      // the post's permalink shows its thread
      await page.evaluate((hash) => (window.location.hash = hash), String(id));
      await page.locator(`article[data-post-id="${id}"]`).getByRole('button', { name: 'edited' }).click();
    },
  },
  {
    name: 'PayPal cancel dialog',
    role: 'member',
    url: '/account/billing',
    own: 'paypal member',
    open: button(/^Cancel (or pause )?membership$/),
  },
  {
    name: 'card 3-D Secure dialog',
    role: 'visitor',
    url: '/join',
    // a new visitor joining with a card whose bank asks to confirm it
    own: 'visitor',
    focusElsewhere: 'the card’s fields with the bank’s answer (tests/e2e/keyboard-flows.spec.ts)',
    open: async (page) => {
      const form = page.locator('#checkout-form');
      const email = `a11y-join-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@test.test`;
      await form.getByLabel('Your name').fill('Sweep Drummer');
      await form.getByLabel('Email', { exact: true }).fill(email);
      await form.getByLabel('Confirm email').fill(email);
      await form.getByLabel('Password', { exact: true }).fill('sticks-and-skins');
      await form.getByLabel('Card holder name').fill('Sweep Drummer');
      await form.getByLabel('Card number').fill(SANDBOX_CARDS.needsAuthentication);
      await form.getByLabel(/Expiry/).fill(`12 / ${(new Date().getUTCFullYear() + 2) % 100}`);
      await form.getByLabel('CVC').fill('123');
      await form.getByLabel(/I accept the/).check();
      await form.getByRole('button', { name: /Start my 7-day free trial/ }).click();
    },
  },
];
