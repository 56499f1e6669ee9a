import { asc, desc, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import type { Database } from '#server/db/client';

/** `%` and `_` in a search are literal characters, not wildcards. */
const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);
/** The `ilike` pattern of a search: the text anywhere, its `%` and `_` literal. */
export const containing = (q: string) => `%${escapeLike(q)}%`;

/** The sort an admin list applies: a known column (else the default) and a direction. */
export function sortOf(
  query: AdminListQuery,
  sorts: Record<string, AnyColumn | SQL>,
  defaultSort: string,
  defaultDir: 'asc' | 'desc' = 'asc',
) {
  const key = query.sort && Object.hasOwn(sorts, query.sort) ? query.sort : defaultSort;
  const dir = query.sort && Object.hasOwn(sorts, query.sort) ? (query.dir ?? 'asc') : (query.dir ?? defaultDir);
  const column = sorts[key]!;
  return { key, dir, order: dir === 'asc' ? asc(column) : desc(column) };
}

/** The page envelope every admin list answers. */
export function pageEnvelope<T>(
  rows: T[],
  total: number,
  query: AdminListQuery,
  sort: { key: string; dir: 'asc' | 'desc' },
): AdminPage<T> {
  return {
    data: rows,
    page: query.page,
    per_page: query.per_page,
    pages: Math.max(1, Math.ceil(total / query.per_page)),
    total,
    sort: sort.key,
    dir: sort.dir,
  };
}

/** `count(*)` as a number: the total of a list's FROM/JOIN/WHERE. */
export const countAll = sql<number>`count(*)::int`;

/** A list's select, ready to be awaited whole or cut to one page with `.limit().offset()`. */
interface PageableSelect<TRow> extends PromiseLike<TRow[]> {
  limit(n: number): { offset(n: number): PromiseLike<TRow[]> };
}

/**
 * One page of a list whose select joins other tables or adds computed columns. `count` is the
 * list's `select({ n: countAll })` over the same FROM/JOIN/WHERE; `rows` its select, already sorted
 * (with a unique column last). `all` answers every row (a CSV of the same search and sort).
 */
export async function pageOfSelect<TRow, TOut>(opts: {
  query: AdminListQuery;
  sort: { key: string; dir: 'asc' | 'desc' };
  count: PromiseLike<{ n: number }[]>;
  rows: PageableSelect<TRow>;
  map: (row: TRow) => TOut;
  all?: boolean;
}): Promise<AdminPage<TOut>> {
  const [count] = await opts.count;
  const rows = opts.all
    ? await opts.rows
    : await opts.rows.limit(opts.query.per_page).offset((opts.query.page - 1) * opts.query.per_page);
  return pageEnvelope(rows.map(opts.map), count?.n ?? 0, opts.query, opts.sort);
}

/**
 * One page of a single-table list, sorted and filtered in SQL (never in memory). Lists that join
 * other tables build their own select and use sortOf / pageOfSelect.
 */
export async function pageOf<TTable extends PgTable, TOut>(
  db: Database,
  opts: {
    table: TTable;
    where: SQL | undefined;
    query: AdminListQuery;
    sorts: Record<string, AnyColumn | SQL>;
    defaultSort: string;
    defaultDir?: 'asc' | 'desc';
    /** a unique column last, so pages never overlap when the sort column ties */
    tiebreak: SQL;
    map: (row: TTable['$inferSelect']) => TOut;
  },
): Promise<AdminPage<TOut>> {
  const sort = sortOf(opts.query, opts.sorts, opts.defaultSort, opts.defaultDir);
  return pageOfSelect({
    query: opts.query,
    sort,
    count: db
      .select({ n: countAll })
      .from(opts.table as PgTable)
      .where(opts.where),
    rows: db
      .select()
      .from(opts.table as PgTable)
      .where(opts.where)
      .orderBy(sort.order, opts.tiebreak) as unknown as PageableSelect<TTable['$inferSelect']>,
    map: opts.map,
  });
}
