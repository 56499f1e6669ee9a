import { PageTitle } from './common.tsx';

/** Forum home, category, topic (issue 5). */
export const ForumsHomePage = () => <PageTitle title="Forums" />;
export const ForumCategoryPage = () => <PageTitle title="Forums" />;
export const ForumTopicPage = () => <PageTitle title="Forums" />;
