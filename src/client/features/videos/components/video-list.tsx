import { Link } from '#client/components/ui/link.tsx';
import { format } from 'date-fns';
import clsx from 'clsx';
import type { VideoSubmission } from '#shared/upload';
import { errorMessage } from '#client/lib/api.ts';
import { Pager } from '#client/components/ui/pager.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useVideos, type VideoQuery } from '../api/videos.ts';
import { UserText } from '#client/components/ui/user-text.tsx';

export const StatusBadge = ({ video }: { video: Pick<VideoSubmission, 'status'> }) => (
  <span
    className={clsx(
      'inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-semibold',
      video.status === 'reviewed' ? 'bg-success-soft text-success' : 'bg-warning-soft text-warning',
    )}
  >
    {video.status === 'reviewed' ? 'Feedback ready' : 'Awaiting feedback'}
  </span>
);

/** Submissions, newest first (oldest first when only those awaiting feedback are listed). */
export function VideoList({
  query,
  onPage,
  showStudent = false,
  empty,
}: {
  query: VideoQuery;
  onPage: (page: number) => void;
  showStudent?: boolean;
  empty: string;
}) {
  const list = useVideos(query);
  if (list.isPending) return <Spinner label="Loading videos" />;
  if (list.isError)
    return (
      <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">
        {errorMessage(list.error, [])}
      </p>
    );
  const { data, page, pages } = list.data;
  return (
    <>
      {data.length === 0 ? <p className="text-muted">{empty}</p> : null}
      <ul className="flex flex-col gap-3" aria-label="Practice videos">
        {data.map((v) => (
          <li key={v.id} data-testid={`video-${v.id}`}>
            <Link
              to={v.url}
              className="flex flex-col gap-2 rounded-2xl border border-line bg-surface p-4 transition-colors duration-150 hover:border-accent sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="truncate text-lg font-semibold" title={v.title}>
                  {v.title}
                </p>
                <p className="text-sm text-muted">
                  {showStudent ? (
                    <span className="font-semibold text-fg">
                      <UserText>{v.student.name}</UserText> ·{' '}
                    </span>
                  ) : null}
                  <time dateTime={v.created_at}>{format(new Date(v.created_at), 'd MMM yyyy, HH:mm')}</time>
                </p>
              </div>
              <StatusBadge video={v} />
            </Link>
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} onPage={onPage} />
    </>
  );
}
