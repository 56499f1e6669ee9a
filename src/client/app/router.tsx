import { createBrowserRouter } from 'react-router';
import { AppLayout } from './layout/app-layout.tsx';
import { HomePage } from './pages/home.tsx';
import { ForgotPasswordPage, LoginPage, ResetPasswordPage } from './pages/auth.tsx';
import {
  AccountProfilePage,
  DashboardPage,
  NotificationPage,
  NotificationsPage,
  ProfilePage,
  FriendsPage,
  TermsPage,
} from './pages/member.tsx';
import { DevOutboxPage } from './pages/dev-outbox.tsx';
import { AchievementsPage, DiagnosticPage, MetronomePage, CoursePage, CoursesPage, JournalPage, LessonPage, PlacementPage, SongMapperPage, StagePage, StagesPage } from './pages/learning.tsx';
import { NotFoundPage } from './pages/error.tsx';
import { ForumCategoryPage, ForumsHomePage, ForumTopicPage } from './pages/forums.tsx';
import { ForumPostEditPage, PostPage } from './pages/discussion.tsx';
import { LiveShowPage, LiveShowsPage } from './pages/live.tsx';
import { JoinPage, OrderPage } from './pages/checkout.tsx';
import { CourseCheckoutPage, CourseRegisterPage, DoubleKickCheckoutPage, DoubleKickRegisterPage } from './pages/products.tsx';
import { BillingPage } from './pages/billing.tsx';
import { SandboxPage } from './pages/sandbox.tsx';
import { MentorshipCardPage, MentorshipChargePage, MentorshipCheckoutPage, MentorshipFinancePage } from './pages/mentorship-checkout.tsx';
import { AccountabilityPage, MentorshipAccountPage, MentorshipHomePage, MentorshipLessonPage, MentorshipLessonsPage, MentorStudentPage, MentorStudentsPage } from './pages/mentorship.tsx';
import { PracticePlanDaysPage, PracticePlanPage, StudentPracticePlanPage } from './pages/mentorship-plan.tsx';
import { StudentVideosPage, VideoPage, VideosPage } from './pages/mentorship-videos.tsx';
import { adminRoute } from './admin/routes.tsx';

/** Page addresses; who may open each is in src/shared/pages.ts (checked by the server too). */
export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/password/forgot', element: <ForgotPasswordPage /> },
      { path: '/password/reset/:token', element: <ResetPasswordPage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/account/profile', element: <AccountProfilePage /> },
      { path: '/account/billing', element: <BillingPage /> },
      { path: '/notifications', element: <NotificationsPage /> },
      { path: '/notifications/:id', element: <NotificationPage /> },
      { path: '/profile/:slug', element: <ProfilePage /> },
      { path: '/friends', element: <FriendsPage /> },
      { path: '/courses', element: <CoursesPage /> },
      { path: '/courses/:slug', element: <CoursePage /> },
      { path: '/lessons/:id', element: <LessonPage /> },
      { path: '/stages', element: <StagesPage /> },
      { path: '/stages/:id', element: <StagePage /> },
      { path: '/journal', element: <JournalPage /> },
      { path: '/placement', element: <PlacementPage /> },
      { path: '/achievements', element: <AchievementsPage /> },
      { path: '/diagnostic', element: <DiagnosticPage /> },
      { path: '/metronome', element: <MetronomePage /> },
      { path: '/songmapper/:id?', element: <SongMapperPage /> },
      { path: '/forums', element: <ForumsHomePage /> },
      { path: '/forums/topic/:id', element: <ForumTopicPage /> },
      { path: '/forums/post/:id/edit', element: <ForumPostEditPage /> },
      { path: '/forums/:slug', element: <ForumCategoryPage /> },
      { path: '/posts/:id', element: <PostPage /> },
      { path: '/live', element: <LiveShowsPage /> },
      { path: '/live/:id', element: <LiveShowPage /> },
      { path: '/join/:slug?', element: <JoinPage /> },
      { path: '/order', element: <OrderPage /> },
      { path: '/double-kick-mastery/register', element: <DoubleKickRegisterPage /> },
      { path: '/checkout/double-kick-mastery', element: <DoubleKickCheckoutPage /> },
      { path: '/checkout/course/register', element: <CourseRegisterPage /> },
      { path: '/checkout/course', element: <CourseCheckoutPage /> },
      { path: '/sandbox/*', element: <SandboxPage /> },
      { path: '/mentorship/checkout', element: <MentorshipCheckoutPage /> },
      { path: '/mentorship/stripe/charge', element: <MentorshipChargePage /> },
      { path: '/mentorship/stripe/checkout', element: <MentorshipFinancePage /> },
      { path: '/mentorship/stripe/:payment', element: <MentorshipCardPage /> },
      { path: '/dev/outbox', element: <DevOutboxPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  adminRoute,
  {
    element: <AppLayout mentorship />,
    children: [
      { path: '/mentorship', element: <MentorshipHomePage /> },
      { path: '/mentorship/account', element: <MentorshipAccountPage /> },
      { path: '/mentorship/notifications', element: <NotificationsPage mentorship /> },
      { path: '/mentorship/notifications/:id', element: <NotificationPage mentorship /> },
      { path: '/mentorship/songmapper/:id?', element: <SongMapperPage mentorship /> },
      { path: '/mentorship/practice-plan', element: <PracticePlanPage /> },
      { path: '/mentorship/practice-plan-days', element: <PracticePlanDaysPage /> },
      { path: '/mentorship/lessons', element: <MentorshipLessonsPage /> },
      { path: '/mentorship/lessons/:id', element: <MentorshipLessonPage /> },
      { path: '/mentorship/accountability', element: <AccountabilityPage /> },
      { path: '/mentorship/videos', element: <VideosPage /> },
      { path: '/mentorship/videos/:id', element: <VideoPage /> },
      { path: '/mentorship/students', element: <MentorStudentsPage /> },
      { path: '/mentorship/students/:id', element: <MentorStudentPage /> },
      { path: '/mentorship/students/:id/practice-plan', element: <StudentPracticePlanPage /> },
      { path: '/mentorship/students/:id/videos', element: <StudentVideosPage /> },
    ],
  },
]);
