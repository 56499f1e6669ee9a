import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, RotateCcw, X } from 'lucide-react';
import {
  adminPlanSchema,
  adminProductSchema,
  CANCEL_OUTCOME_VALUES,
  DEFAULT_RETENTION_OFFERS,
  mentorshipPricingSchema,
  ORDER_KINDS,
  ORDER_STATUSES,
  PLAN_CYCLES,
  retentionOffersSchema,
  SUBSCRIPTION_STATUSES,
  type AdminOrderDetail,
  type AdminOrderRow,
  type AdminPlan,
  type AdminProduct,
  type AdminRefundResult,
  type AdminSubscriptionRow,
  type MentorshipPricing,
  type RetentionOffers,
} from '#shared/admin-commerce';
import type { CancellationRow } from '#shared/billing';
import { CANCEL_REASONS, PROVIDERS } from '#shared/commerce';
import { api, errorMessage, get, post } from '#client/lib/api.ts';
import {
  AdminTitle,
  Checkbox,
  FormButtons,
  Panel,
  Select,
  StateBadge,
  StatusBadge,
  useFormErrors,
} from '#client/components/admin/form.tsx';
import { TimeAgo } from '#client/components/admin/format.tsx';
import {
  DataTable,
  FilterSelect,
  LoadError,
  Loading,
  useAdminList,
  type Column,
} from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { centsText, toCents, toCentsOrNull, toInt, toIntOrNull } from './money.ts';
import { SubscriptionPaymentsPanel } from './subscription-payments.tsx';
import { formatWhen } from '#client/lib/dates.ts';
import { formatMoney } from '#shared/money';

const date = (iso: string | null) =>
  iso ? formatWhen(iso, 'en-US', { year: 'numeric', month: 'short', day: 'numeric' }) : '—';
const label = (s: string) => (s.charAt(0).toUpperCase() + s.slice(1)).replace(/_/g, ' ');
const opts = (values: readonly string[], all: string): Array<[string, string]> => [
  ['', all],
  ...values.map((v) => [v, label(v)] as [string, string]),
];
const Status = ({ value }: { value: string }) => <StateBadge state={value}>{label(value)}</StateBadge>;

function MemberLink({ member }: { member: { id: number; name: string; email: string } | null }) {
  if (!member) return <span className="text-muted">a deleted member</span>;
  return (
    <span className="flex min-w-0 flex-col">
      <a href={`/admin/members/${member.id}`} className="font-semibold text-accent-strong hover:underline">
        {member.name}
      </a>
      <span className="break-all text-sm text-muted">{member.email}</span>
    </span>
  );
}

