import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { PostDto } from '#shared/community';
import type { TopicDto } from '#shared/forums';
import { FORUM_MESSAGES } from '#shared/forums';
import { toast } from '#client/components/ui/toast.tsx';
import { mayUseCommunityClient } from '#client/features/forums/access.ts';
import { CategoryCards } from '#client/features/forums/components/categories.tsx';
import { MembersOnly } from '#client/features/forums/components/members-only.tsx';
import { NewTopicButton } from '#client/features/forums/components/new-topic.tsx';
import { CategoryTopics } from '#client/features/forums/components/topic-list.tsx';
import { TopicModal } from '#client/features/forums/components/topic-modal.tsx';
import { TopicPageView } from '#client/features/forums/components/topic-page.tsx';
import type { TopicSlots } from '#client/features/forums/components/topic-view.tsx';
import { Discussion } from '#client/features/discussion/components/discussion.tsx';
import { PostBody } from '#client/features/discussion/components/post-body.tsx';
import { NotFoundPage } from './error.tsx';
import { PageTitle } from './common.tsx';

/** The forums compose the discussion feature: the first post's body and the thread under the topic. */
const topicSlots: TopicSlots = {
  renderBody: (post: PostDto) => <PostBody post={post} className="text-lg" />,
  renderDiscussion: (topic: TopicDto, { canReply }) => (
    <Discussion key={topic.id} type="forumtopic" resourceId={topic.id} canReply={canReply} />
  ),
};

function useTopicCreated() {
  const navigate = useNavigate();
  return (_topic: { id: number; url: string }, slug: string) => {
    toast(FORUM_MESSAGES.topicCreated);
    void navigate(`/forums/${slug}`);
  };
}

/** What a free member sees instead of the forums. */
const ForumsMembersOnly = () => (
  <>
    <PageTitle title="Forums" />
    <MembersOnly />
  </>
);

/** /forums: the categories. */
export function ForumsHomePage() {
  const onCreated = useTopicCreated();
  if (!mayUseCommunityClient()) {
    return <ForumsMembersOnly />;
  }
  return (
    <>
      <PageTitle title="Forums" subtitle="Ask questions, share progress and talk drums with the community.">
        <NewTopicButton onCreated={onCreated} />
      </PageTitle>
      <CategoryCards />
    </>
  );
}

/** /forums/{slug}: a category's topics; a topic opens in the topic modal. */
export function ForumCategoryPage() {
  const { slug = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const [openTopic, setOpenTopic] = useState<number | null>(null);
  const onCreated = useTopicCreated();
  const page = Math.max(1, Number(params.get('page')) || 1);
  if (!mayUseCommunityClient()) {
    return <ForumsMembersOnly />;
  }
  return (
    <>
      <CategoryTopics
        key={slug}
        slug={slug}
        page={page}
        onPage={(p) => {
          setParams(p > 1 ? { page: String(p) } : {});
          window.scrollTo({ top: 0 });
        }}
        onOpenTopic={setOpenTopic}
        actions={<NewTopicButton defaultSlug={slug} onCreated={onCreated} />}
      />
      <TopicModal topicId={openTopic} onClose={() => setOpenTopic(null)} {...topicSlots} />
    </>
  );
}

/** /forums/topic/{id}: the topic as a full page. */
export function ForumTopicPage() {
  const { id = '' } = useParams();
  if (!mayUseCommunityClient()) {
    return <ForumsMembersOnly />;
  }
  if (!/^\d+$/.test(id)) return <NotFoundPage />;
  return <TopicPageView key={id} topicId={Number(id)} {...topicSlots} />;
}
