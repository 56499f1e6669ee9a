import { Suspense, type ComponentType } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteMatch, type RouteObject } from 'react-router';
import { preloadableLazy } from '#client/lib/preloadable-lazy.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { lazyPage } from './admin/lazy.ts';
import { NotFoundPage } from './pages/error.tsx';
import { adminRoute } from './admin/routes.tsx';
import { pageConfig } from '#client/lib/page-config.ts';
import { RouteAnnouncer } from './route-announcer.tsx';

/*
 * Every page is its own chunk (a public page's initial JavaScript keeps to its budget, scripts/initial-js.ts): a visit
 * loads the entry (React, the router, the page frame) and the one page group it opens. Pages that a
 * public page must not pay for (the song mapper, checkout, the diagnostic, the metronome) live in
 * separate modules. `npm run build && npx tsx scripts/initial-js.ts` prints what each public page loads.
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
const mentorship = () => import('./pages/mentorship.tsx');
const mentorshipPlan = () => import('./pages/mentorship-plan.tsx');
const mentorshipVideos = () => import('./pages/mentorship-videos.tsx');
const songMapper = () => import('./pages/song-mapper.tsx');
const mailPages = () => import('./pages/mail.tsx');

/** What a page shows while its code loads (the page frame stays: no blank page). */
export const PAGE_LOADING = (
  <div className="grid min-h-[40vh] place-items-center">
    <Spinner label="Loading page" className="[&_svg]:size-8" />
  </div>
);

type LazyRoute = (() => Promise<{ Component?: ComponentType | null }>) & { plain?: boolean };

/** A page that uses no server data (TanStack Query): its visit does not load the query library. */
const plainPage: typeof lazyPage = (load, name) => Object.assign(lazyPage(load, name), { plain: true });

/**
 * A checkout page: while payments are simulated, the test-mode banner above it (docs/product/test-mode.md).
 * The banner's code loads with the page's own and the two render together: a banner inserted over a form
 * that has already painted would push the form down under the reader. A real academy's pages never load it.
 */
const checkoutPage = (page: LazyRoute): LazyRoute =>
  Object.assign(
    async () => {
      if (!pageConfig().payments.testMode) return page();
      const [{ Component: Page }, { TestModeBanner }] = await Promise.all([
        page(),
        import('#client/components/payments/test-mode-banner.tsx'),
      ]);
      return {
        Component: Page
          ? () => (
              <>
                <TestModeBanner />
                <Page />
              </>
            )
          : null,
      };
    },
    { plain: page.plain },
  );

/**
 * The routes as plain elements: a `lazy` page (`lazyPage(...)`, also the console's) becomes a React.lazy
 * component in a Suspense boundary with the Spinner, inside the shared query cache unless it is a
 * `plainPage`. The declarative router (BrowserRouter + useRoutes) is some 16 KB gzip lighter than the
 * data router, and no page uses loaders or actions.
 */
