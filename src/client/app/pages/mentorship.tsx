import { useParams } from 'react-router';
import { buttonClass } from '#client/components/ui/button.tsx';
import { pageConfig } from '#client/lib/page-config.ts';
import { AccountabilityLinks } from '#client/features/accountability/components/accountability-links.tsx';
import { MentorshipAccountFacts } from '#client/features/mentorship/components/account-facts.tsx';
import { MentorshipDashboard } from '#client/features/mentorship/components/dashboard.tsx';
import { MentorshipCourseList, MentorshipLessonView } from '#client/features/mentorship/components/lessons.tsx';
import { StudentList, StudentOverviewPanel } from '#client/features/mentorship/components/students.tsx';
import { useStudent } from '#client/features/mentorship/api/mentorship.ts';
import { useAccountabilityLinks } from '#client/features/accountability/api/accountability.ts';
import { Card, PageTitle, PartsLoading } from './common.tsx';
import { AccountProfilePage } from './member.tsx';
import { NotFoundPage } from './error.tsx';

const useId = () => {
  const id = Number(useParams().id);
  return Number.isInteger(id) && id > 0 ? id : null;
};

export const MentorshipHomePage = () => <MentorshipDashboard />;

export const MentorshipLessonsPage = () => (
  <>
    <PageTitle title="Lessons" subtitle="The mentorship's own lessons. Mark each one complete as you go." />
    <MentorshipCourseList />
  </>
);

export function MentorshipLessonPage() {
  const id = useId();
  return id ? <MentorshipLessonView key={id} id={id} /> : <NotFoundPage />;
}

export function AccountabilityPage() {
  const config = pageConfig();
  if (config.admin) {
    return (
      <>
        <PageTitle
          title="Accountability links"
          subtitle="Each student keeps their own links. Open a student to see and manage theirs."
        />
        <Card>
          <a href="/mentorship/students" className={buttonClass('primary')}>
            Open my students
          </a>
        </Card>
      </>
    );
  }
  return (
    <>
      <PageTitle
        title="Accountability links"
        subtitle="Share your practice videos and recordings with your mentor. Labels save by themselves as you type."
      />
      {config.authId ? <AccountabilityLinks studentId={config.authId} /> : null}
    </>
  );
}

export const MentorStudentsPage = () => (
  <>
    <PageTitle title="Students" subtitle="Your mentorship students: their plans, links and videos." />
    <StudentList />
  </>
);

export function MentorStudentPage() {
  const id = useId();
  return id ? <MentorStudent key={id} id={id} /> : <NotFoundPage />;
}

function MentorStudent({ id }: { id: number }) {
  // the overview and the links are read separately: shown together once both are in, so the links
  // do not slide down the page as the overview arrives above them
  const loading = [useStudent(id), useAccountabilityLinks(id)].some((query) => query.isPending);
  return (
    <div className="flex flex-col gap-10">
      <nav aria-label="Breadcrumb" className="-mb-6 text-sm text-muted">
        <a href="/mentorship/students" className="hover:underline">
          Students
        </a>
      </nav>
      {loading ? (
        <PartsLoading />
      ) : (
        <>
          <StudentOverviewPanel id={id} />
          <section aria-labelledby="student-links" className="flex flex-col gap-4">
            <h2 id="student-links" className="text-2xl font-bold">
              Accountability links
            </h2>
            <AccountabilityLinks studentId={id} mentorView />
          </section>
        </>
      )}
    </div>
  );
}

/** /mentorship/account: the account details plus the mentorship facts (mentor, payment plan). */
export function MentorshipAccountPage() {
  return (
    <div className="flex flex-col gap-6">
      <AccountProfilePage mentorship />
      <MentorshipAccountFacts />
    </div>
  );
}
