import { useId, type ComponentProps, type ReactNode } from 'react';
import clsx from 'clsx';

export const inputClass =
  'min-h-12 w-full rounded-xl border border-line bg-surface px-4 text-base text-fg placeholder:text-muted focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-danger';

/**
 * A labelled input with its error in red under it. `errorId` names the error's element where the form
 * refers to it by an id of its own (a list of rows whose messages the form keys by row);
 * `inputClassName` adds to the input's look (a bigger title, tabular digits).
 */
export function Field({
  label,
  error,
  hint,
  className,
  errorId,
  inputClassName,
  ...input
}: ComponentProps<'input'> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  errorId?: string;
  inputClassName?: string;
}) {
  const id = useId();
  const messageId = errorId ?? `${id}-err`;
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? messageId : undefined}
        className={clsx(inputClass, inputClassName)}
        {...input}
      />
      {hint && !error ? <p className="text-sm text-muted">{hint}</p> : null}
      {error ? (
        <p id={messageId} className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled text area with its error in red under it (the same marks as `Field`). */
export function TextAreaField({
  label,
  error,
  hint,
  className,
  ...rest
}: ComponentProps<'textarea'> & { label: string; error?: string | undefined; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <textarea
        id={id}
        rows={4}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-err` : undefined}
        className={clsx(inputClass, 'py-3')}
        {...rest}
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

/** A form's announced line (its summary or its own error), in red; `inline` drops the tinted box (inside modals and short forms). */
export const FormError = ({ message, inline = false }: { message: string | null | undefined; inline?: boolean }) =>
  message ? (
    <p
      role="alert"
      className={clsx('font-medium text-danger', !inline && 'rounded-lg bg-danger-soft px-3 py-2 text-base')}
    >
      {message}
    </p>
  ) : null;

/**
 * A field's message in red under a control that is not one of the shared fields; the control carries
 * `invalidProps(error, id)` (components/ui/form-feedback.ts) so that it is marked and described by it.
 */
export const FieldMessage = ({ id, message }: { id: string; message: string | undefined }) =>
  message ? (
    <p id={id} className="text-sm font-medium text-danger">
      {message}
    </p>
  ) : null;
