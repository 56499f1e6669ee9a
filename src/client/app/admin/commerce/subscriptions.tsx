import { SUBSCRIPTION_STATUSES, type AdminSubscriptionRow } from '#shared/admin-commerce';
import { PROVIDERS } from '#shared/commerce';
import { AdminTitle, StatusBadge } from '#client/components/admin/form.tsx';
import { DataTable, FilterSelect, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { SubscriptionPaymentsPanel } from './subscription-payments.tsx';
import { formatMoney } from '#shared/money';
import { date, MemberLink, opts, Status } from './parts.tsx';

/** /admin/subscriptions: every membership subscription and its state. */
export function SubscriptionsPage() {
  const result = useAdminList<AdminSubscriptionRow>('admin-subscriptions', '/api/admin/subscriptions', [
    'status',
    'plan',
    'provider',
  ]);
  const { list } = result;
  const open = Number(list.value('subscription')) || null;
  const columns: Column<AdminSubscriptionRow>[] = [
    { key: 'member', wrap: true, label: 'Member', render: (s) => <MemberLink member={s.member} /> },
    {
      key: 'payments',
      label: 'Payments',
      render: (s) => (
        <button
          type="button"
          className="min-h-11 font-semibold text-accent-strong hover:underline"
          onClick={() => list.set({ subscription: s.id }, false)}
          aria-label={`Payments and refunds of ${s.member?.name ?? 'this subscription'}`}
        >
          Payments
        </button>
      ),
    },
    {
      key: 'status',
      label: 'State',
      render: (s) => (
        <span className="flex flex-wrap gap-1">
          <Status value={s.status} />
          {s.cancel_at_period_end && s.status !== 'canceled' ? (
            <StatusBadge tone="warn">Cancels at period end</StatusBadge>
          ) : null}
        </span>
      ),
    },
    {
      key: 'price',
      label: 'Price',
      sortable: true,
      render: (s) => (
        <span className="tabular">
          {formatMoney(s.price_cents)} / {s.plan === 'yearly' ? 'year' : 'month'}
        </span>
      ),
    },
    { key: 'discount', label: 'Discount', render: (s) => <span>{s.discount ?? '—'}</span> },
    {
      key: 'period_end',
      label: 'Period end',
      sortable: true,
      render: (s) => <span>{date(s.current_period_end)}</span>,
    },
    {
      key: 'payment',
      label: 'Payment method',
      render: (s) => (
        <span>
          {s.payment_method || '—'} <span className="text-sm text-muted">({s.provider})</span>
        </span>
      ),
    },
    { key: 'created_at', label: 'Started', sortable: true, render: (s) => <span>{date(s.created_at)}</span> },
  ];
  return (
    <>
      <AdminTitle
        title="Subscriptions"
        description="Membership subscriptions at the payment providers: state, price, discounts and when the period ends."
      />
      {open ? (
        <SubscriptionPaymentsPanel key={open} id={open} onClose={() => list.set({ subscription: null }, false)} />
      ) : null}
      <DataTable
        result={result}
        columns={columns}
        rowKey={(s) => s.id}
        searchLabel="Search member name, email or provider ref"
        empty="No subscriptions match."
        toolbar={
          <>
            <FilterSelect label="State" name="status" list={list} options={opts(SUBSCRIPTION_STATUSES, 'Any state')} />
            <FilterSelect label="Plan" name="plan" list={list} options={opts(['monthly', 'yearly'], 'Any plan')} />
            <FilterSelect label="Provider" name="provider" list={list} options={opts(PROVIDERS, 'Any provider')} />
          </>
        }
      />
    </>
  );
}