// ---------------------------------------------------------------- orders

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
    { key: 'buyer', label: 'Buyer', render: (o) => <MemberLink member={o.buyer} /> },
    {
      key: 'product',
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

// ---------------------------------------------------------------- subscriptions

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
    { key: 'member', label: 'Member', render: (s) => <MemberLink member={s.member} /> },
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

// ---------------------------------------------------------------- membership plans

type PlanDraft = Record<string, string | boolean>;
const planDraft = (p: AdminPlan): PlanDraft => {
  const d: PlanDraft = {
    heading: p.heading,
    subheading: p.subheading,
    has_trial: p.has_trial,
    monthly_title: p.monthly_title,
    active: p.active,
    monthly_trial_days: String(p.monthly_trial_days),
    yearly_trial_days: String(p.yearly_trial_days),
  };
  for (const c of PLAN_CYCLES) {
    d[`${c}_price_cents`] = centsText(p[`${c}_price_cents`]);
    d[`${c}_crossed_out_cents`] = centsText(p[`${c}_crossed_out_cents`]);
    d[`${c}_sales_tag`] = p[`${c}_sales_tag`] ?? '';
  }
  return d;
};
function planValues(d: PlanDraft) {
  const s = (k: string) => String(d[k] ?? '');
  const v: Record<string, unknown> = {
    heading: s('heading'),
    subheading: s('subheading'),
    has_trial: !!d.has_trial,
    monthly_title: s('monthly_title'),
    active: !!d.active,
    monthly_trial_days: toInt(s('monthly_trial_days')),
    yearly_trial_days: toInt(s('yearly_trial_days')),
  };
  for (const c of PLAN_CYCLES) {
    v[`${c}_price_cents`] = toCents(s(`${c}_price_cents`));
    v[`${c}_crossed_out_cents`] = toCentsOrNull(s(`${c}_crossed_out_cents`));
    v[`${c}_sales_tag`] = s(`${c}_sales_tag`) || null;
  }
  return v;
}

function PlanForm({ plan }: { plan: AdminPlan }) {
  const [draft, setDraft] = useState<PlanDraft>(() => planDraft(plan));
  useEffect(() => setDraft(planDraft(plan)), [plan]);
  const form = useFormErrors();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (body: unknown) => api<AdminPlan>('PUT', `/api/admin/plans/${plan.slug}`, body),
    onSuccess: (saved) => {
      toast('Plan saved. The checkout shows it now.');
      qc.setQueryData(['admin-plans'], (old: { data: AdminPlan[] } | undefined) =>
        old ? { data: old.data.map((p) => (p.slug === saved.slug ? saved : p)) } : old,
      );
    },
    onError: (err) => form.fromServer(err),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = form.check(adminPlanSchema, planValues(draft));
    if (body) save.mutate(body);
  };
  const text = (k: string, l: string, extra: { hint?: string; inputMode?: 'decimal' | 'numeric' } = {}) => (
    <Field
      label={l}
      value={String(draft[k] ?? '')}
      error={form.of(k)}
      onChange={(e) => setDraft((d) => ({ ...d, [k]: e.target.value }))}
      {...extra}
    />
  );
  return (
    <Panel title={`Checkout “${plan.slug}”`}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-5" aria-label={`Edit the ${plan.slug} plan`}>
        <p className="text-sm text-muted">
          Members see it at{' '}
          <a className="font-semibold text-accent-strong hover:underline" href={`/join/${plan.slug}`}>
            /join/{plan.slug}
          </a>
          . Prices in dollars.
        </p>
        <div className="grid gap-4 md:grid-cols-2">
          {text('heading', 'Heading')}
          {text('monthly_title', 'Monthly title', { hint: 'The name of the monthly option, e.g. "Monthly".' })}
        </div>
        {text('subheading', 'Subheading')}
        {PLAN_CYCLES.map((c) => (
          <fieldset key={c} className="grid gap-4 rounded-xl border border-line p-4 md:grid-cols-3">
            <legend className="px-1 font-semibold">{label(c)}</legend>
            {text(`${c}_price_cents`, `${label(c)} price ($)`, { inputMode: 'decimal' })}
            {text(`${c}_crossed_out_cents`, `${label(c)} crossed-out price ($)`, {
              inputMode: 'decimal',
              hint: 'Empty: none. Must be above the price.',
            })}
            {text(`${c}_sales_tag`, `${label(c)} sales tag`, { hint: 'e.g. "Best value". Empty: none.' })}
          </fieldset>
        ))}
        <div className="grid gap-4 md:grid-cols-3">
          <Checkbox
            label="Offer a free trial"
            checked={!!draft.has_trial}
            onChange={(v) => setDraft((d) => ({ ...d, has_trial: v }))}
            error={form.of('has_trial')}
          />
          {text('monthly_trial_days', 'Monthly trial days', { inputMode: 'numeric' })}
          {text('yearly_trial_days', 'Yearly trial days', { inputMode: 'numeric' })}
        </div>
        <Checkbox
          label="Active (the checkout is open)"
          checked={!!draft.active}
          onChange={(v) => setDraft((d) => ({ ...d, active: v }))}
          error={form.of('active')}
        />
        <FormButtons error={form.formError} busy={save.isPending} label="Save plan">
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              form.clear();
              setDraft(planDraft(plan));
            }}
          >
            Reset
          </Button>
        </FormButtons>
      </form>
    </Panel>
  );
}

/** /admin/plans: the membership plan object, per checkout slug. */
export function PlansPage() {
  const plans = useQuery({ queryKey: ['admin-plans'], queryFn: () => get<{ data: AdminPlan[] }>('/api/admin/plans') });
  const [slug, setSlug] = useState<string | null>(null);
  const current = plans.data?.data.find((p) => p.slug === slug) ?? plans.data?.data[0] ?? null;
  return (
    <>
      <AdminTitle
        title="Membership plans"
        description="Headings, prices, crossed-out prices, sales tags and trials of each membership checkout."
      />
      <Loading query={plans}>
        {(data) =>
          !current ? (
            <p className="text-muted">No checkout plans yet.</p>
          ) : (
            <div className="flex flex-col gap-4">
              {data.data.length > 1 ? (
                <Select
                  label="Checkout"
                  value={current.slug}
                  onChange={(e) => setSlug(e.target.value)}
                  options={data.data.map((p) => [p.slug, `${p.slug}: ${p.heading}`])}
                  className="sm:w-80"
                />
              ) : null}
              <PlanForm key={current.slug} plan={current} />
            </div>
          )
        }
      </Loading>
    </>
  );
}