const withLoading = (routes: RouteObject[]): RouteObject[] =>
  routes.map((route) => {
    const { lazy: load, children, ...rest } = route;
    const out = { ...rest } as RouteObject;
    if (children) out.children = withLoading(children);
    if (typeof load === 'function') {
      const loader = load as LazyRoute;
      const Page = preloadableLazy(async () => {
        const [page, query] = await Promise.all([loader(), loader.plain ? null : import('./query.tsx')]);
        const Component: ComponentType = page.Component ?? (() => null);
        return { default: query ? query.withQuery(Component) : Component };
      });
      out.handle = { preload: Page.preload } satisfies PageHandle;
      out.element = (
        <Suspense fallback={PAGE_LOADING}>
          <Page />
        </Suspense>
      );
    }
    return out;
  });

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
      { path: '/join/:slug?', lazy: checkoutPage(plainPage(checkout, 'JoinPage')) },
      { path: '/order', lazy: checkoutPage(lazyPage(() => import('./pages/order.tsx'), 'OrderPage')) },
      { path: '/double-kick-mastery/register', lazy: checkoutPage(lazyPage(products, 'DoubleKickRegisterPage')) },
      { path: '/checkout/double-kick-mastery', lazy: checkoutPage(lazyPage(products, 'DoubleKickCheckoutPage')) },
      { path: '/checkout/course/register', lazy: checkoutPage(lazyPage(products, 'CourseRegisterPage')) },
      { path: '/checkout/course', lazy: checkoutPage(lazyPage(products, 'CourseCheckoutPage')) },
      { path: '/sandbox/*', lazy: checkoutPage(lazyPage(() => import('./pages/sandbox.tsx'), 'SandboxPage')) },
      { path: '/mentorship/checkout', lazy: checkoutPage(plainPage(mentorshipCheckout, 'MentorshipCheckoutPage')) },
      { path: '/mentorship/stripe/charge', lazy: checkoutPage(plainPage(mentorshipCard, 'MentorshipChargePage')) },
      { path: '/mentorship/stripe/checkout', lazy: checkoutPage(plainPage(mentorshipCard, 'MentorshipFinancePage')) },
      { path: '/mentorship/stripe/:payment', lazy: checkoutPage(plainPage(mentorshipCard, 'MentorshipCardPage')) },
      { path: '/dev/outbox', lazy: lazyPage(() => import('./pages/dev-outbox.tsx'), 'DevOutboxPage') },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  adminRoute,
  {
    element: <AppLayout mentorship />,
    children: [
      { path: '/mentorship', lazy: lazyPage(mentorship, 'MentorshipHomePage') },
      { path: '/mentorship/account', lazy: lazyPage(mentorship, 'MentorshipAccountPage') },
      { path: '/mentorship/notifications', lazy: lazyPage(member, 'MentorshipNotificationsPage') },
      { path: '/mentorship/notifications/:id', lazy: lazyPage(member, 'MentorshipNotificationPage') },
      { path: '/mentorship/songmapper/:id?', lazy: lazyPage(songMapper, 'MentorshipSongMapperPage') },
      { path: '/mentorship/practice-plan', lazy: lazyPage(mentorshipPlan, 'PracticePlanPage') },
      { path: '/mentorship/practice-plan-days', lazy: lazyPage(mentorshipPlan, 'PracticePlanDaysPage') },
      { path: '/mentorship/lessons', lazy: lazyPage(mentorship, 'MentorshipLessonsPage') },
      { path: '/mentorship/lessons/:id', lazy: lazyPage(mentorship, 'MentorshipLessonPage') },
      { path: '/mentorship/accountability', lazy: lazyPage(mentorship, 'AccountabilityPage') },
      { path: '/mentorship/videos', lazy: lazyPage(mentorshipVideos, 'VideosPage') },
      { path: '/mentorship/videos/:id', lazy: lazyPage(mentorshipVideos, 'VideoPage') },
      { path: '/mentorship/students', lazy: lazyPage(mentorship, 'MentorStudentsPage') },
      { path: '/mentorship/students/:id', lazy: lazyPage(mentorship, 'MentorStudentPage') },
      { path: '/mentorship/students/:id/practice-plan', lazy: lazyPage(mentorshipPlan, 'StudentPracticePlanPage') },
      { path: '/mentorship/students/:id/videos', lazy: lazyPage(mentorshipVideos, 'StudentVideosPage') },
    ],
  },
];

const appRoutes = withLoading(routes);

interface PageHandle {
  preload: () => Promise<unknown>;
}

/**
 * Route matching, once per address. React Router's matchRoutes flattens and ranks the whole table (about
 * 90 routes) on every call, and useRoutes calls it on every render of AppRoutes: on a phone-speed CPU
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
  await Promise.allSettled(
    matchAddress(pathname).matches.map((m) => (m.route.handle as PageHandle | undefined)?.preload()),
  );
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
