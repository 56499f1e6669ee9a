import { useId, useRef, useState, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Link } from '#client/components/ui/link.tsx';
import { ImageUp, Plus, X } from 'lucide-react';
import clsx from 'clsx';
import type { z } from '#shared/zod';
import { ADMIN_IMAGE, type AdminImageResponse } from '#shared/admin';
import { api, ApiError, NETWORK_ERROR } from '#client/lib/api.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { FormError, inputClass, TextAreaField } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';

export type FieldErrors = Record<string, string>;

/** Zod issues as "field path" -> first message, the same keys the server's 422 answers use. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'form';
    out[key] ??= issue.message;
  }
  return out;
}

/**
 * A form's errors from both sides, shown the way every form shows them (components/ui/form-feedback.ts):
 * `check(values)` validates with the shared schema before sending (the same schema the route uses),
 * `fromServer(err)` shows a 422's field messages next to their fields and anything else as the form's
 * own error. Either way the summary is announced and focus moves to the first wrong field of the form
 * being submitted.
 */
export function useFormErrors() {
  const feedback = useFormFeedback();
  return {
    errors: feedback.errors,
    /** the announced summary line (FormButtons shows it) */
    formError: feedback.summary,
    formRef: feedback.formRef,
    /** the message for one field (its own key, or the first nested key under it) */
    of: feedback.error,
    clear: feedback.clear,
    check<S extends z.ZodType>(schema: S, values: unknown, form?: HTMLFormElement | null): z.infer<S> | null {
      const parsed = schema.safeParse(values);
      if (parsed.success) {
        feedback.clear();
        return parsed.data;
      }
      const { form: own, ...fields } = zodFieldErrors(parsed.error);
      feedback.show(fields, own ?? null, form);
      return null;
    },
    fromServer(err: unknown, form?: HTMLFormElement | null) {
      feedback.fail(err, undefined, form);
    },
  };
}