// ---------------------------------------------------------------- courses for sale

function ProductForm({ slug, onDone }: { slug: string; onDone: () => void }) {
  const query = useQuery({
    queryKey: ['admin-product', slug],
    queryFn: () =>
      get<{ product: AdminProduct; courses: Array<{ id: number; title: string }> }>(`/api/admin/products/${slug}`),
  });
  return (
    <Loading query={query}>
      {(data) => <ProductFormBody product={data.product} courses={data.courses} onDone={onDone} />}
    </Loading>
  );
}

function ProductFormBody({
  product,
  courses,
  onDone,
}: {
  product: AdminProduct;
  courses: Array<{ id: number; title: string }>;
  onDone: () => void;
}) {
  const [d, setD] = useState({
    title: product.title,
    course_id: product.course_id ? String(product.course_id) : '',
    level: product.level ?? '',
    price: centsText(product.price_cents),
    list: centsText(product.list_price_cents),
    spots: product.spots === null ? '' : String(product.spots),
    active: product.active,
  });
  const form = useFormErrors();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (body: unknown) => api<AdminProduct>('PUT', `/api/admin/products/${product.slug}`, body),
    onSuccess: () => {
      toast('Saved.');
      void qc.invalidateQueries({ queryKey: ['admin-products'] });
      void qc.invalidateQueries({ queryKey: ['admin-product', product.slug] });
      onDone();
    },
    onError: (err) => form.fromServer(err),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = form.check(adminProductSchema, {
      title: d.title,
      course_id: d.course_id ? Number(d.course_id) : null,
      level: d.level || null,
      price_cents: toCents(d.price),
      list_price_cents: toCentsOrNull(d.list),
      spots: toIntOrNull(d.spots),
      active: d.active,
    });
    if (body) save.mutate(body);
  };
  const set = (k: keyof typeof d) => (e: { target: { value: string } }) => setD((x) => ({ ...x, [k]: e.target.value }));
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label={`Edit ${product.title}`}>
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Title" value={d.title} error={form.of('title')} onChange={set('title')} />
        <Select
          label="Course"
          value={d.course_id}
          error={form.of('course_id')}
          onChange={set('course_id')}
          options={[['', 'No course'], ...courses.map((c) => [String(c.id), c.title] as [string, string])]}
        />
        <Select
          label="Level"
          value={d.level}
          error={form.of('level')}
          onChange={set('level')}
          options={[
            ['', 'None'],
            ['basic', 'Basic'],
            ['pro', 'Pro'],
          ]}
        />
        <Field
          label="Price ($)"
          inputMode="decimal"
          value={d.price}
          error={form.of('price_cents')}
          onChange={set('price')}
        />
        <Field
          label="List price ($)"
          inputMode="decimal"
          value={d.list}
          error={form.of('list_price_cents')}
          hint="Shown crossed out. Empty: none."
          onChange={set('list')}
        />
        <Field
          label="Spots"
          inputMode="numeric"
          value={d.spots}
          error={form.of('spots')}
          hint={`Empty: unlimited. ${product.sold} sold so far.`}
          onChange={set('spots')}
        />
      </div>
      <Checkbox
        label="On sale (active)"
        checked={d.active}
        onChange={(v) => setD((x) => ({ ...x, active: v }))}
        error={form.of('active')}
      />
      <FormButtons error={form.formError} busy={save.isPending} onCancel={onDone} />
    </form>
  );
}

