import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown } from 'lucide-react';
import clsx from 'clsx';
import { format } from 'date-fns';
import type { AdminPage, AuditEntry } from '#shared/admin';
import { errorMessage, get } from '#client/lib/api.ts';
import { AdminTitle } from '#client/components/admin/form.tsx';
import { FilterSelect, ListBody, ListFooter, SearchBox, useAdminList } from '#client/components/admin/list.tsx';
import { Pager } from '#client/components/ui/pager.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';

export const when = (iso: string) => format(new Date(iso), 'd MMM yyyy, HH:mm');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) =>
  v === undefined ? '—' : v === null ? 'null' : typeof v === 'string' ? v : JSON.stringify(v, null, 1);

/** Before and after side by side, one row per key; the keys that changed are highlighted. */
export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const keys =
    isObject(before) || isObject(after)
      ? [...new Set([...Object.keys(isObject(before) ? before : {}), ...Object.keys(isObject(after) ? after : {})])]
      : ['value'];
  const pick = (v: unknown, k: string) => (isObject(v) ? v[k] : keys.length === 1 && k === 'value' ? v : undefined);
  return (
    <div className="overflow-hidden rounded-xl border border-line text-sm" data-testid="audit-diff">
      <div className="grid grid-cols-2 bg-surface-2 font-semibold text-muted">
        <span className="px-3 py-2">Before</span>
        <span className="px-3 py-2">After</span>
      </div>
      {keys.map((k) => {
        const b = pick(before, k);
        const a = pick(after, k);
        const changed = JSON.stringify(b) !== JSON.stringify(a);
        return (
          <div
            key={k}
            className={clsx('border-t border-line', changed && 'bg-warning-soft')}
            data-changed={changed || undefined}
          >
            <p className="px-3 pt-2 font-semibold">
              {k}
              {changed ? <span className="ml-2 text-xs font-bold uppercase text-warning">changed</span> : null}
            </p>
            <div className="grid grid-cols-2">
              <pre className="min-w-0 whitespace-pre-wrap wrap-anywhere px-3 py-2 font-mono text-xs">{show(b)}</pre>
              <pre className="min-w-0 whitespace-pre-wrap wrap-anywhere px-3 py-2 font-mono text-xs">{show(a)}</pre>
            </div>
          </div>
        );
      })}
    </div>
  );
}

/** One audit entry: who did what, when; expands to before/after. */
export function AuditItem({ entry }: { entry: AuditEntry }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="border-b border-line last:border-b-0">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex min-h-11 w-full items-start gap-3 px-4 py-3 text-left hover:bg-surface-2"
      >
        <ChevronDown
          aria-hidden
          className={clsx('mt-0.5 size-5 shrink-0 text-muted transition-transform', open && 'rotate-180')}
        />
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="wrap-anywhere font-semibold">{entry.summary || entry.action}</span>
          <span className="text-sm text-muted">
            <code className="font-mono">{entry.action}</code> · {entry.actor.name} · {when(entry.created_at)}
          </span>
        </span>
      </button>
      {open ? (
        <div className="px-4 pb-4">
          <AuditDiff before={entry.before} after={entry.after} />
          <p className="mt-2 text-xs text-muted">
            Target: {entry.target_type}
            {entry.target_id ? ` #${entry.target_id}` : ''}
            {entry.ip ? ` · from ${entry.ip}` : ''}
          </p>
        </div>
      ) : null}
    </li>
  );
}

/** A member's own audit entries (the member page). */
export function MemberAudit({ memberId }: { memberId: number }) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['admin-audit', 'member', memberId, page],
    queryFn: () =>
      get<AdminPage<AuditEntry>>(
        `/api/admin/audit-log?target_type=member&target_id=${memberId}&page=${page}&per_page=10`,
      ),
  });
  if (q.isPending) return <Spinner />;
  if (q.isError) return <p className="text-danger">{errorMessage(q.error, [])}</p>;
  if (!q.data.data.length) return <p className="text-muted">No admin changes yet.</p>;
  return (
    <div className="flex flex-col gap-3">
      <ul className="overflow-hidden rounded-xl border border-line">
        {q.data.data.map((e) => (
          <AuditItem key={e.id} entry={e} />
        ))}
      </ul>
      <Pager page={q.data.page} pages={q.data.pages} onPage={setPage} />
    </div>
  );
}

const TARGETS: Array<[string, string]> = [
  ['', 'Everything'],
  ['member', 'Members'],
  ['course', 'Courses'],
  ['lesson', 'Lessons'],
  ['setting', 'Settings'],
  ['order', 'Orders'],
];
const SORTS: Array<[string, string]> = [
  ['', 'Newest first'],
  ['created_at:asc', 'Oldest first'],
  ['action:asc', 'Action (A–Z)'],
  ['actor:asc', 'Admin (A–Z)'],
];

/** /admin/audit-log: every admin change, searchable; each entry opens to before/after. */
export function AuditLogPage() {
  const result = useAdminList<AuditEntry>('admin-audit', '/api/admin/audit-log', [
    'target_type',
    'target_id',
    'actor_id',
  ]);
  const { list } = result;
  const sortValue = list.value('sort') ? `${list.value('sort')}:${list.value('dir') || 'asc'}` : '';
  return (
    <div>
      <AdminTitle
        title="Audit log"
        description="Every change made in the console: who, what, when, and the values before and after."
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <SearchBox label="Search the log" value={list.value('q')} onSearch={(q) => list.set({ q })} />
        <FilterSelect label="Area" name="target_type" options={TARGETS} list={list} />
        <label className="flex flex-col gap-1.5 sm:w-56">
          <span className="text-sm font-semibold">Order</span>
          <select
            value={sortValue}
            onChange={(e) => {
              const [sort, dir] = e.target.value.split(':');
              list.set({ sort: sort || null, dir: dir || null });
            }}
            className="min-h-12 w-full rounded-xl border border-line bg-surface px-4 text-base"
          >
            {SORTS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.value('target_id') ? (
        <p className="mb-3 text-sm text-muted">
          Showing {list.value('target_type') || 'entries'} #{list.value('target_id')} only.{' '}
          <button
            type="button"
            className="font-semibold text-accent-strong underline"
            onClick={() => list.set({ target_id: null })}
          >
            Show all
          </button>
        </p>
      ) : null}
      <ListBody result={result} empty="No changes match.">
        {(page) => (
          <ul
            className={clsx(
              'overflow-hidden rounded-2xl border border-line bg-surface',
              result.isFetching && 'opacity-70',
            )}
          >
            {page.data.map((e) => (
              <AuditItem key={e.id} entry={e} />
            ))}
          </ul>
        )}
      </ListBody>
      <ListFooter result={result} unit={['entry', 'entries']} className="mt-4" />
    </div>
  );
}
