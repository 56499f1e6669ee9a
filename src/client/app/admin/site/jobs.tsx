import { useQuery } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { describeSchedule, type AdminFailedJob, type AdminJobQueue, type AdminJobsResponse } from '#shared/jobs';
import { get, post } from '#client/lib/api.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useAdminAction } from '#client/components/admin/actions.tsx';
import { AdminTitle, Panel, StatusBadge } from '#client/components/admin/form.tsx';
import { TimeAgo } from '#client/components/admin/format.tsx';
import { LoadError, RowsTable, type Column } from '#client/components/admin/list.tsx';
import { formatWhen } from '#client/lib/dates.ts';

const QUERY_KEY = ['admin-jobs'];
const exact = (iso: string) => formatWhen(iso, undefined);

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
      wrap: true,
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
      wrap: true,
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
      wrap: true,
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
      wrap: true,
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
            <RowsTable
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
              <RowsTable
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
