import { Navigate, useParams } from 'react-router';
import { Link } from '#client/components/ui/link.tsx';
import { ArrowLeft } from 'lucide-react';
import { PracticePlanView } from '#client/features/practice-plan/components/practice-plan.tsx';
import { SavedDaysManager } from '#client/features/practice-plan/components/saved-days.tsx';
import { usePlan } from '#client/features/practice-plan/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { NotFoundPage } from './error.tsx';
import { PageTitle } from './common.tsx';

/** /mentorship/practice-plan: the student's own plan; a mentor opening it goes to their students. */
export function PracticePlanPage() {
  if (pageConfig().admin) return <Navigate to="/mentorship/students" replace />;
  return (
    <>
      <PageTitle title="Practice plan" subtitle="Your mentor's plan, week by week. Your tempos save as you type." />
      <PracticePlanView studentId={null} admin={false} />
    </>
  );
}

/** /mentorship/students/:id/practice-plan: a mentor builds a student's plan. */
export function StudentPracticePlanPage() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundPage />;
  return <StudentPlan key={id} id={id} />;
}

function StudentPlan({ id }: { id: number }) {
  // the same query the editor runs (one request): the heading names the student
  const plan = usePlan(id);
  const name = plan.data?.student.name;
  return (
    <>
      <Link
        to={`/mentorship/students/${id}`}
        className="mb-3 inline-flex min-h-11 items-center gap-2 font-semibold text-accent underline-offset-4 hover:underline"
      >
        <ArrowLeft aria-hidden className="size-5" /> {name ? `Back to ${name}` : 'Back to the student'}
      </Link>
      <PageTitle
        title={name ? `${name}'s practice plan` : 'Practice plan'}
        subtitle="Edit every field; changes save themselves. The student sees your changes live."
      />
      <PracticePlanView studentId={id} admin />
    </>
  );
}

/** /mentorship/practice-plan-days: the mentors' reusable days. */
export function PracticePlanDaysPage() {
  return (
    <>
      <PageTitle
        title="Saved days"
        subtitle="Reusable practice days: insert one into any student's plan from their practice plan page."
      />
      <SavedDaysManager />
    </>
  );
}
