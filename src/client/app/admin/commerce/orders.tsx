import type { ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCcw, X } from 'lucide-react';
import {
  ORDER_KINDS,
  ORDER_STATUSES,
  type AdminOrderDetail,
  type AdminOrderRow,
  type AdminRefundResult,
} from '#shared/admin-commerce';
import { PROVIDERS } from '#shared/commerce';
import { errorMessage, get, post } from '#client/lib/api.ts';
import { AdminTitle, Panel } from '#client/components/admin/form.tsx';
import { DataTable, FilterSelect, Loading, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { formatMoney } from '#shared/money';
import { date, MemberLink, opts, Status } from './parts.tsx';

function OrderPanel({ id, onClose }: { id: number; onClose: () => void }) {
  const qc = useQueryClient();
  const [confirm, dialog] = useConfirm();
  const order = useQuery({
    queryKey: ['admin-order', id],
    queryFn: () => get<AdminOrderDetail>(`/api/admin/orders/${id}`),
  });
  const refund = useMutation({
    mutationFn: () => post<AdminRefundResult>(`/api/admin/orders/${id}/refund`),
    onSuccess: (res) => {
      toast(res.message);
      qc.setQueryData(['admin-order', id], res.order);
      void qc.invalidateQueries({ queryKey: ['admin-orders'] });
    },
    onError: (err) => toast(errorMessage(err, ['order']), 'danger'),
  });
  return (
    <Panel className="mb-6">
      <div className="mb-4 flex items-start justify-between gap-3">
        <h2 className="text-lg font-bold">Order #{id}</h2>
        <Button variant="ghost" aria-label="Close the order" onClick={onClose}>
          <X aria-hidden className="size-5" />
        </Button>
      </div>
      <Loading query={order}>
        {(o) => (
          <div className="flex flex-col gap-4" data-testid="order-detail">
            <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              <Item term="Buyer">
                <MemberLink member={o.buyer} />
              </Item>
              <Item term="Status">
                <span data-testid="order-status">
                  <Status value={o.status} />
                </span>
              </Item>
              <Item term="Amount">
                <span className="tabular">{formatMoney(o.amount_cents, o.currency)}</span>
              </Item>
              <Item term="Product">
                {o.kind}: {o.product}
                {o.plan ? ` (${o.plan})` : ''}
              </Item>
              <Item term="Provider">
                {o.provider}
                {o.provider_ref ? <span className="block break-all text-sm text-muted">{o.provider_ref}</span> : null}
              </Item>
              <Item term="Payment method">{o.payment_method || '—'}</Item>
              <Item term="Created">{date(o.created_at)}</Item>
              <Item term="Paid">{date(o.paid_at)}</Item>
              {o.failure_message ? <Item term="Failure">{o.failure_message}</Item> : null}
            </dl>
            <div>
              <h3 className="mb-2 font-semibold">Invoices</h3>
              {o.invoices.length === 0 ? (
                <p className="text-muted">No invoices.</p>
              ) : (
                <ul className="flex flex-col gap-2">
                  {o.invoices.map((i) => (
                    <li key={i.id} className="flex flex-wrap items-center gap-2 rounded-xl bg-surface-2 px-3 py-2">
                      <span className="tabular font-semibold">{formatMoney(i.amount_cents, o.currency)}</span>
                      <Status value={i.status} />
                      <span className="text-sm text-muted">{i.description}</span>
                      <span className="break-all text-sm text-muted">{i.provider_ref}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            {o.status === 'paid' ? (
              <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
                <Button
                  variant="danger"
                  disabled={refund.isPending}
                  onClick={async () => {
                    if (
                      await confirm(
                        `Refund ${formatMoney(o.amount_cents, o.currency)} to ${o.buyer?.name ?? 'the buyer'}? The money goes back through ${o.provider} and the access this order gave is removed.`,
                        { confirmLabel: 'Refund', danger: true },
                      )
                    )
                      refund.mutate();
                  }}
                >
                  <RotateCcw aria-hidden className="size-4" /> Refund
                </Button>
                {!o.refundable ? (
                  <p className="text-sm text-muted">
                    This order has no charge of its own (a subscription): the provider will refuse it here.
                  </p>
                ) : null}
              </div>
            ) : null}
          </div>
        )}
      </Loading>
      {dialog}
    </Panel>
  );
}

const Item = ({ term, children }: { term: string; children: ReactNode }) => (
  <div className="min-w-0">
    <dt className="text-sm font-semibold text-muted">{term}</dt>
    <dd className="mt-0.5 wrap-anywhere">{children}</dd>
  </div>
);

/** /admin/orders: every purchase, its detail and the refund. */
export function OrdersPage() {
  const result = useAdminList<AdminOrderRow>('admin-orders', '/api/admin/orders', ['status', 'kind', 'provider']);
  const { list } = result;
  const open = Number(list.value('order')) || null;
  const columns: Column<AdminOrderRow>[] = [
    {
      key: 'id',
      label: 'Order',
      render: (o) => (
        <button
          type="button"
          className="min-h-11 font-semibold text-accent-strong hover:underline"
          onClick={() => list.set({ order: o.id }, false)}
        >
          #{o.id}
        </button>
      ),
    },
    { key: 'buyer', wrap: true, label: 'Buyer', render: (o) => <MemberLink member={o.buyer} /> },
    {
      key: 'product',
      wrap: true,
      label: 'Product',
      render: (o) => (
        <span>
          {o.kind}: {o.product}
          {o.plan ? ` (${o.plan})` : ''}
        </span>
      ),
    },
    {
      key: 'amount',
      label: 'Amount',
      sortable: true,
      render: (o) => <span className="tabular">{formatMoney(o.amount_cents, o.currency)}</span>,
    },
    { key: 'status', label: 'Status', render: (o) => <Status value={o.status} /> },
    { key: 'provider', label: 'Provider', render: (o) => <span>{o.provider}</span> },
    { key: 'created_at', label: 'Date', sortable: true, render: (o) => <span>{date(o.created_at)}</span> },
  ];
  return (
    <>
      <AdminTitle
        title="Orders"
        description="Every purchase: memberships, courses and mentorship. Open one to see its invoices or refund it."
      />
      {open ? <OrderPanel key={open} id={open} onClose={() => list.set({ order: null }, false)} /> : null}
      <DataTable
        result={result}
        columns={columns}
        rowKey={(o) => o.id}
        searchLabel="Search buyer, email, product or provider ref"
        empty="No orders match."
        toolbar={
          <>
            <FilterSelect label="Status" name="status" list={list} options={opts(ORDER_STATUSES, 'Any status')} />
            <FilterSelect label="Kind" name="kind" list={list} options={opts(ORDER_KINDS, 'Any kind')} />
            <FilterSelect label="Provider" name="provider" list={list} options={opts(PROVIDERS, 'Any provider')} />
          </>
        }
      />
    </>
  );
}
