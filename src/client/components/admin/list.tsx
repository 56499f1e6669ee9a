import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ArrowUpDown, Search } from 'lucide-react';
import clsx from 'clsx';
import type { AdminPage } from '#shared/admin';
import { errorMessage, get } from '#client/lib/api.ts';
import { Pager } from '#client/components/ui/pager.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { FormError, inputClass } from '#client/components/ui/field.tsx';

/**
 * An admin list's state lives in the address (?page=&sort=&dir=&q= plus the page's own filters), so
 * a reload or a shared link shows the same rows; paging, sorting and searching happen on the server.
 */
export function useListParams(defaults: Record<string, string> = {}) {
  const [params, setParams] = useSearchParams();
  const value = (name: string) => params.get(name) ?? defaults[name] ?? '';
  const set = (next: Record<string, string | number | null>, resetPage = true) => {
    const merged = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v === null || v === '') merged.delete(k);
      else merged.set(k, String(v));
    }
    if (resetPage && !('page' in next)) merged.delete('page');
    setParams(merged);
  };
  /** the query string for the API call: the address's list params and filters */
  const query = (names: string[]) => {
    const q = new URLSearchParams();
    for (const name of ['page', 'sort', 'dir', 'q', ...names]) {
      const v = value(name);
      if (v) q.set(name, v);
    }
    return q.toString();
  };
  return { value, set, query };
}

/** One page of an admin list (TanStack Query; the previous page stays on screen while the next loads). */
export function useAdminList<T>(queryKey: string, url: string, filters: string[] = []) {
  const list = useListParams();
  const qs = list.query(filters);
  const query = useQuery({
    queryKey: [queryKey, qs],
    queryFn: () => get<AdminPage<T>>(`${url}${qs ? `?${qs}` : ''}`),
    placeholderData: keepPreviousData,
  });
  return { ...query, list };
}

export interface Column<T> {
  /** the API's sort key; sortable when `sortable` */
  key: string;
  label: string;
  sortable?: boolean;
  /**
   * long text (titles, names, addresses, messages): it wraps, anywhere if it must, and takes the width
   * the table has left; the other columns keep their values on one line so short ones are not squeezed
   */
  wrap?: boolean;
  className?: string;
  render: (row: T) => ReactNode;
}

/**
 * A server-side list: search box, sortable headers, rows, and pages. On a phone each row becomes a
 * card (label: value), so nothing scrolls sideways.
 */
export function DataTable<T>({
  result,
  columns,
  rowKey,
  searchLabel,
  empty,
  toolbar,
}: {
  result: ReturnType<typeof useAdminList<T>>;
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  /** the search box's label, e.g. "Search members"; no box when absent */
  searchLabel?: string;
  empty: string;
  /** filters or buttons next to the search box */
  toolbar?: ReactNode;
}) {
  const { list, data, isFetching } = result;
  const sort = data?.sort ?? list.value('sort');
  const dir = data?.dir ?? list.value('dir');
  const toggleSort = (key: string) => list.set({ sort: key, dir: sort === key && dir === 'asc' ? 'desc' : 'asc' });
  return (
    <div className="flex flex-col gap-4">
      {searchLabel || toolbar ? (
        // the search keeps a usable width; filters wrap onto the next line rather than squeeze it
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
          {searchLabel ? (
            <div className="sm:min-w-72 sm:flex-1">
              <SearchBox label={searchLabel} value={list.value('q')} onSearch={(q) => list.set({ q })} />
            </div>
          ) : null}
          {toolbar}
        </div>
      ) : null}
      <ListBody result={result} empty={empty}>
        {(page) => (
          <RowsTable
            caption={`${page.total} ${page.total === 1 ? 'row' : 'rows'}, page ${page.page} of ${page.pages}`}
            rows={page.data}
            columns={columns}
            rowKey={rowKey}
            sort={{ key: sort, dir, toggle: toggleSort }}
            className={clsx(isFetching && 'opacity-70')}
          />
        )}
      </ListBody>
      <ListFooter result={result} />
    </div>
  );
}

/**
 * The console's table of rows: a card per row on a phone (label: value), so nothing scrolls sideways.
 * With `sort`, a `sortable` column's header is a button that sorts by it (a server-side list's).
 */
