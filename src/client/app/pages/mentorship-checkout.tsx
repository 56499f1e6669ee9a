import { PageTitle } from './common.tsx';
export const MentorshipCheckoutPage = () => <PageTitle title="MentorshipCheckoutPage" subtitle="Coming with issue 8." />;
export const MentorshipCardPage = () => <PageTitle title="MentorshipCardPage" subtitle="Coming with issue 8." />;
export const MentorshipChargePage = () => <PageTitle title="MentorshipChargePage" subtitle="Coming with issue 8." />;
export const MentorshipFinancePage = () => <PageTitle title="MentorshipFinancePage" subtitle="Coming with issue 8." />;