/** /admin/products: double-kick and course tiers with their spots. */
export function ProductsPage() {
  const result = useAdminList<AdminProduct>('admin-products', '/api/admin/products', ['active']);
  const { list } = result;
  const editing = list.value('edit') || null;
  const columns: Column<AdminProduct>[] = [
    {
      key: 'title',
      label: 'Tier',
      sortable: true,
      render: (p) => (
        <span className="flex flex-col">
          <span className="font-semibold">{p.title}</span>
          <span className="text-sm text-muted">
            {p.slug}
            {p.course ? ` · ${p.course.title}` : ''}
          </span>
        </span>
      ),
    },
    { key: 'level', label: 'Level', render: (p) => <span>{p.level ? label(p.level) : '—'}</span> },
    {
      key: 'price',
      label: 'Price',
      sortable: true,
      render: (p) => (
        <span className="tabular">
          {p.list_price_cents !== null ? <s className="mr-1 text-muted">{formatMoney(p.list_price_cents)}</s> : null}
          {formatMoney(p.price_cents)}
        </span>
      ),
    },
    { key: 'sold', label: 'Sold', sortable: true, render: (p) => <span className="tabular">{p.sold}</span> },
    {
      key: 'spots',
      label: 'Spots left',
      render: (p) => (
        <span className="tabular">{p.spots_left === null ? 'Unlimited' : `${p.spots_left} of ${p.spots}`}</span>
      ),
    },
    {
      key: 'active',
      label: 'On sale',
      render: (p) => (p.active ? <StatusBadge tone="good">Active</StatusBadge> : <StatusBadge>Off</StatusBadge>),
    },
    {
      key: 'actions',
      label: 'Actions',
      render: (p) => (
        <Button variant="secondary" aria-label={`Edit ${p.title}`} onClick={() => list.set({ edit: p.slug }, false)}>
          <Pencil aria-hidden className="size-4" /> Edit
        </Button>
      ),
    },
  ];
  return (
    <>
      <AdminTitle
        title="Courses for sale"
        description="The double-kick tiers and each members-only course's Basic and Pro tiers: prices, list prices and spots."
      />
      {editing ? (
        <Panel title={`Edit ${editing}`} className="mb-6">
          <ProductForm key={editing} slug={editing} onDone={() => list.set({ edit: null }, false)} />
        </Panel>
      ) : null}
      <DataTable
        result={result}
        columns={columns}
        rowKey={(p) => p.slug}
        searchLabel="Search tiers and courses"
        empty="No tiers match."
        toolbar={
          <FilterSelect
            label="On sale"
            name="active"
            list={list}
            options={[
              ['', 'All'],
              ['1', 'Active'],
              ['0', 'Off'],
            ]}
          />
        }
      />
    </>
  );
}

// ---------------------------------------------------------------- settings pages

function useSetting<T>(key: string, url: string) {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: [key], queryFn: () => get<T>(url) });
  const form = useFormErrors();
  const save = useMutation({
    mutationFn: (body: T) => api<T>('PUT', url, body),
    onSuccess: (saved) => {
      toast('Saved.');
      qc.setQueryData([key], saved);
    },
    onError: (err) => form.fromServer(err),
  });
  return { query, form, save };
}

const FLAG_LABELS: Array<[keyof MentorshipPricing, string, string]> = [
  ['price2600', `Full price ${formatMoney(2600_00)}`, `Instead of ${formatMoney(3200_00)} (like ?price2600=1).`],
  ['price3900', `Full price ${formatMoney(3900_00)}`, `Instead of ${formatMoney(3200_00)} (like ?price3900=1).`],
  [
    'downsell',
    `Downsell: only ${formatMoney(1600_00)}`,
    `Shows only the ${formatMoney(1600_00)} option (like ?downsell=1).`,
  ],
  [
    'showsix',
    'Show the 6-payment plan',
    'Adds 6 monthly payments; 3 payments stays available by link (like ?showsix=1).',
  ],
];

/** the lower prices a campaign link may offer; off, the link's flag is ignored and the price refused */
const LINK_OFFER_LABELS: Array<[keyof MentorshipPricing, string, string]> = [
  [
    'price2600ByLink',
    'Links may offer $2,600',
    'A link with ?price2600=1 shows the $2,600 full price to whoever opens it.',
  ],
  [
    'downsellByLink',
    'Links may offer the $1,600 downsell',
    'A link with ?downsell=1 shows only the $1,600 option to whoever opens it.',
  ],
];

/** /admin/mentorship-pricing: the checkout's default flags and the lower prices links may offer. Amounts stay fixed. */
export function MentorshipPricingPage() {
  const { query, form, save } = useSetting<MentorshipPricing>(
    'admin-mentorship-pricing',
    '/api/admin/mentorship-pricing',
  );
  const [d, setD] = useState<MentorshipPricing | null>(null);
  useEffect(() => {
    if (query.data) setD(query.data);
  }, [query.data]);
  return (
    <>
      <AdminTitle
        title="Mentorship pricing"
        description="Which payment options /mentorship/checkout offers by default, and which lower prices a link may offer. A link's other flags (?price3900=1, ?showsix=1…) apply on top."
      />
      {query.isError ? (
        <LoadError error={query.error} />
      ) : !d ? (
        <Spinner />
      ) : (
        <Panel>
          <form
            noValidate
            aria-label="Mentorship checkout defaults"
            className="flex flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              const body = form.check(mentorshipPricingSchema, d);
              if (body) save.mutate(body);
            }}
          >
            <fieldset className="flex flex-col gap-4">
              <legend className="mb-2 text-base font-semibold">Shown to everyone</legend>
              {FLAG_LABELS.map(([k, l, hint]) => (
                <Checkbox
                  key={k}
                  label={l}
                  hint={hint}
                  checked={d[k]}
                  error={form.of(k)}
                  onChange={(v) => setD({ ...d, [k]: v })}
                />
              ))}
            </fieldset>
            <fieldset className="flex flex-col gap-4">
              <legend className="mb-2 text-base font-semibold">Offered by link only</legend>
              {LINK_OFFER_LABELS.map(([k, l, hint]) => (
                <Checkbox
                  key={k}
                  label={l}
                  hint={hint}
                  checked={d[k]}
                  error={form.of(k)}
                  onChange={(v) => setD({ ...d, [k]: v })}
                />
              ))}
            </fieldset>
            <p className="text-sm text-muted">
              The amounts ({[3200_00, 1600_00, 2600_00, 3900_00].map((c) => formatMoney(c)).join(', ')} and the
              instalment plans) are fixed by the server; only which options are offered changes here.
            </p>
            <FormError message={form.formError} />
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                Save
              </Button>
            </div>
          </form>
        </Panel>
      )}
    </>
  );
}

