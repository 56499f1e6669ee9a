import { matchRoutes, useLocation, useRoutes, type RouteMatch, type RouteObject } from 'react-router';
import { AppLayout } from './layout/app-layout.tsx';
import { NotFoundPage } from './pages/error.tsx';
import { pageConfig } from '#client/lib/page-config.ts';
import { RouteAnnouncer } from './route-announcer.tsx';
import { SandboxCardFields } from '#client/components/payments/sandbox-card.ts';
import { lazyPage, plainPage, preloadMatches, routeArea, withLoading, type LazyRoute } from './lazy-routes.tsx';

/*
 * Every page is its own chunk (a public page's initial JavaScript keeps to its budget, scripts/initial-js.ts): a visit
 * loads the entry (React, the router, the page frame) and the one page group it opens. Pages that a
 * public page must not pay for (the song mapper, checkout, the diagnostic, the metronome) live in
 * separate modules, and so do the route tables of the admin console and the mentorship area
 * (`routeArea`). `npm run build && npx tsx scripts/initial-js.ts` prints what each public page loads.
 */
const auth = () => import('./pages/auth.tsx');
const member = () => import('./pages/member.tsx');
const learning = () => import('./pages/learning.tsx');
const forums = () => import('./pages/forums.tsx');
const discussion = () => import('./pages/discussion.tsx');
const live = () => import('./pages/live.tsx');
const checkout = () => import('./pages/checkout.tsx');
const products = () => import('./pages/products.tsx');
const mentorshipCheckout = () => import('./pages/mentorship-checkout.tsx');
const mentorshipCard = () => import('./pages/mentorship-card.tsx');
const songMapper = () => import('./pages/song-mapper.tsx');
const mailPages = () => import('./pages/mail.tsx');

/**
 * A checkout page: while payments are simulated, the test-mode banner above it (docs/product/test-mode.md).
 * The banner's code loads with the page's own and the two render together: a banner inserted over a form
 * that has already painted would push the form down under the reader. A real academy's pages never load
 * it. A page whose card form shows at once (`cardForm`) loads the sandbox's card fields with it too on a
 * server whose card provider is the sandbox, for the same reason.
 */
const checkoutPage = (page: LazyRoute, { cardForm = false } = {}): LazyRoute =>
  Object.assign(
    async () => {
      const { payments } = pageConfig();
      const [loaded, banner] = await Promise.all([
        page(),
        payments.testMode ? import('#client/components/payments/test-mode-banner.tsx') : null,
        cardForm && payments.card === 'sandbox' ? SandboxCardFields.preload() : null,
      ]);
      const Page = loaded.Component;
      if (!banner || !Page) return loaded;
      const { TestModeBanner } = banner;
      return {
        Component: () => (
          <>
            <TestModeBanner />
            <Page />
          </>
        ),
      };
    },
    { plain: page.plain },
  );

/** A checkout page whose card form shows at once. */
const cardCheckoutPage = (page: LazyRoute) => checkoutPage(page, { cardForm: true });

