import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Pencil, Plus } from 'lucide-react';
import { categorySchema, type AdminCategory } from '#shared/admin-community';
import { api, post } from '#client/lib/api.ts';
import { DeleteButton, useAdminAction } from '#client/components/admin/actions.tsx';
import { AdminTitle, FormButtons, Panel, TextArea, useFormErrors } from '#client/components/admin/form.tsx';
import { DataTable, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';

interface Draft {
  title: string;
  slug: string;
  description: string;
  position: string;
}
const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);

function CategoryForm({ category, onDone }: { category: AdminCategory | null; onDone: () => void }) {
  const [draft, setDraft] = useState<Draft>({
    title: category?.title ?? '',
    slug: category?.slug ?? '',
    description: category?.description ?? '',
    position: category ? String(category.position) : '',
  });
  const [slugTouched, setSlugTouched] = useState(!!category);
  const form = useFormErrors();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (body: unknown) =>
      category ? post(`/api/admin/categories/${category.id}`, body) : post('/api/admin/categories', body),
    onSuccess: () => {
      toast(category ? 'Category saved.' : 'Category created.');
      void qc.invalidateQueries({ queryKey: ['admin-categories'] });
      onDone();
    },
    onError: (err) => form.fromServer(err),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const values = {
      title: draft.title,
      slug: draft.slug,
      description: draft.description,
      ...(draft.position.trim() ? { position: draft.position.trim() } : {}),
    };
    const body = form.check(categorySchema, values);
    if (body) save.mutate(body);
  };
  const set = (k: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [k]: e.target.value }));
  return (
    <Panel title={category ? `Edit “${category.title}”` : 'New category'} className="mb-6">
      <form
        noValidate
        onSubmit={submit}
        className="flex flex-col gap-4"
        aria-label={category ? 'Edit category' : 'New category'}
      >
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            label="Title"
            value={draft.title}
            error={form.of('title')}
            onChange={(e) => {
              const title = e.target.value;
              setDraft((d) => ({ ...d, title, slug: slugTouched ? d.slug : slugify(title) }));
            }}
          />
          <Field
            label="Slug"
            value={draft.slug}
            error={form.of('slug')}
            hint="The category's address: /forums/slug"
            onChange={(e) => {
              setSlugTouched(true);
              set('slug')(e);
            }}
          />
        </div>
        <TextArea
          label="Description"
          rows={3}
          value={draft.description}
          error={form.of('description')}
          onChange={set('description')}
        />
        <Field
          label="Position"
          inputMode="numeric"
          value={draft.position}
          error={form.of('position')}
          hint="Lower comes first. Leave empty to put it last."
          onChange={set('position')}
          className="md:w-56"
        />
        <FormButtons
          error={form.formError}
          busy={save.isPending}
          label={category ? 'Save category' : 'Create category'}
          onCancel={onDone}
        />
      </form>
    </Panel>
  );
}

/** Admin: the forum's categories — order, create, edit, delete when empty. */
export function CategoriesPage() {
  const result = useAdminList<AdminCategory>('admin-categories', '/api/admin/categories');
  const [editing, setEditing] = useState<AdminCategory | 'new' | null>(null);
  const [confirm, dialog] = useConfirm();
  const move = useAdminAction({
    mutationFn: ({ id, direction }: { id: number; direction: 'up' | 'down' }) =>
      post(`/api/admin/categories/${id}/move`, { direction }),
    invalidate: [['admin-categories']],
    errorFields: ['direction'],
  });
  const remove = useAdminAction({
    mutationFn: (id: number) => api('DELETE', `/api/admin/categories/${id}`),
    done: 'Category deleted.',
    invalidate: [['admin-categories']],
    errorFields: ['category'],
  });
  const rows = result.data?.data ?? [];
  const columns: Column<AdminCategory>[] = [
    {
      key: 'position',
      label: 'Position',
      sortable: true,
      className: 'md:w-24',
      render: (c) => <span className="tabular">{c.position}</span>,
    },
    {
      key: 'title',
      wrap: true,
      label: 'Category',
      sortable: true,
      render: (c) => (
        <span className="flex flex-col">
          <a href={c.url} className="font-semibold text-accent-strong hover:underline">
            {c.title}
          </a>
          <span className="text-sm text-muted">/{c.slug}</span>
          {c.description ? <span className="text-sm">{c.description}</span> : null}
        </span>
      ),
    },
    { key: 'topics', label: 'Topics', render: (c) => <span className="tabular">{c.topics}</span> },
    {
      key: 'actions',
      label: 'Actions',
      render: (c) => {
        const i = rows.findIndex((r) => r.id === c.id);
        return (
          <span className="flex flex-wrap gap-1">
            <Button
              variant="ghost"
              className="px-3"
              aria-label={`Move ${c.title} up`}
              disabled={move.isPending || i === 0}
              onClick={() => move.mutate({ id: c.id, direction: 'up' })}
            >
              <ArrowUp aria-hidden className="size-4" />
            </Button>
            <Button
              variant="ghost"
              className="px-3"
              aria-label={`Move ${c.title} down`}
              disabled={move.isPending || i === rows.length - 1}
              onClick={() => move.mutate({ id: c.id, direction: 'down' })}
            >
              <ArrowDown aria-hidden className="size-4" />
            </Button>
            <Button variant="secondary" aria-label={`Edit ${c.title}`} onClick={() => setEditing(c)}>
              <Pencil aria-hidden className="size-4" /> Edit
            </Button>
            <DeleteButton
              label={`Delete ${c.title}`}
              question={`Delete the category “${c.title}”?`}
              confirm={confirm}
              disabled={remove.isPending}
              onConfirm={() => remove.mutate(c.id)}
            />
          </span>
        );
      },
    },
  ];
  return (
    <>
      <AdminTitle
        title="Forum categories"
        description="The forum's sections, in the order members see them. A category can be deleted once it holds no topics."
        actions={
          <Button onClick={() => setEditing('new')}>
            <Plus aria-hidden className="size-4" /> New category
          </Button>
        }
      />
      {editing ? (
        <CategoryForm
          key={editing === 'new' ? 'new' : editing.id}
          category={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
      <DataTable
        result={result}
        columns={columns}
        rowKey={(c) => c.id}
        searchLabel="Search categories"
        empty="No categories yet."
      />
      {dialog}
    </>
  );
}
