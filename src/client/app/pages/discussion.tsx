import { PageTitle } from './common.tsx';

/** A single post's page (permalink target, posts modal) (issue 5). */
export const PostPage = () => <PageTitle title="Discussion" />;
/** /forums/post/{id}/edit opened directly (the thread intercepts the link in-page). */
export const ForumPostEditPage = () => <PageTitle title="Edit post" />;
