import { PageTitle } from './common.tsx';
export const MentorshipHomePage = () => <PageTitle title="MentorshipHomePage" subtitle="Coming with issue 8." />;
export const MentorshipLessonsPage = () => <PageTitle title="MentorshipLessonsPage" subtitle="Coming with issue 8." />;
export const MentorshipLessonPage = () => <PageTitle title="MentorshipLessonPage" subtitle="Coming with issue 8." />;
export const AccountabilityPage = () => <PageTitle title="AccountabilityPage" subtitle="Coming with issue 8." />;
export const MentorStudentsPage = () => <PageTitle title="MentorStudentsPage" subtitle="Coming with issue 8." />;
export const MentorStudentPage = () => <PageTitle title="MentorStudentPage" subtitle="Coming with issue 8." />;