export function RowsTable<T>({
  caption,
  rows,
  columns,
  rowKey,
  sort,
  className,
}: {
  /** what the table holds, for screen readers */
  caption: string;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  sort?: { key: string; dir: string; toggle: (key: string) => void };
  className?: string | undefined;
}) {
  return (
    <div className={clsx('overflow-hidden rounded-2xl border border-line bg-surface', className)}>
      <table className="w-full border-collapse text-left">
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden border-b border-line bg-surface-2 text-sm text-muted md:table-header-group">
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                aria-sort={sort?.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                className={clsx('whitespace-nowrap px-4 py-2 font-semibold', c.className)}
              >
                {c.sortable && sort ? (
                  <button
                    type="button"
                    onClick={() => sort.toggle(c.key)}
                    className="inline-flex min-h-11 items-center gap-1 hover:text-fg"
                  >
                    {c.label}
                    {sort.key === c.key ? (
                      sort.dir === 'asc' ? (
                        <ArrowUp aria-hidden className="size-4" />
                      ) : (
                        <ArrowDown aria-hidden className="size-4" />
                      )
                    ) : (
                      <ArrowUpDown aria-hidden className="size-4 opacity-50" />
                    )}
                  </button>
                ) : (
                  c.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className="block border-b border-line px-4 py-3 last:border-b-0 md:table-row md:p-0">
              {columns.map((c) => (
                <td
                  key={c.key}
                  className={clsx('flex gap-2 py-1 md:table-cell md:px-4 md:py-3 md:align-middle', c.className)}
                >
                  <span className="w-28 shrink-0 text-sm font-semibold text-muted md:hidden">{c.label}</span>
                  <span className={clsx('min-w-0 wrap-anywhere', !c.wrap && 'md:whitespace-nowrap')}>
                    {c.render(row)}
                  </span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A failed load, in the tinted error box (a list, a detail, a settings page). */
export const LoadError = ({ error }: { error: unknown }) => <FormError message={errorMessage(error, [])} />;

/** What a query shows: a spinner while it loads, the error, or `children(data)`. */
export function Loading<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isError) return <LoadError error={query.error} />;
  if (query.isPending) return <Spinner />;
  return <>{children(query.data)}</>;
}

/**
 * The body of a server-side list: a spinner while the first page loads, the error, the `empty` line,
 * or `children(page)` with the page's rows (a table, or a list of items like the audit log's).
 */
export function ListBody<T>({
  result,
  empty,
  children,
}: {
  result: ReturnType<typeof useAdminList<T>>;
  empty: string;
  children: (page: AdminPage<T>) => ReactNode;
}) {
  if (result.isPending) return <Spinner />;
  if (result.isError) return <LoadError error={result.error} />;
  if (result.data.data.length === 0)
    return (
      <p className="rounded-2xl border border-dashed border-line bg-surface px-4 py-10 text-center text-muted">
        {empty}
      </p>
    );
  return <>{children(result.data)}</>;
}

/** The pager under a server-side list and how many rows match (`unit`: what the rows are, one and many). */
export function ListFooter<T>({
  result,
  unit = ['result', 'results'],
  className,
}: {
  result: ReturnType<typeof useAdminList<T>>;
  unit?: [one: string, many: string];
  className?: string;
}) {
  const { data, list } = result;
  if (!data) return null;
  return (
    <div className={clsx('flex flex-col items-center gap-1', className)}>
      <Pager page={data.page} pages={data.pages} onPage={(page) => list.set({ page }, false)} />
      <p className="text-sm text-muted">
        {data.total} {data.total === 1 ? unit[0] : unit[1]}
      </p>
    </div>
  );
}

/** A search field that searches as you type (after 300 ms) and on Enter. */
export function SearchBox({ label, value, onSearch }: { label: string; value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const { pathname } = useLocation();
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    // a result clicked before the pause is over has opened another page (still loading behind this
    // list): searching then would navigate back to the list
    const id = setTimeout(() => {
      if (window.location.pathname === pathname) onSearch(text.trim());
    }, 300);
    return () => clearTimeout(id);
  }, [text]);
  return (
    <form
      role="search"
      className="flex-1"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(text.trim());
      }}
    >
      <label className="flex flex-col gap-1.5">
        <span className="text-sm font-semibold">{label}</span>
        <span className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute left-3 top-1/2 size-5 -translate-y-1/2 text-muted"
          />
          <input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            className={clsx(inputClass, 'pl-10')}
          />
        </span>
      </label>
    </form>
  );
}

/** A labelled select used as a list filter (its value lives in the address). */
export function FilterSelect({
  label,
  name,
  options,
  list,
}: {
  label: string;
  name: string;
  options: Array<[value: string, label: string]>;
  list: ReturnType<typeof useListParams>;
}) {
  return (
    <label className="flex flex-col gap-1.5 sm:w-56">
      <span className="text-sm font-semibold">{label}</span>
      <select value={list.value(name)} onChange={(e) => list.set({ [name]: e.target.value })} className={inputClass}>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}
