/**
 * Every page of the client router (src/client/app/router.tsx and the console's routes under
 * src/client/app/admin), each with one address that opens it on the demo content (DEMO=1: the browser
 * suite's server) and the kinds of people who see that address as its page rather than a sign-in form
 * or a "not yours" answer. src/client/app/router-pages.test.tsx fails when the router has a route this
 * list lacks, when an address opens another route, or when a role is one that src/shared/pages.ts
 * turns away.
 *
 * Demo ids: the admin is user 1 (Alex Rivera), the paying member 2 (Maya Chen, maya-chen), the
 * mentorship student 3 (Sam Okafor), the free member 4 (Jordan Lee). Specs that make their own data
 * (tests/e2e/long-text.spec.ts) open their own ids at the same paths.
 */
export type Role = 'visitor' | 'free' | 'member' | 'student' | 'admin';

export const ROLES: readonly Role[] = ['visitor', 'free', 'member', 'student', 'admin'];

/** The demo account of each kind of person (a visitor is signed out). */
export const ROLE_EMAILS: Record<Role, string | null> = {
  visitor: null,
  free: 'free@demo.test',
  member: 'member@demo.test',
  student: 'student@demo.test',
  admin: 'admin@demo.test',
};

const EVERYONE: Role[] = ['visitor', 'free', 'member', 'student', 'admin'];
const SIGNED_IN: Role[] = ['free', 'member', 'student', 'admin'];
const MENTORSHIP: Role[] = ['student', 'admin'];
const ADMIN: Role[] = ['admin'];

export interface RouterPage {
  /** the route's path exactly as the router writes it */
  path: string;
  /** an address that opens it */
  url: string;
  /** who sees that address as this page */
  roles: Role[];
  /** what the page is, in a few words (stable: screenshot file names use it) */
  name: string;
}

