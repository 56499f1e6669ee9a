import { useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { api, get } from '#client/lib/api.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useAdminAction } from '#client/components/admin/actions.tsx';
import { AdminTitle } from '#client/components/admin/form.tsx';
import { TimeAgo } from '#client/components/admin/format.tsx';
import { LoadError } from '#client/components/admin/list.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';
import { REPORT_STATUSES, type AdminReportsPage } from '#shared/reports';

const STATUSES = REPORT_STATUSES;
type Status = (typeof STATUSES)[number];
type Action = 'resolve' | 'dismiss' | 'hide';
const KIND_LABEL = { post: 'Post', chat: 'Chat message', wall: 'Wall comment' } as const;
const DONE: Record<Action, string> = {
  resolve: 'Report resolved.',
  dismiss: 'Report dismissed.',
  hide: 'Hidden, and its reports resolved.',
};

/** Admin: members' reports of posts, chat messages and wall comments (docs/product/reports-and-moderation.md). */
export function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const status: Status = STATUSES.includes(params.get('status') as Status) ? (params.get('status') as Status) : 'open';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery({
    queryKey: ['admin-reports', status, page],
    queryFn: () => get<AdminReportsPage>(`/api/admin/reports?status=${status}&page=${page}`),
    placeholderData: keepPreviousData,
  });
  const act = useAdminAction({
    mutationFn: ({ id, action }: { id: number; action: Action }) => api('POST', `/api/admin/reports/${id}`, { action }),
    done: ({ action }) => DONE[action],
    invalidate: [['admin-reports'], ['admin-moderation']],
    errorFields: ['action'],
  });
  const go = (next: { status?: Status; page?: number }) =>
    setParams({ status: next.status ?? status, page: String(next.page ?? 1) });

  return (
    <>
      <AdminTitle title="Reports" description="What members reported in the forums, live chat and on profile walls." />
      <div
        role="tablist"
        aria-label="Report status"
        className="mb-5 flex gap-1 overflow-x-auto rounded-xl border border-line bg-surface p-1"
      >
        {STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={s === status}
            onClick={() => go({ status: s })}
            className={clsx(
              'min-h-11 flex-1 rounded-lg px-4 font-semibold capitalize',
              s === status ? 'bg-accent text-accent-fg' : 'text-muted hover:bg-surface-2 hover:text-fg',
            )}
          >
            {s}
          </button>
        ))}
      </div>
      {list.isPending ? (
        <Spinner />
      ) : list.isError ? (
        <LoadError error={list.error} />
      ) : list.data.data.length === 0 ? (
        <p className="text-muted">No {status} reports.</p>
      ) : (
        <ul className="flex flex-col gap-4" aria-label={`${status} reports`}>
          {list.data.data.map((r) => (
            <li
              key={r.id}
              data-testid={`report-${r.id}`}
              className="rounded-2xl border border-line bg-surface p-4 sm:p-5"
            >
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted">
                <span className="rounded-full bg-surface-2 px-2.5 py-0.5 font-semibold text-fg">
                  {KIND_LABEL[r.kind]}
                </span>
                {r.target.hidden ? (
                  <span className="rounded-full bg-danger-soft px-2.5 py-0.5 font-semibold text-danger">Hidden</span>
                ) : null}
                {!r.target.exists ? (
                  <span className="rounded-full bg-surface-2 px-2.5 py-0.5 font-semibold">Deleted</span>
                ) : null}
                <span>
                  Reported by{' '}
                  {r.reporter ? (
                    <a href={r.reporter.url} className="font-semibold text-fg hover:underline">
                      <UserText>{r.reporter.name}</UserText>
                    </a>
                  ) : (
                    'a former member'
                  )}{' '}
                  <TimeAgo iso={r.created_at} />
                </span>
              </div>
              <p className="mt-3 text-sm font-semibold text-muted">Reason</p>
              <p className="whitespace-pre-wrap wrap-anywhere">{r.reason || '—'}</p>
              <p className="mt-3 text-sm font-semibold text-muted">
                Reported {KIND_LABEL[r.kind].toLowerCase()}
                {r.target.author ? (
                  <>
                    {' '}
                    by{' '}
                    <a href={r.target.author.url} className="text-fg underline underline-offset-2">
                      <UserText>{r.target.author.name}</UserText>
                    </a>
                  </>
                ) : null}
              </p>
              {/* a long text scrolls inside its box, so the box takes focus: the keyboard can scroll it */}
              <blockquote
                tabIndex={0}
                aria-label="Reported text"
                className="mt-1 max-h-48 overflow-y-auto whitespace-pre-wrap wrap-anywhere rounded-lg border-l-4 border-line bg-surface-2 px-3 py-2"
              >
                {r.target.exists ? r.target.text : 'It has been deleted.'}
              </blockquote>
              <div className="mt-4 flex flex-wrap items-center gap-2">
                {r.target.link ? (
                  <a
                    href={r.target.link}
                    className={clsx(buttonClass('ghost'), '-ml-3 w-full justify-start sm:w-auto')}
                  >
                    View in place
                  </a>
                ) : null}
                <span className="hidden flex-1 sm:block" />
                {r.status === 'open' ? (
                  <>
                    <Button
                      variant="secondary"
                      disabled={act.isPending}
                      onClick={() => act.mutate({ id: r.id, action: 'dismiss' })}
                    >
                      Dismiss
                    </Button>
                    <Button
                      variant="secondary"
                      disabled={act.isPending}
                      onClick={() => act.mutate({ id: r.id, action: 'resolve' })}
                    >
                      Resolve
                    </Button>
                  </>
                ) : null}
                {r.target.exists && !r.target.hidden ? (
                  <Button
                    variant="danger"
                    disabled={act.isPending}
                    onClick={() => act.mutate({ id: r.id, action: 'hide' })}
                  >
                    Hide
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {list.data && list.data.pages > 1 ? (
        <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-3">
          <Button variant="secondary" disabled={page <= 1} onClick={() => go({ page: page - 1 })}>
            Previous
          </Button>
          <span className="text-muted tabular">
            Page {page} of {list.data.pages}
          </span>
          <Button variant="secondary" disabled={page >= list.data.pages} onClick={() => go({ page: page + 1 })}>
            Next
          </Button>
        </nav>
      ) : null}
    </>
  );
}
