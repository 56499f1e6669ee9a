import { useId, type InputHTMLAttributes } from 'react';
import clsx from 'clsx';

export const inputClass =
  'min-h-12 w-full rounded-xl border border-line bg-surface px-4 text-base text-fg placeholder:text-muted focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-danger';

/** A labelled input with its error in red under it. */
export function Field({
  label,
  error,
  hint,
  className,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | undefined; hint?: string }) {
  const id = useId();
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-err` : undefined}
        className={inputClass}
        {...input}
      />
      {hint && !error ? <p className="text-sm text-muted">{hint}</p> : null}
      {error ? (
        <p id={`${id}-err`} className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The first error of a form, in red; `inline` drops the tinted box (inside modals and short forms). */
export const FormError = ({ message, inline = false }: { message: string | null | undefined; inline?: boolean }) =>
  message ? (
    <p
      role="alert"
      className={clsx('font-medium text-danger', !inline && 'rounded-lg bg-danger-soft px-3 py-2 text-base')}
    >
      {message}
    </p>
  ) : null;
