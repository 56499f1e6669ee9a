import { PageTitle } from './common.tsx';

/** A single post's page (permalink target, posts modal) (issue 5). */
export const PostPage = () => <PageTitle title="Discussion" />;