/** Page addresses; who may open each is in src/shared/pages.ts (checked by the server too). */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', lazy: plainPage(() => import('./pages/home.tsx'), 'HomePage') },
      { path: '/login', lazy: lazyPage(auth, 'LoginPage') },
      { path: '/password/forgot', lazy: lazyPage(auth, 'ForgotPasswordPage') },
      { path: '/password/reset/:token', lazy: lazyPage(auth, 'ResetPasswordPage') },
      { path: '/terms', lazy: lazyPage(member, 'TermsPage') },
      {
        path: '/accessibility',
        lazy: plainPage(() => import('./pages/accessibility.tsx'), 'AccessibilityPage'),
      },
      { path: '/dashboard', lazy: lazyPage(member, 'DashboardPage') },
      { path: '/account/profile', lazy: lazyPage(member, 'AccountProfilePage') },
      { path: '/account/notifications', lazy: lazyPage(mailPages, 'NotificationSettingsPage') },
      { path: '/unsubscribe/:token', lazy: lazyPage(mailPages, 'UnsubscribePage') },
      { path: '/account/billing', lazy: lazyPage(() => import('./pages/billing.tsx'), 'BillingPage') },
      { path: '/account/billing/receipts/:number', lazy: lazyPage(() => import('./pages/receipt.tsx'), 'ReceiptPage') },
      { path: '/notifications', lazy: lazyPage(member, 'NotificationsPage') },
      { path: '/notifications/:id', lazy: lazyPage(member, 'NotificationPage') },
      { path: '/profile/:slug', lazy: lazyPage(member, 'ProfilePage') },
      { path: '/friends', lazy: lazyPage(member, 'FriendsPage') },
      { path: '/courses', lazy: lazyPage(learning, 'CoursesPage') },
      { path: '/courses/:slug', lazy: lazyPage(learning, 'CoursePage') },
      { path: '/lessons/:id', lazy: lazyPage(learning, 'LessonPage') },
      { path: '/stages', lazy: lazyPage(learning, 'StagesPage') },
      { path: '/stages/:id', lazy: lazyPage(learning, 'StagePage') },
      { path: '/journal', lazy: lazyPage(learning, 'JournalPage') },
      { path: '/placement', lazy: lazyPage(learning, 'PlacementPage') },
      { path: '/achievements', lazy: lazyPage(learning, 'AchievementsPage') },
      { path: '/diagnostic', lazy: plainPage(() => import('./pages/diagnostic.tsx'), 'DiagnosticPage') },
      { path: '/metronome', lazy: plainPage(() => import('./pages/metronome.tsx'), 'MetronomePage') },
      { path: '/songmapper/:id?', lazy: lazyPage(songMapper, 'SongMapperPage') },
      { path: '/forums', lazy: lazyPage(forums, 'ForumsHomePage') },
      { path: '/forums/topic/:id', lazy: lazyPage(forums, 'ForumTopicPage') },
      { path: '/forums/post/:id/edit', lazy: lazyPage(discussion, 'ForumPostEditPage') },
      { path: '/forums/:slug', lazy: lazyPage(forums, 'ForumCategoryPage') },
      { path: '/posts/:id', lazy: lazyPage(discussion, 'PostPage') },
      { path: '/live', lazy: lazyPage(live, 'LiveShowsPage') },
      { path: '/live/:id', lazy: lazyPage(live, 'LiveShowPage') },
      // checkout pages: they say when payments are in test mode
      { path: '/join/:slug?', lazy: cardCheckoutPage(plainPage(checkout, 'JoinPage')) },
      { path: '/order', lazy: checkoutPage(lazyPage(() => import('./pages/order.tsx'), 'OrderPage')) },
      { path: '/double-kick-mastery/register', lazy: cardCheckoutPage(lazyPage(products, 'DoubleKickRegisterPage')) },
      { path: '/checkout/double-kick-mastery', lazy: cardCheckoutPage(lazyPage(products, 'DoubleKickCheckoutPage')) },
      { path: '/checkout/course/register', lazy: cardCheckoutPage(lazyPage(products, 'CourseRegisterPage')) },
      { path: '/checkout/course', lazy: cardCheckoutPage(lazyPage(products, 'CourseCheckoutPage')) },
      { path: '/sandbox/*', lazy: checkoutPage(lazyPage(() => import('./pages/sandbox.tsx'), 'SandboxPage')) },
      { path: '/mentorship/checkout', lazy: checkoutPage(plainPage(mentorshipCheckout, 'MentorshipCheckoutPage')) },
      { path: '/mentorship/stripe/charge', lazy: cardCheckoutPage(plainPage(mentorshipCard, 'MentorshipChargePage')) },
      {
        path: '/mentorship/stripe/checkout',
        lazy: cardCheckoutPage(plainPage(mentorshipCard, 'MentorshipFinancePage')),
      },
      { path: '/mentorship/stripe/:payment', lazy: cardCheckoutPage(plainPage(mentorshipCard, 'MentorshipCardPage')) },
      { path: '/dev/outbox', lazy: lazyPage(() => import('./pages/dev-outbox.tsx'), 'DevOutboxPage') },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { element: <AppLayout admin />, children: [routeArea('/admin', () => import('./admin/routes.tsx'))] },
  { element: <AppLayout mentorship />, children: [routeArea('/mentorship', () => import('./mentorship/routes.tsx'))] },
];

const appRoutes = withLoading(routes);

/**
 * Route matching, once per address. React Router's matchRoutes flattens and ranks the whole table (some
 * 50 routes) on every call, and useRoutes calls it on every render of AppRoutes: on a phone-speed CPU
 * that is a visible share of a first view's main-thread time, three calls on a first view.
 * Here the full table is matched once per address and useRoutes gets only the matched branch: the same
 * route objects (same elements), each holding just the next one, so it matches them as it did the whole
 * table; an address that matches nothing gets the whole table (and useRoutes renders nothing for it).
 */
const MATCH_CACHE_SIZE = 64;
const matched = new Map<string, { matches: RouteMatch[]; branch: RouteObject[] }>();

export function matchAddress(pathname: string) {
  let hit = matched.get(pathname);
  if (!hit) {
    const matches = matchRoutes(appRoutes, pathname) ?? [];
    const branch = matches.length
      ? matches.reduceRight<RouteObject[] | undefined>(
          (inner, m) => [inner ? ({ ...m.route, children: inner } as RouteObject) : m.route],
          undefined,
        )!
      : appRoutes;
    hit = { matches, branch };
    if (matched.size >= MATCH_CACHE_SIZE) matched.delete(matched.keys().next().value!);
    matched.set(pathname, hit);
  }
  return hit;
}

/**
 * Loads the code of the page at `pathname`; once loaded, the page renders without suspending
 * (src/client/main.tsx renders again then). Resolves when it has loaded or failed (a failed load is the
 * page's own error to show when it renders).
 */
export async function preloadPage(pathname: string): Promise<void> {
  await preloadMatches(matchAddress(pathname).matches, pathname);
}

/** Every page of the app; rendered inside <BrowserRouter> (src/client/main.tsx). */
export function AppRoutes() {
  const page = useRoutes(matchAddress(useLocation().pathname).branch);
  return (
    <>
      {page}
      <RouteAnnouncer />
    </>
  );
}
