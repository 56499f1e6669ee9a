import { forwardRef, type ButtonHTMLAttributes } from 'react';
import clsx from 'clsx';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
export const buttonClass = (variant: Variant = 'primary', full = false) =>
  clsx(
    'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-5 text-base font-semibold wrap-normal transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-60',
    variant === 'primary' && 'bg-accent text-accent-fg hover:bg-accent-strong',
    variant === 'secondary' && 'border border-line bg-surface text-fg hover:bg-surface-2',
    variant === 'ghost' && 'text-fg hover:bg-surface-2',
    variant === 'danger' && 'bg-danger text-danger-fg hover:opacity-90',
    full && 'w-full',
  );

export const Button = forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; full?: boolean }
>(function Button({ variant = 'primary', full, className, type = 'button', ...rest }, ref) {
  return <button ref={ref} type={type} className={clsx(buttonClass(variant, full), className)} {...rest} />;
});
