import { CANCEL_OUTCOME_VALUES } from '#shared/admin-commerce';
import type { CancellationRow } from '#shared/billing';
import { CANCEL_REASONS } from '#shared/commerce';
import { AdminTitle, StatusBadge } from '#client/components/admin/form.tsx';
import { TimeAgo } from '#client/components/admin/format.tsx';
import { DataTable, FilterSelect, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { formatWhen } from '#client/lib/dates.ts';
import { MemberLink } from './parts.tsx';

const OUTCOME: Record<string, string> = {
  cancel: 'Cancelled',
  pause: 'Paused',
  discount: 'Took the discount',
  'upgrade-yearly': 'Upgraded to yearly',
  'upgrade-lifetime': 'Upgraded to lifetime',
  'lifetime-checkout': 'Bought lifetime (PayPal)',
};

/** /admin/cancellations: why members left, or what they chose instead (the cancel flows). */
export function CancellationsPage() {
  const result = useAdminList<CancellationRow>('admin-cancellations', '/api/admin/cancellations', [
    'reason',
    'outcome',
  ]);
  const { list } = result;
  const columns: Column<CancellationRow>[] = [
    {
      key: 'created_at',
      label: 'When',
      sortable: true,
      render: (r) => <TimeAgo iso={r.created_at} title={formatWhen(r.created_at, undefined)} />,
    },
    { key: 'member', wrap: true, label: 'Member', render: (r) => <MemberLink member={r.member} /> },
    {
      key: 'reason',
      wrap: true,
      label: 'Reason',
      sortable: true,
      render: (r) => (
        <span className="flex flex-col">
          <span className="font-semibold">{r.reason}</span>
          {r.description ? <span className="whitespace-pre-wrap wrap-anywhere text-muted">{r.description}</span> : null}
        </span>
      ),
    },
    {
      key: 'outcome',
      label: 'Outcome',
      sortable: true,
      render: (r) => (
        <StatusBadge tone={r.outcome === 'cancel' ? 'bad' : 'good'}>{OUTCOME[r.outcome] ?? r.outcome}</StatusBadge>
      ),
    },
    {
      key: 'plan',
      wrap: true,
      label: 'Plan',
      render: (r) => (
        <span>
          {r.provider === 'paypal' ? 'PayPal' : 'Card'}, {r.cycle === 'year' ? 'yearly' : 'monthly'}
        </span>
      ),
    },
  ];
  return (
    <>
      <AdminTitle title="Cancellations" description="Why members cancelled, paused or took an offer, newest first." />
      <DataTable
        result={result}
        columns={columns}
        rowKey={(r) => r.id}
        searchLabel="Search member, reason or description"
        empty="No cancellation feedback matches."
        toolbar={
          <>
            <FilterSelect
              label="Reason"
              name="reason"
              list={list}
              options={[['', 'Any reason'], ...CANCEL_REASONS.map((r) => [r.value, r.value] as [string, string])]}
            />
            <FilterSelect
              label="Outcome"
              name="outcome"
              list={list}
              options={[
                ['', 'Any outcome'],
                ...CANCEL_OUTCOME_VALUES.map((o) => [o, OUTCOME[o] ?? o] as [string, string]),
              ]}
            />
          </>
        }
      />
    </>
  );
}
