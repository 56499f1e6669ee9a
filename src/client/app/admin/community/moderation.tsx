import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { Eye, EyeOff, Trash2 } from 'lucide-react';
import { MODERATION_KIND_LABELS, MODERATION_KINDS, MODERATION_MESSAGES, type ModerationAction, type ModerationItem } from '#shared/admin-community';
import { errorMessage, post } from '#client/lib/api.ts';
import { AdminTitle, StatusBadge } from '#client/components/admin/form.tsx';
import { DataTable, FilterSelect, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { toast } from '#client/components/ui/toast.tsx';

const SINGULAR = { post: 'post', topic: 'topic', chat: 'chat message', wall: 'wall comment' } as const;
const DONE: Record<ModerationAction, string> = { hide: MODERATION_MESSAGES.hidden, restore: MODERATION_MESSAGES.restored, delete: MODERATION_MESSAGES.deleted };

/** Admin: posts, topics, chat messages and wall comments — hide, restore, delete (issue 10). */
export function ModerationPage() {
  const result = useAdminList<ModerationItem>('admin-moderation', '/api/admin/moderation', ['kind', 'state']);
  const { list } = result;
  const qc = useQueryClient();
  const [confirm, dialog] = useConfirm();
  const act = useMutation({
    mutationFn: ({ item, action }: { item: ModerationItem; action: ModerationAction }) => post(`/api/admin/moderation/${item.kind}/${item.id}`, { action }),
    onSuccess: (_r, { action }) => {
      toast(DONE[action]);
      void qc.invalidateQueries({ queryKey: ['admin-moderation'] });
      void qc.invalidateQueries({ queryKey: ['admin-reports'] });
    },
    onError: (err) => toast(errorMessage(err, ['action']), 'danger'),
  });
  const remove = async (item: ModerationItem) => {
    if (await confirm(`Delete this ${SINGULAR[item.kind]} for good? ${item.kind === 'topic' ? 'Its replies go with it. ' : ''}This cannot be undone.`, { confirmLabel: 'Delete for good', danger: true }))
      act.mutate({ item, action: 'delete' });
  };

  const columns: Column<ModerationItem>[] = [
    {
      key: 'excerpt',
      label: 'Content',
      className: 'md:w-2/5',
      render: (r) => (
        <span className="flex flex-col gap-0.5">
          {r.title ? <span className="font-semibold">{r.title}</span> : null}
          <span className="line-clamp-3 whitespace-pre-wrap text-sm">{r.excerpt || <em className="text-muted">(no text)</em>}</span>
        </span>
      ),
    },
    {
      key: 'author',
      label: 'Author',
      render: (r) =>
        r.author ? (
          <Link to={`/admin/members/${r.author.id}`} className="font-semibold text-accent-strong hover:underline">
            {r.author.name}
          </Link>
        ) : (
          <span className="text-muted">Former member</span>
        ),
    },
    {
      key: 'where',
      label: 'Where',
      render: (r) =>
        r.where.url ? (
          <a href={r.where.url} className="text-accent-strong hover:underline">
            {r.where.label}
          </a>
        ) : (
          r.where.label
        ),
    },
    {
      key: 'created_at',
      label: 'Posted',
      sortable: true,
      render: (r) => <time dateTime={r.created_at}>{formatDistanceToNow(new Date(r.created_at), { addSuffix: true })}</time>,
    },
    { key: 'state', label: 'State', render: (r) => (r.state === 'hidden' ? <StatusBadge tone="bad">Hidden</StatusBadge> : <StatusBadge tone="good">Visible</StatusBadge>) },
    {
      key: 'actions',
      label: 'Actions',
      render: (r) => (
        <span className="flex flex-wrap gap-2">
          {r.state === 'visible' ? (
            <Button variant="secondary" disabled={act.isPending} onClick={() => act.mutate({ item: r, action: 'hide' })} aria-label={`Hide ${SINGULAR[r.kind]} ${r.id}`}>
              <EyeOff aria-hidden className="size-4" /> Hide
            </Button>
          ) : (
            <Button variant="secondary" disabled={act.isPending} onClick={() => act.mutate({ item: r, action: 'restore' })} aria-label={`Restore ${SINGULAR[r.kind]} ${r.id}`}>
              <Eye aria-hidden className="size-4" /> Restore
            </Button>
          )}
          <Button variant="ghost" className="text-danger" disabled={act.isPending} onClick={() => void remove(r)} aria-label={`Delete ${SINGULAR[r.kind]} ${r.id}`}>
            <Trash2 aria-hidden className="size-4" /> Delete
          </Button>
        </span>
      ),
    },
  ];

  return (
    <>
      <AdminTitle title="Moderation" description="Everything members wrote in the forums, live chat and on profile walls. Hiding can be undone; deleting cannot." />
      <DataTable
        result={result}
        columns={columns}
        rowKey={(r) => `${r.kind}-${r.id}`}
        searchLabel="Search text or author"
        empty="Nothing matches."
        toolbar={
          <>
            <FilterSelect label="Kind" name="kind" list={list} options={MODERATION_KINDS.map((k) => [k, MODERATION_KIND_LABELS[k]])} />
            <FilterSelect
              label="State"
              name="state"
              list={list}
              options={[
                ['', 'All'],
                ['visible', 'Visible'],
                ['hidden', 'Hidden'],
              ]}
            />
          </>
        }
      />
      {dialog}
    </>
  );
}
