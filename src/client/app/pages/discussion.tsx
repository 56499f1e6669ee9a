import { useParams, useSearchParams } from 'react-router';
import { PostEditView, PostView } from '#client/features/discussion/components/post-page.tsx';
import { PageTitle } from './common.tsx';

/** A single post's page (permalink target; with ?embed=1 it is what the posts modal's frame shows). */
export function PostPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const embed = params.get('embed') === '1';
  return (
    <>
      {embed ? null : <PageTitle title="Discussion" />}
      <PostView id={Number(id) || 0} embed={embed} />
    </>
  );
}

/** /forums/post/{id}/edit opened directly (the thread intercepts the link in-page). */
export function ForumPostEditPage() {
  const { id = '' } = useParams();
  return (
    <>
      <PageTitle title="Edit post" />
      <PostEditView id={Number(id) || 0} />
    </>
  );
}
