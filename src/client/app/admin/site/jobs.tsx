import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { describeSchedule, type AdminFailedJob, type AdminJobQueue, type AdminJobsResponse } from '#shared/jobs';
import { get, post } from '#client/lib/api.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useAdminAction } from '#client/components/admin/actions.tsx';
import { AdminTitle, Panel, StatusBadge } from '#client/components/admin/form.tsx';
import { TimeAgo } from '#client/components/admin/format.tsx';
import { LoadError } from '#client/components/admin/list.tsx';
import { formatWhen } from '#client/lib/dates.ts';

const QUERY_KEY = ['admin-jobs'];
const exact = (iso: string) => formatWhen(iso, undefined);

interface Column<T> {
  key: string;
  label: string;
  className?: string;
  render: (row: T) => ReactNode;
}

/** The console's table (a card per row on a phone, label: value), for a list that is not paged. */
function Table<T>({
  caption,
  rows,
  columns,
  rowKey,
}: {
  caption: string;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
}) {
  return (
    <div className="overflow-hidden rounded-2xl border border-line bg-surface">
      <table className="w-full border-collapse text-left">
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden border-b border-line bg-surface-2 text-sm text-muted md:table-header-group">
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={`px-4 py-2 font-semibold ${c.className ?? ''}`}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className="block border-b border-line px-4 py-3 last:border-b-0 md:table-row md:p-0">
              {columns.map((c) => (
                <td
                  key={c.key}
                  className={`flex gap-2 py-1 md:table-cell md:px-4 md:py-3 md:align-middle ${c.className ?? ''}`}
                >
                  <span className="w-28 shrink-0 text-sm font-semibold text-muted md:hidden">{c.label}</span>
                  <span className="min-w-0 wrap-anywhere">{c.render(row)}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const count = (n: number, tone: 'neutral' | 'warn' | 'bad' = 'neutral') =>
  n > 0 && tone !== 'neutral' ? <StatusBadge tone={tone}>{n}</StatusBadge> : <span className="tabular">{n}</span>;

/**
 * /admin/jobs: the background jobs (docs/product/background-jobs.md): per job how many wait, retry,
 * run, finished and failed, then the recent failures with their error and a retry for each.
 */
export function AdminJobsPage() {
  // refreshed while the page is open: jobs move on by themselves
  const q = useQuery({
    queryKey: QUERY_KEY,
    queryFn: () => get<AdminJobsResponse>('/api/admin/jobs'),
    refetchInterval: 10_000,
  });
  const retry = useAdminAction<string, { message: string }>({
    mutationFn: (id) => post<{ message: string }>(`/api/admin/jobs/${id}/retry`),
    done: (_id, answer) => answer.message,
    invalidate: [QUERY_KEY],
  });
  const queueColumns: Column<AdminJobQueue>[] = [
    {
      key: 'job',
      label: 'Job',
      render: (r) => (
        <span className="flex min-w-0 flex-col">
          <span className="font-semibold">{r.label}</span>
          <span className="wrap-anywhere font-mono text-sm text-muted">{r.name}</span>
        </span>
      ),
    },
    {
      key: 'schedule',
      label: 'Runs',
      className: 'md:w-44',
      render: (r) => <span title={r.schedule ?? undefined}>{describeSchedule(r.schedule)}</span>,
    },
    { key: 'queued', label: 'Waiting', className: 'md:w-24', render: (r) => count(r.queued) },
    { key: 'retrying', label: 'Retrying', className: 'md:w-24', render: (r) => count(r.retrying, 'warn') },
    { key: 'active', label: 'Running', className: 'md:w-24', render: (r) => count(r.active) },
    { key: 'completed', label: 'Done', className: 'md:w-24', render: (r) => count(r.completed) },
    { key: 'failed', label: 'Failed', className: 'md:w-24', render: (r) => count(r.failed, 'bad') },
  ];
  const failedColumns: Column<AdminFailedJob>[] = [
    {
      key: 'when',
      label: 'Failed',
      className: 'md:w-40',
      render: (r) => {
        const at = r.failed_at ?? r.created_at;
        return <TimeAgo iso={at} title={exact(at)} className="whitespace-nowrap" />;
      },
    },
    {
      key: 'job',
      label: 'Job',
      className: 'md:w-64',
      render: (r) => (
        <span className="flex min-w-0 flex-col">
          <span className="font-semibold">{r.label}</span>
          <span className="wrap-anywhere font-mono text-sm text-muted">{r.id}</span>
        </span>
      ),
    },
    {
      key: 'error',
      label: 'Error',
      render: (r) => (
        <span className="flex min-w-0 flex-col gap-1">
          <span className="wrap-anywhere whitespace-pre-wrap">{r.error}</span>
          <span className="text-sm text-muted">
            {r.attempts} {r.attempts === 1 ? 'try' : 'tries'}
          </span>
        </span>
      ),
    },
    {
      key: 'actions',
      label: 'Actions',
      className: 'md:w-32',
      render: (r) => (
        <Button
          variant="secondary"
          aria-label={`Retry ${r.label} (${r.id})`}
          disabled={retry.isPending && retry.variables === r.id}
          onClick={() => retry.mutate(r.id)}
        >
          <RotateCw aria-hidden className="size-4" /> Retry
        </Button>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-6">
      <AdminTitle
        title="Background jobs"
        description="Work the server does outside requests: recurring clean-ups and sweeps, and jobs queued by the site. Each job runs once, whichever server process takes it; a job that fails is tried again after a growing pause, and after its last try it waits here until you retry it."
      />
      {q.isPending ? (
        <Spinner />
      ) : q.isError ? (
        <LoadError error={q.error} />
      ) : (
        <>
          <Panel title="Jobs">
            <Table
              caption="Background jobs and how many are in each state"
              rows={q.data.queues}
              columns={queueColumns}
              rowKey={(r) => r.name}
            />
          </Panel>
          <Panel title="Recent failures">
            {q.data.failed.length === 0 ? (
              <p className="text-muted">
                No job has failed. Jobs that use up their tries are listed here with their error.
              </p>
            ) : (
              <Table
                caption="Failed jobs, newest first"
                rows={q.data.failed}
                columns={failedColumns}
                rowKey={(r) => r.id}
              />
            )}
          </Panel>
        </>
      )}
    </div>
  );
}