export const ROUTER_PAGES: RouterPage[] = [
  // the site and signing in
  { path: '/', url: '/', roles: EVERYONE, name: 'home' },
  { path: '/login', url: '/login', roles: ['visitor'], name: 'login' },
  { path: '/password/forgot', url: '/password/forgot', roles: ['visitor'], name: 'password-forgot' },
  {
    path: '/password/reset/:token',
    url: '/password/reset/not-a-real-token',
    roles: EVERYONE,
    name: 'password-reset',
  },
  { path: '/terms', url: '/terms', roles: EVERYONE, name: 'terms' },
  { path: '/accessibility', url: '/accessibility', roles: EVERYONE, name: 'accessibility' },
  { path: '*', url: '/no-such-page', roles: EVERYONE, name: 'not-found' },
  { path: '/dev/outbox', url: '/dev/outbox', roles: EVERYONE, name: 'dev-outbox' },
  { path: '/unsubscribe/:token', url: '/unsubscribe/not-a-real-token', roles: EVERYONE, name: 'unsubscribe' },

  // the member's own pages
  { path: '/dashboard', url: '/dashboard', roles: SIGNED_IN, name: 'dashboard' },
  { path: '/account/profile', url: '/account/profile', roles: SIGNED_IN, name: 'account-profile' },
  { path: '/account/billing', url: '/account/billing', roles: SIGNED_IN, name: 'billing' },
  { path: '/account/notifications', url: '/account/notifications', roles: SIGNED_IN, name: 'notification-settings' },
  {
    path: '/account/billing/receipts/:number',
    url: '/account/billing/receipts/R-000001',
    roles: ['member'],
    name: 'receipt',
  },
  { path: '/notifications', url: '/notifications', roles: SIGNED_IN, name: 'notifications' },
  { path: '/notifications/:id', url: '/notifications/1', roles: ['member'], name: 'notification' },
  { path: '/profile/:slug', url: '/profile/maya-chen', roles: SIGNED_IN, name: 'profile' },
  { path: '/friends', url: '/friends', roles: SIGNED_IN, name: 'friends' },

  // learning
  { path: '/courses', url: '/courses', roles: EVERYONE, name: 'courses' },
  { path: '/courses/:slug', url: '/courses/fills-that-flow', roles: EVERYONE, name: 'course' },
  { path: '/lessons/:id', url: '/lessons/1', roles: SIGNED_IN, name: 'lesson' },
  { path: '/stages', url: '/stages', roles: SIGNED_IN, name: 'stages' },
  { path: '/stages/:id', url: '/stages/1', roles: SIGNED_IN, name: 'stage' },
  { path: '/journal', url: '/journal', roles: SIGNED_IN, name: 'journal' },
  { path: '/placement', url: '/placement', roles: SIGNED_IN, name: 'placement' },
  { path: '/achievements', url: '/achievements', roles: SIGNED_IN, name: 'achievements' },
  { path: '/diagnostic', url: '/diagnostic', roles: EVERYONE, name: 'diagnostic' },
  { path: '/metronome', url: '/metronome', roles: EVERYONE, name: 'metronome' },
  { path: '/songmapper/:id?', url: '/songmapper', roles: SIGNED_IN, name: 'songmapper' },

  // community
  { path: '/forums', url: '/forums', roles: SIGNED_IN, name: 'forums' },
  { path: '/forums/topic/:id', url: '/forums/topic/1', roles: SIGNED_IN, name: 'forum-topic' },
  { path: '/forums/post/:id/edit', url: '/forums/post/1/edit', roles: ['member', 'admin'], name: 'forum-post-edit' },
  { path: '/forums/:slug', url: '/forums/general', roles: SIGNED_IN, name: 'forum-category' },
  { path: '/posts/:id', url: '/posts/1', roles: SIGNED_IN, name: 'post' },
  { path: '/live', url: '/live', roles: SIGNED_IN, name: 'live-shows' },
  { path: '/live/:id', url: '/live/1', roles: SIGNED_IN, name: 'live-show' },

  // buying
  { path: '/join/:slug?', url: '/join', roles: EVERYONE, name: 'join' },
  { path: '/order', url: '/order', roles: ['member'], name: 'order' },
  {
    path: '/double-kick-mastery/register',
    url: '/double-kick-mastery/register',
    roles: EVERYONE,
    name: 'double-kick-register',
  },
  {
    path: '/checkout/double-kick-mastery',
    url: '/checkout/double-kick-mastery',
    roles: EVERYONE,
    name: 'double-kick-checkout',
  },
  // a members-only demo course sold in tiers (Groove Foundations)
  {
    path: '/checkout/course/register',
    url: '/checkout/course/register?course=2',
    roles: EVERYONE,
    name: 'course-register',
  },
  { path: '/checkout/course', url: '/checkout/course?course=2&level=basic', roles: EVERYONE, name: 'course-checkout' },
  { path: '/sandbox/*', url: '/sandbox/nothing-here', roles: EVERYONE, name: 'sandbox' },
  { path: '/mentorship/checkout', url: '/mentorship/checkout', roles: EVERYONE, name: 'mentorship-checkout' },
  {
    path: '/mentorship/stripe/charge',
    url: '/mentorship/stripe/charge?payment=3200',
    roles: SIGNED_IN,
    name: 'mentorship-charge',
  },
  {
    path: '/mentorship/stripe/checkout',
    url: '/mentorship/stripe/checkout',
    // a signed-in drummer who has not bought the mentorship is sent on to the hosted checkout
    roles: ['visitor', 'student'],
    name: 'mentorship-finance',
  },
  { path: '/mentorship/stripe/:payment', url: '/mentorship/stripe/3200', roles: EVERYONE, name: 'mentorship-card' },

  // the mentorship area
  { path: '/mentorship', url: '/mentorship', roles: MENTORSHIP, name: 'mentorship-home' },
  { path: '/mentorship/account', url: '/mentorship/account', roles: SIGNED_IN, name: 'mentorship-account' },
  {
    path: '/mentorship/notifications',
    url: '/mentorship/notifications',
    roles: SIGNED_IN,
    name: 'mentorship-notifications',
  },
  {
    path: '/mentorship/notifications/:id',
    url: '/mentorship/notifications/4',
    roles: ['student'],
    name: 'mentorship-notification',
  },
  {
    path: '/mentorship/songmapper/:id?',
    url: '/mentorship/songmapper',
    roles: MENTORSHIP,
    name: 'mentorship-songmapper',
  },
  {
    path: '/mentorship/practice-plan',
    url: '/mentorship/practice-plan',
    // a mentor's practice plans are their students' (/mentorship/students/:id/practice-plan)
    roles: ['student'],
    name: 'mentorship-practice-plan',
  },
  {
    path: '/mentorship/practice-plan-days',
    url: '/mentorship/practice-plan-days',
    roles: ADMIN,
    name: 'mentorship-practice-plan-days',
  },
  { path: '/mentorship/lessons', url: '/mentorship/lessons', roles: MENTORSHIP, name: 'mentorship-lessons' },
  { path: '/mentorship/lessons/:id', url: '/mentorship/lessons/13', roles: MENTORSHIP, name: 'mentorship-lesson' },
  {
    path: '/mentorship/accountability',
    url: '/mentorship/accountability',
    roles: MENTORSHIP,
    name: 'mentorship-accountability',
  },
  { path: '/mentorship/videos', url: '/mentorship/videos', roles: MENTORSHIP, name: 'mentorship-videos' },
  { path: '/mentorship/videos/:id', url: '/mentorship/videos/1', roles: MENTORSHIP, name: 'mentorship-video' },
  { path: '/mentorship/students', url: '/mentorship/students', roles: ADMIN, name: 'mentor-students' },
  { path: '/mentorship/students/:id', url: '/mentorship/students/3', roles: ADMIN, name: 'mentor-student' },
  {
    path: '/mentorship/students/:id/practice-plan',
    url: '/mentorship/students/3/practice-plan',
    roles: ADMIN,
    name: 'mentor-student-practice-plan',
  },
  {
    path: '/mentorship/students/:id/videos',
    url: '/mentorship/students/3/videos',
    roles: ADMIN,
    name: 'mentor-student-videos',
  },

  // the admin console
  { path: '/admin', url: '/admin', roles: ADMIN, name: 'admin-overview' },
  { path: '/admin/courses', url: '/admin/courses', roles: ADMIN, name: 'admin-courses' },
  { path: '/admin/courses/:id', url: '/admin/courses/1', roles: ADMIN, name: 'admin-course' },
  { path: '/admin/lessons/:id', url: '/admin/lessons/1', roles: ADMIN, name: 'admin-lesson' },
  { path: '/admin/stages', url: '/admin/stages', roles: ADMIN, name: 'admin-stages' },
  { path: '/admin/stages/:id', url: '/admin/stages/1', roles: ADMIN, name: 'admin-stage' },
  { path: '/admin/achievements', url: '/admin/achievements', roles: ADMIN, name: 'admin-achievements' },
  { path: '/admin/achievements/:id', url: '/admin/achievements/1', roles: ADMIN, name: 'admin-achievement' },
  { path: '/admin/placement', url: '/admin/placement', roles: ADMIN, name: 'admin-placement' },
  { path: '/admin/foot-speed', url: '/admin/foot-speed', roles: ADMIN, name: 'admin-foot-speed' },
  { path: '/admin/moderation', url: '/admin/moderation', roles: ADMIN, name: 'admin-moderation' },
  { path: '/admin/reports', url: '/admin/reports', roles: ADMIN, name: 'admin-reports' },
  {
    path: '/admin/accessibility-reports',
    url: '/admin/accessibility-reports',
    roles: ADMIN,
    name: 'admin-accessibility-reports',
  },
  { path: '/admin/categories', url: '/admin/categories', roles: ADMIN, name: 'admin-categories' },
  { path: '/admin/live', url: '/admin/live', roles: ADMIN, name: 'admin-live' },
  { path: '/admin/orders', url: '/admin/orders', roles: ADMIN, name: 'admin-orders' },
  { path: '/admin/subscriptions', url: '/admin/subscriptions', roles: ADMIN, name: 'admin-subscriptions' },
  { path: '/admin/plans', url: '/admin/plans', roles: ADMIN, name: 'admin-plans' },
  { path: '/admin/products', url: '/admin/products', roles: ADMIN, name: 'admin-products' },
  {
    path: '/admin/mentorship-pricing',
    url: '/admin/mentorship-pricing',
    roles: ADMIN,
    name: 'admin-mentorship-pricing',
  },
  { path: '/admin/retention', url: '/admin/retention', roles: ADMIN, name: 'admin-retention' },
  { path: '/admin/cancellations', url: '/admin/cancellations', roles: ADMIN, name: 'admin-cancellations' },
  { path: '/admin/receipts', url: '/admin/receipts', roles: ADMIN, name: 'admin-receipts' },
  { path: '/admin/webhook-failures', url: '/admin/webhook-failures', roles: ADMIN, name: 'admin-webhook-failures' },
  { path: '/admin/members', url: '/admin/members', roles: ADMIN, name: 'admin-members' },
  { path: '/admin/members/:id', url: '/admin/members/2', roles: ADMIN, name: 'admin-member' },
  { path: '/admin/mentors', url: '/admin/mentors', roles: ADMIN, name: 'admin-mentors' },
  { path: '/admin/leads', url: '/admin/leads', roles: ADMIN, name: 'admin-leads' },
  { path: '/admin/reviews', url: '/admin/reviews', roles: ADMIN, name: 'admin-reviews' },
  { path: '/admin/audit-log', url: '/admin/audit-log', roles: ADMIN, name: 'admin-audit-log' },
  { path: '/admin/mail', url: '/admin/mail', roles: ADMIN, name: 'admin-mail' },
  { path: '/admin/jobs', url: '/admin/jobs', roles: ADMIN, name: 'admin-jobs' },
];
