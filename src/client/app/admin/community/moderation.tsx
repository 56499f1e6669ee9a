import { Link } from '#client/components/ui/link.tsx';
import { Eye, EyeOff } from 'lucide-react';
import {
  MODERATION_KIND_LABELS,
  MODERATION_KINDS,
  MODERATION_MESSAGES,
  type ModerationAction,
  type ModerationItem,
} from '#shared/admin-community';
import { post } from '#client/lib/api.ts';
import { DeleteButton, useAdminAction } from '#client/components/admin/actions.tsx';
import { AdminTitle, StateBadge } from '#client/components/admin/form.tsx';
import { TimeAgo } from '#client/components/admin/format.tsx';
import { DataTable, FilterSelect, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';

const SINGULAR = { post: 'post', topic: 'topic', chat: 'chat message', wall: 'wall comment' } as const;
const DONE: Record<ModerationAction, string> = {
  hide: MODERATION_MESSAGES.hidden,
  restore: MODERATION_MESSAGES.restored,
  delete: MODERATION_MESSAGES.deleted,
};

/** Admin moderation (docs/product/reports-and-moderation.md): hide, restore or delete posts, topics, chat, wall. */
export function ModerationPage() {
  const result = useAdminList<ModerationItem>('admin-moderation', '/api/admin/moderation', ['kind', 'state']);
  const { list } = result;
  const [confirm, dialog] = useConfirm();
  const act = useAdminAction({
    mutationFn: ({ item, action }: { item: ModerationItem; action: ModerationAction }) =>
      post(`/api/admin/moderation/${item.kind}/${item.id}`, { action }),
    done: ({ action }) => DONE[action],
    invalidate: [['admin-moderation'], ['admin-reports']],
    errorFields: ['action'],
  });

  const columns: Column<ModerationItem>[] = [
    {
      key: 'excerpt',
      wrap: true,
      label: 'Content',
      className: 'md:w-2/5',
      render: (r) => (
        <span className="flex flex-col gap-0.5">
          {r.title ? <span className="font-semibold">{r.title}</span> : null}
          <span className="line-clamp-3 whitespace-pre-wrap text-sm">
            {r.excerpt || <em className="text-muted">(no text)</em>}
          </span>
        </span>
      ),
    },
    {
      key: 'author',
      wrap: true,
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
      wrap: true,
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
      render: (r) => <TimeAgo iso={r.created_at} />,
    },
    {
      key: 'state',
      label: 'State',
      render: (r) => <StateBadge state={r.state}>{r.state === 'hidden' ? 'Hidden' : 'Visible'}</StateBadge>,
    },
    {
      key: 'actions',
      label: 'Actions',
      render: (r) => (
        <span className="flex flex-wrap gap-2">
          {r.state === 'visible' ? (
            <Button
              variant="secondary"
              disabled={act.isPending}
              onClick={() => act.mutate({ item: r, action: 'hide' })}
              aria-label={`Hide ${SINGULAR[r.kind]} ${r.id}`}
            >
              <EyeOff aria-hidden className="size-4" /> Hide
            </Button>
          ) : (
            <Button
              variant="secondary"
              disabled={act.isPending}
              onClick={() => act.mutate({ item: r, action: 'restore' })}
              aria-label={`Restore ${SINGULAR[r.kind]} ${r.id}`}
            >
              <Eye aria-hidden className="size-4" /> Restore
            </Button>
          )}
          <DeleteButton
            label={`Delete ${SINGULAR[r.kind]} ${r.id}`}
            question={`Delete this ${SINGULAR[r.kind]} for good? ${r.kind === 'topic' ? 'Its replies go with it. ' : ''}This cannot be undone.`}
            confirmLabel="Delete for good"
            confirm={confirm}
            disabled={act.isPending}
            onConfirm={() => act.mutate({ item: r, action: 'delete' })}
          />
        </span>
      ),
    },
  ];

  return (
    <>
      <AdminTitle
        title="Moderation"
        description="Everything members wrote in the forums, live chat and on profile walls. Hiding can be undone; deleting cannot."
      />
      <DataTable
        result={result}
        columns={columns}
        rowKey={(r) => `${r.kind}-${r.id}`}
        searchLabel="Search text or author"
        empty="Nothing matches."
        toolbar={
          <>
            <FilterSelect
              label="Kind"
              name="kind"
              list={list}
              options={MODERATION_KINDS.map((k) => [k, MODERATION_KIND_LABELS[k]])}
            />
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
