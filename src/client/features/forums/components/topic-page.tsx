import { Link } from '#client/components/ui/link.tsx';
import { TopicAdminMenu } from './admin-menu.tsx';
import { TopicView, type TopicSlots } from './topic-view.tsx';

/** /forums/topic/{id}: the topic modal's content as a page, with a breadcrumb and the admin menu. */
export function TopicPageView({ topicId, ...slots }: TopicSlots & { topicId: number }) {
  return (
    <div className="mx-auto w-full max-w-3xl">
      <TopicView
        topicId={topicId}
        variant="page"
        header={(topic) => (
          <div className="flex items-center justify-between gap-3">
            <nav aria-label="Breadcrumb" className="min-w-0 text-sm text-muted">
              <Link to="/forums" className="font-semibold text-accent-strong">
                Forums
              </Link>{' '}
              <span aria-hidden>›</span>{' '}
              <Link to={`/forums/${topic.categorySlug}`} className="font-semibold text-accent-strong">
                {topic.categoryTitle}
              </Link>
            </nav>
            <TopicAdminMenu topic={topic} />
          </div>
        )}
        {...slots}
      />
    </div>
  );
}
