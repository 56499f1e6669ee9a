import { JOIN_URL } from '#shared/commerce';
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '#client/lib/api.ts';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { postCalls, type PostLocation } from '../api/posts.ts';
import { Discussion } from './discussion.tsx';
import { PostEditForm } from './post-edit-form.tsx';
import { PostBody } from './post-body.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

function usePostLocation(id: number) {
  return useQuery({ queryKey: ['post-location', id], queryFn: () => postCalls.show(id), enabled: id > 0 });
}

function Failure({ error }: { error: unknown }) {
  const message =
    error instanceof ApiError ? error.message : "We couldn't fetch this post. Please refresh the page to try again.";
  const membersOnly = error instanceof ApiError && error.status === 403;
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-2xl border border-line bg-surface p-6">
      <p className="text-lg">{message}</p>
      {membersOnly ? (
        <a href={JOIN_URL} className={buttonClass('primary')}>
          Become a member
        </a>
      ) : null}
    </div>
  );
}

function Where({ loc }: { loc: PostLocation }) {
  return (
    <p className="text-muted">
      In{' '}
      <a href={loc.post.permalink} target="_top" className="font-semibold text-accent underline underline-offset-2">
        <UserText>{loc.title}</UserText>
      </a>
    </p>
  );
}

/** /posts/{id}: one post's conversation (the permalink target and what the posts modal shows). */
export function PostView({ id, embed = false }: { id: number; embed?: boolean }) {
  const q = usePostLocation(id);
  let content: ReactNode;
  if (q.isPending) content = <Spinner className="w-full py-12" label="Loading the post" />;
  else if (q.isError) content = <Failure error={q.error} />;
  else {
    const loc = q.data;
    content = (
      <div className="flex flex-col gap-4">
        <Where loc={loc} />
        {loc.is_topic_body ? (
          <div className="rounded-2xl border border-line bg-surface p-4">
            <PostBody post={loc.post} />
          </div>
        ) : (
          <Discussion type={loc.type} resourceId={loc.resource_id} threadPostId={id} />
        )}
      </div>
    );
  }
  if (!embed) return content;
  // inside the posts modal's frame: the page without the site's header and menus
  return (
    <div className="fixed inset-0 z-[60] overflow-y-auto bg-bg p-3 sm:p-5" data-testid="post-embed">
      {content}
    </div>
  );
}

/** /forums/post/{id}/edit opened directly (the thread itself edits in place). */
export function PostEditView({ id }: { id: number }) {
  const q = usePostLocation(id);
  if (q.isPending) return <Spinner className="w-full py-12" label="Loading the post" />;
  if (q.isError) return <Failure error={q.error} />;
  const { post } = q.data;
  if (!post.canEdit) return <Failure error={new ApiError(403, 'You may edit only your own posts.', undefined, null)} />;
  const back = `${post.permalink}#${post.id}`;
  return (
    <div className="flex max-w-3xl flex-col gap-3">
      <Where loc={q.data} />
      <PostEditForm
        post={post}
        label="Your post"
        onSaved={() => window.location.assign(back)}
        cancel={
          <a href={back} className={buttonClass('ghost')}>
            Cancel
          </a>
        }
      />
    </div>
  );
}
