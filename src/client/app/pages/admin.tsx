import { PageTitle } from './common.tsx';

/** Admin: members' reports queue (issue 5). */
export const AdminReportsPage = () => <PageTitle title="Reports" />;
