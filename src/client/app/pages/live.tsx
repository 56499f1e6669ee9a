import { PageTitle } from './common.tsx';

/** Live shows and a show with its chat (issue 5). */
export const LiveShowsPage = () => <PageTitle title="Live shows" />;
export const LiveShowPage = () => <PageTitle title="Live show" />;
