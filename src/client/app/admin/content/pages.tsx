// The content pages of the admin console, loaded together on first visit (see ./routes.tsx).
export { AdminCoursesPage, AdminCourseEditPage } from './courses.tsx';
export { AdminLessonEditPage } from './lessons.tsx';
export { AdminStagesPage, AdminStageEditPage } from './stages.tsx';
export { AdminAchievementsPage, AdminAchievementEditPage } from './achievements.tsx';
export { AdminPlacementPage } from './placement.tsx';
export { AdminFootSpeedPage } from './foot-speed.tsx';