function Labelled({
  id,
  label,
  error,
  hint,
  children,
  className,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
  className?: string | undefined;
}) {
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {children}
      {hint && !error ? <p className="text-sm text-muted">{hint}</p> : null}
      {error ? (
        <p id={`${id}-err`} className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled text area with its error under it: the shared field (components/ui/field.tsx). */
export const TextArea = TextAreaField;

export function Select({
  label,
  error,
  hint,
  className,
  options,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  options: Array<[value: string, label: string]>;
}) {
  const id = useId();
  return (
    <Labelled id={id} label={label} error={error} hint={hint} className={className}>
      <select
        id={id}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-err` : undefined}
        className={inputClass}
        {...rest}
      >
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </Labelled>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
  hint,
  error,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ReactNode;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="flex min-h-11 cursor-pointer items-center gap-3 font-semibold">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={!!error || undefined}
          aria-describedby={error ? `${id}-err` : undefined}
          className="size-5 accent-accent"
        />
        {label}
      </label>
      {hint && !error ? <p className="text-sm text-muted">{hint}</p> : null}
      {error ? (
        <p id={`${id}-err`} className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * An image field: shows the current image, uploads a new one to POST /api/admin/images (checked by
 * content on the server, like members' uploads) and hands back its address.
 */
export function ImageField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string | null;
  onChange: (url: string | null) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const shown = uploadError ?? error;
  async function upload(file: File) {
    setBusy(true);
    setUploadError(null);
    try {
      const form = new FormData();
      form.append(ADMIN_IMAGE.field, file);
      const res = await api<AdminImageResponse>('POST', '/api/admin/images', form);
      onChange(res.url);
    } catch (err) {
      setUploadError(err instanceof ApiError ? (err.firstError([ADMIN_IMAGE.field]) ?? err.message) : NETWORK_ERROR);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }
  return (
    <div className="flex flex-col gap-1.5">
      <span id={`${id}-label`} className="text-sm font-semibold">
        {label}
      </span>
      <div className="flex items-center gap-3">
        <div className="grid size-20 shrink-0 place-items-center overflow-hidden rounded-xl border border-line bg-surface-2">
          {value ? (
            <img src={value} alt="" className="size-full object-cover" />
          ) : (
            <ImageUp aria-hidden className="size-6 text-muted" />
          )}
        </div>
        <label
          htmlFor={id}
          className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-line bg-surface px-4 font-semibold hover:bg-surface-2 focus-within:ring-2 focus-within:ring-accent/40"
        >
          {busy ? <Spinner /> : null}
          {value ? 'Replace image' : 'Upload image'}
          <input
            ref={input}
            id={id}
            type="file"
            accept="image/png,image/jpeg,image/gif"
            aria-invalid={!!shown || undefined}
            aria-describedby={shown ? `${id}-err` : undefined}
            className="sr-only"
            disabled={busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void upload(file);
            }}
          />
        </label>
        {value ? (
          <button
            type="button"
            onClick={() => onChange(null)}
            className="inline-flex min-h-11 items-center gap-1 rounded-xl px-3 text-muted hover:bg-surface-2 hover:text-fg"
          >
            <X aria-hidden className="size-4" /> Remove
          </button>
        ) : null}
      </div>
      {shown ? (
        <p id={`${id}-err`} className="text-sm font-medium text-danger">
          {shown}
        </p>
      ) : null}
    </div>
  );
}

/** The heading of an admin page: title, one line of what it is for, and its main actions. */
export function AdminTitle({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{title}</h1>
        {description ? <p className="mt-1 max-w-2xl text-muted">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** A white card holding one form or one group of settings. */
export const Panel = ({ title, children, className }: { title?: string; children: ReactNode; className?: string }) => (
  <section className={clsx('rounded-2xl border border-line bg-surface p-4 sm:p-6', className)}>
    {title ? <h2 className="mb-4 text-lg font-bold">{title}</h2> : null}
    {children}
  </section>
);

/** A link back to where the admin came from, above the page's title ("← Courses"). */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="mb-2">
      <Link to={to} className="text-accent-strong hover:underline">
        ← {children}
      </Link>
    </p>
  );
}

/** The "New …" button of a list page's title, a link to the page that creates one. */
export function NewLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={buttonClass()}>
      <Plus aria-hidden className="size-5" /> {children}
    </Link>
  );
}

/**
 * The end of a form: its error line, then Cancel (when `onCancel` is given), any other `children`
 * buttons, and the submit button; stacked on a phone (submit on top), in a row on the right above.
 */
export function FormButtons({
  error,
  busy,
  label = 'Save',
  onCancel,
  children,
}: {
  error: string | null;
  busy: boolean;
  label?: string;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      <FormError message={error} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        {children}
        <Button type="submit" disabled={busy}>
          {label}
        </Button>
      </div>
    </>
  );
}

export type Tone = 'neutral' | 'good' | 'warn' | 'bad';

/** A small coloured label for a state (active, hidden, refunded...). */
export function StatusBadge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={clsx(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-semibold',
        tone === 'neutral' && 'bg-surface-2 text-muted',
        tone === 'good' && 'bg-success-soft text-success',
        tone === 'warn' && 'bg-warning-soft text-warning',
        tone === 'bad' && 'bg-danger-soft text-danger',
      )}
    >
      {children}
    </span>
  );
}

/** The tone of each state the console shows (orders, subscriptions, invoices, live shows, moderated items). */
export const STATE_TONES: Record<string, Tone> = {
  paid: 'good',
  active: 'good',
  trialing: 'good',
  live: 'good',
  visible: 'good',
  pending: 'warn',
  requires_action: 'warn',
  past_due: 'warn',
  paused: 'warn',
  scheduled: 'warn',
  failed: 'bad',
  refunded: 'bad',
  hidden: 'bad',
  canceled: 'neutral',
  ended: 'neutral',
};

/** A state's badge in its tone from STATE_TONES (neutral when the state has none). */
export const StateBadge = ({ state, children }: { state: string; children: ReactNode }) => (
  <StatusBadge tone={STATE_TONES[state] ?? 'neutral'}>{children}</StatusBadge>
);