const RETENTION_FIELDS: Array<[keyof RetentionOffers, string, 'percent' | 'count' | 'money', string]> = [
  ['monthlyDiscountPercent', 'Monthly discount (%)', 'percent', 'Percent off a monthly member’s next payments.'],
  ['monthlyDiscountCycles', 'Discounted months', 'count', 'How many monthly payments the discount covers.'],
  ['yearlyDiscountCents', 'Yearly discount ($)', 'money', 'Off a yearly member’s next payment.'],
  [
    'yearlyUpgradeDiscountCents',
    'Yearly upgrade discount ($)',
    'money',
    'Off the first year when a monthly member switches to yearly.',
  ],
  ['lifetimeDiscountPercent', 'Lifetime discount (%)', 'percent', 'Off the lifetime price in the cancel flow.'],
  ['cardPauseFeeCents', 'Card pause fee ($ a month)', 'money', 'Charged each month while a card membership is paused.'],
  ['paypalPauseFeeCents', 'PayPal pause fee ($ a month)', 'money', 'PayPal suspensions; 0 for free.'],
];

/** /admin/retention: the offers of the cancel flow (docs/product/retention.md). */
export function RetentionPage() {
  const { query, form, save } = useSetting<RetentionOffers>('admin-retention', '/api/admin/retention');
  const [d, setD] = useState<Record<string, string> | null>(null);
  const toDraft = (o: RetentionOffers) =>
    Object.fromEntries(RETENTION_FIELDS.map(([k, , kind]) => [k, kind === 'money' ? centsText(o[k]) : String(o[k])]));
  useEffect(() => {
    if (query.data) setD(toDraft(query.data));
  }, [query.data]);
  return (
    <>
      <AdminTitle
        title="Retention offers"
        description="What the cancel flow offers a member who is leaving. The billing page’s wording and the charges use these figures."
      />
      {query.isError ? (
        <LoadError error={query.error} />
      ) : !d ? (
        <Spinner />
      ) : (
        <Panel>
          <form
            noValidate
            aria-label="Retention offers"
            className="flex flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              const values = Object.fromEntries(
                RETENTION_FIELDS.map(([k, , kind]) => [k, kind === 'money' ? toCents(d[k] ?? '') : toInt(d[k] ?? '')]),
              );
              const body = form.check(retentionOffersSchema, values);
              if (body) save.mutate(body);
            }}
          >
            <div className="grid gap-4 md:grid-cols-2">
              {RETENTION_FIELDS.map(([k, l, kind, hint]) => (
                <Field
                  key={k}
                  label={l}
                  hint={hint}
                  inputMode={kind === 'money' ? 'decimal' : 'numeric'}
                  value={d[k] ?? ''}
                  error={form.of(k)}
                  onChange={(e) => setD({ ...d, [k]: e.target.value })}
                />
              ))}
            </div>
            <FormButtons error={form.formError} busy={save.isPending}>
              <Button
                type="button"
                variant="secondary"
                onClick={() => {
                  form.clear();
                  setD(toDraft(DEFAULT_RETENTION_OFFERS));
                }}
              >
                Fill in the spec’s offers
              </Button>
            </FormButtons>
          </form>
        </Panel>
      )}
    </>
  );
}

// ---------------------------------------------------------------- cancellations

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
    { key: 'member', label: 'Member', render: (r) => <MemberLink member={r.member} /> },
    {
      key: 'reason',
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
