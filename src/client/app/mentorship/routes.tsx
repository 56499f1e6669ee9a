import type { RouteObject } from 'react-router';
import { lazyPage } from '../lazy-routes.tsx';

const member = () => import('../pages/member.tsx');
const mentorship = () => import('../pages/mentorship.tsx');
const mentorshipPlan = () => import('../pages/mentorship-plan.tsx');
const mentorshipVideos = () => import('../pages/mentorship-videos.tsx');
const songMapper = () => import('../pages/song-mapper.tsx');

/**
 * The mentorship area's pages (docs/product/mentorship.md), in its own frame (src/client/app/router.tsx's
 * `routeArea`): students and their mentors only (src/shared/pages.ts). The mentorship checkout and card
 * pages are public, and sit in the academy's own table.
 */
export const routes: RouteObject[] = [
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
];
