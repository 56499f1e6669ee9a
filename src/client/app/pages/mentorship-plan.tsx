import { PageTitle } from './common.tsx';
export const PracticePlanPage = () => <PageTitle title="PracticePlanPage" subtitle="Coming with issue 8." />;
export const StudentPracticePlanPage = () => <PageTitle title="StudentPracticePlanPage" subtitle="Coming with issue 8." />;
export const PracticePlanDaysPage = () => <PageTitle title="PracticePlanDaysPage" subtitle="Coming with issue 8." />;
