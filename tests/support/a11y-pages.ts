import type { Page } from 'playwright-core';
import type { Role, RouterPage } from './router-pages.ts';

/*
 * What the accessibility sweep (tests/e2e/accessibility.spec.ts) opens: every page of the router, as the
 * kinds of people whose view of it differs, and every dialog and menu. src/client/app/a11y-pages.test.tsx
 * fails when the sweep would skip a page (tests/support/router-pages.ts lists every page; its own test fails
 * when the router gains one the list lacks).
 */

/**
 * Pages whose content changes with who looks at it beyond the one signed-in view the sweep takes
 * (a free member's locked lesson, a student's mentorship card on billing, an admin's moderation tools).
 */
const ALSO: Record<string, Role[]> = {
  home: ['member'],
  dashboard: ['free', 'student'],
  billing: ['free', 'student'],
  course: ['free'],
  lesson: ['free'],
  'forum-topic': ['admin'],
  'live-show': ['admin'],
  post: ['admin'],
  'mentorship-video': ['student'],
  'mentorship-home': ['student'],
};

/**
 * Who the sweep opens a page as: a visitor where visitors see it, one signed-in person (a paying member
 * where they may, else a mentorship student, a free member, an admin), the admin too on the
 * mentorship area's pages (the mentor's view of them), and the extra views above.
 */
export function rolesFor(page: RouterPage): Role[] {
  const out = new Set<Role>();
  if (page.roles.includes('visitor')) out.add('visitor');
  const signedIn = (['member', 'student', 'free', 'admin'] as const).find((r) => page.roles.includes(r));
  if (signedIn) out.add(signedIn);
  if (page.roles.includes('student') && page.roles.includes('admin') && !page.roles.includes('member'))
    out.add('admin');
  for (const r of ALSO[page.name] ?? []) if (page.roles.includes(r)) out.add(r);
  return [...out];
}

/** A dialog or menu: where it opens, for whom, and how a person opens it. */
export interface DialogCase {
  name: string;
  role: Role;
  url: string;
  /** the drawer exists only at phone width */
  phoneOnly?: boolean;
  open: (page: Page) => Promise<void>;
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
  { name: 'song template dialog', role: 'member', url: '/songmapper', open: button(/template/i, false) },
  { name: 'confirmation dialog', role: 'admin', url: '/admin/categories', open: button(/^Delete/) },
];
