import { PageTitle } from './common.tsx';

/** The sandbox payment provider's own pages (PayPal approval, card authentication) (issue 7). */
export const SandboxPage = () => <PageTitle title="Sandbox" />;
