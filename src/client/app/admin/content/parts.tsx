import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { slugify } from '#shared/admin-content';
import { get } from '#client/lib/api.ts';
import { BackLink } from '#client/components/admin/form.tsx';
import { Loading } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { twoCols } from './editing.ts';

/** moves item i one place (up = -1, down = +1) in a copy of the list */
export function moved<T>(list: T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (j < 0 || j >= list.length) return list;
  const next = [...list];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}

/** Up / down / remove buttons of one row of an ordered editor (each with a name a screen reader says). */
export function RowTools({
  label,
  index,
  count,
  onMove,
  onRemove,
}: {
  label: string;
  index: number;
  count: number;
  onMove: (by: -1 | 1) => void;
  onRemove?: () => void;
}) {
  return (
    <div className="flex shrink-0 gap-1">
      <button
        type="button"
        aria-label={`Move ${label} up`}
        disabled={index === 0}
        onClick={() => onMove(-1)}
        className="grid size-11 place-items-center rounded-xl text-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40"
      >
        <ArrowUp aria-hidden className="size-5" />
      </button>
      <button
        type="button"
        aria-label={`Move ${label} down`}
        disabled={index === count - 1}
        onClick={() => onMove(1)}
        className="grid size-11 place-items-center rounded-xl text-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40"
      >
        <ArrowDown aria-hidden className="size-5" />
      </button>
      {onRemove ? (
        <button
          type="button"
          aria-label={`Remove ${label}`}
          onClick={onRemove}
          className="grid size-11 place-items-center rounded-xl text-danger hover:bg-danger-soft"
        >
          <Trash2 aria-hidden className="size-5" />
        </button>
      ) : null}
    </div>
  );
}

export const AddButton = ({ children, onClick }: { children: ReactNode; onClick: () => void }) => (
  <Button variant="secondary" onClick={onClick} className="self-start">
    <Plus aria-hidden className="size-5" /> {children}
  </Button>
);

/** Loads one object for an edit page: a spinner, the error, or the page. */
export function useLoaded<T>(key: unknown[], url: string | null) {
  return useQuery({ queryKey: key, queryFn: async () => (await get<{ data: T }>(url!)).data, enabled: url !== null });
}

/** One kind of object with a list page and an edit page (courses, stages, achievements). */
export interface Resource {
  /** its name in toasts ("Stage saved.") */
  noun: string;
  /** the list's name on the edit page's link back ("← Stages") */
  plural: string;
  /** the API: GET/POST on it, GET/PUT/DELETE on `${api}/:id` */
  api: string;
  /** the list page; the edit pages are `${page}/new` and `${page}/:id` */
  page: string;
  /** the cache keys: [queryKey, id] for one, [listKey, ...] for the list */
  queryKey: string;
  listKey: string;
}

/**
 * The page at `<page>/new` and `<page>/:id`: the link back to the list, then `children(null)` (a new
 * one) or `children(item)` once it has loaded.
 */
export function EditPage<T>({ resource, children }: { resource: Resource; children: (item: T | null) => ReactNode }) {
  const { id } = useParams();
  const isNew = id === 'new' || id === undefined;
  const query = useLoaded<T>([resource.queryKey, id], isNew ? null : `${resource.api}/${id}`);
  return (
    <>
      <BackLink to={resource.page}>{resource.plural}</BackLink>
      {isNew ? children(null) : <Loading query={query}>{children}</Loading>}
    </>
  );
}

/** The save row of a form: its error line and the main button. */
export function SaveRow({
  error,
  busy,
  label = 'Save',
  extra,
}: {
  error: string | null;
  busy: boolean;
  label?: string;
  extra?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 border-t border-line pt-4">
      <FormError message={error} />
      <div className="flex flex-wrap items-center gap-3">
        {/* busy is aria-disabled, not disabled: a disabled button loses focus, and focus stays on Save
            through the save (the toast announces the result) */}
        <Button
          type="submit"
          aria-disabled={busy}
          className="aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
        >
          {busy ? <Spinner /> : null}
          {label}
        </Button>
        {extra}
      </div>
    </div>
  );
}

/**
 * A name and its slug side by side. A new item's slug follows the name (slugified) until the slug is
 * typed in itself; a saved item's slug stays as it is, since its address is already out there.
 */
export function NameSlugFields({
  label,
  name,
  slug,
  nameError,
  slugError,
  slugHint,
  saved,
  onChange,
}: {
  label: string;
  name: string;
  slug: string;
  nameError: string | undefined;
  slugError: string | undefined;
  slugHint?: string;
  saved: boolean;
  onChange: (next: { name: string; slug: string }) => void;
}) {
  const [slugTouched, setSlugTouched] = useState(saved);
  return (
    <div className={twoCols}>
      <Field
        label={label}
        value={name}
        error={nameError}
        onChange={(e) => onChange({ name: e.target.value, slug: slugTouched ? slug : slugify(e.target.value) })}
      />
      <Field
        label="Slug"
        value={slug}
        error={slugError}
        hint={slugHint}
        onChange={(e) => {
          setSlugTouched(true);
          onChange({ name, slug: e.target.value });
        }}
      />
    </div>
  );
}
