import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { adminProductSchema, type AdminProduct } from '#shared/admin-commerce';
import { api, get } from '#client/lib/api.ts';
import {
  AdminTitle,
  Checkbox,
  FormButtons,
  Panel,
  Select,
  StatusBadge,
  useFormErrors,
} from '#client/components/admin/form.tsx';
import { DataTable, FilterSelect, Loading, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { centsText, toCents, toCentsOrNull, toIntOrNull } from './money.ts';
import { formatMoney } from '#shared/money';
import { label } from './parts.tsx';

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
      wrap: true,
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
