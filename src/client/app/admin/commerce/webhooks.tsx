import { RotateCw } from 'lucide-react';
import { PROVIDERS } from '#shared/commerce';
import {
  PROVIDER_NAMES,
  WEBHOOK_FAILURE_KINDS,
  WEBHOOK_FAILURE_STATES,
  type AdminWebhookFailureRow,
  type WebhookFailureKind,
} from '#shared/admin-commerce';
import { post } from '#client/lib/api.ts';
import { Button } from '#client/components/ui/button.tsx';
import { useAdminAction } from '#client/components/admin/actions.tsx';
import { AdminTitle, StatusBadge } from '#client/components/admin/form.tsx';
import { TimeAgo } from '#client/components/admin/format.tsx';
import { DataTable, FilterSelect, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { formatWhen } from '#client/lib/dates.ts';

const KIND: Record<WebhookFailureKind, { label: string; tone: 'bad' | 'warn' }> = {
  rejected: { label: 'Could not be read', tone: 'bad' },
  failed: { label: 'Failed while applying', tone: 'warn' },
};
const STATE: Record<(typeof WEBHOOK_FAILURE_STATES)[number], string> = {
  open: 'Not applied yet',
  resolved: 'Applied later',
};
const exact = (iso: string) => formatWhen(iso, undefined);

/**
 * Signed provider deliveries that could not be applied: what the provider sent (its id and type),
 * what was wrong, how often it was delivered, and whether a later delivery was applied after all.
 */
export function WebhookFailuresPage() {
  const result = useAdminList<AdminWebhookFailureRow>('admin-webhook-failures', '/api/admin/webhook-failures', [
    'provider',
    'kind',
    'state',
  ]);
  const { list } = result;
  const retry = useAdminAction<number, { message: string }>({
    mutationFn: (id) => post<{ message: string }>(`/api/admin/webhook-failures/${id}/retry`),
    done: (_id, answer) => answer.message,
    invalidate: [['admin-webhook-failures']],
  });
  const columns: Column<AdminWebhookFailureRow>[] = [
    {
      key: 'last_at',
      label: 'Last delivery',
      sortable: true,
      render: (r) => (
        <span className="flex flex-col whitespace-nowrap">
          <TimeAgo iso={r.last_at} title={exact(r.last_at)} />
          {r.deliveries > 1 ? (
            <span className="text-sm text-muted">
              first <TimeAgo iso={r.first_at} title={exact(r.first_at)} />
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'event',
      wrap: true,
      label: 'Event',
      className: 'md:w-64',
      render: (r) => (
        // ids and types are long unbroken words: they wrap anywhere rather than widen the row past a phone
        <span className="flex min-w-0 flex-col">
          <span className="font-semibold">{PROVIDER_NAMES[r.provider] ?? r.provider}</span>
          {r.event_type ? <span className="wrap-anywhere font-mono text-sm">{r.event_type}</span> : null}
          <span className="wrap-anywhere font-mono text-sm text-muted">{r.event_id ?? 'no readable id'}</span>
        </span>
      ),
    },
    {
      key: 'problem',
      wrap: true,
      label: 'Problem',
      render: (r) => (
        <span className="flex min-w-0 flex-col gap-1">
          <span className="flex flex-wrap gap-1">
            <StatusBadge tone={KIND[r.kind].tone}>{KIND[r.kind].label}</StatusBadge>
            {r.resolved_at ? <StatusBadge tone="good">{STATE.resolved}</StatusBadge> : null}
          </span>
          <span className="wrap-anywhere whitespace-pre-wrap">{r.reason}</span>
          {r.outline ? (
            <span className="wrap-anywhere text-sm text-muted">
              Body keys: <span className="font-mono">{r.outline}</span>
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'deliveries',
      label: 'Deliveries',
      sortable: true,
      className: 'md:w-32',
      render: (r) => <span className="tabular">{r.deliveries}</span>,
    },
    {
      key: 'actions',
      label: 'Actions',
      className: 'md:w-36',
      render: (r) =>
        r.resolved_at || !r.event_id ? null : (
          <Button
            variant="secondary"
            aria-label={`Retry ${r.event_type ?? 'event'} ${r.event_id}`}
            disabled={retry.isPending && retry.variables === r.id}
            onClick={() => retry.mutate(r.id)}
          >
            <RotateCw aria-hidden className="size-4" /> Retry
          </Button>
        ),
    },
  ];
  return (
    <>
      <AdminTitle
        title="Webhook failures"
        description="Payment provider events with a valid signature that could not be applied. Events that failed while applying are retried by the provider and marked once one is applied. Retry reads an event again from its provider and applies it now, for instance once its cause is fixed."
      />
      <DataTable
        result={result}
        columns={columns}
        rowKey={(r) => r.id}
        searchLabel="Search event id, type or problem"
        empty="No webhook failures match."
        toolbar={
          <>
            <FilterSelect
              label="Provider"
              name="provider"
              list={list}
              options={[['', 'Any provider'], ...PROVIDERS.map((p) => [p, PROVIDER_NAMES[p] ?? p] as [string, string])]}
            />
            <FilterSelect
              label="Problem"
              name="kind"
              list={list}
              options={[
                ['', 'Any problem'],
                ...WEBHOOK_FAILURE_KINDS.map((k) => [k, KIND[k].label] as [string, string]),
              ]}
            />
            <FilterSelect
              label="State"
              name="state"
              list={list}
              options={[['', 'Any state'], ...WEBHOOK_FAILURE_STATES.map((s) => [s, STATE[s]] as [string, string])]}
            />
          </>
        }
      />
    </>
  );
}
