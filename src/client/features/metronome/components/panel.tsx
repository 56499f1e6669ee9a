import { useId } from 'react';
import { ChevronDown } from 'lucide-react';
import clsx from 'clsx';

/**
 * One of the three settings panels: a heading with a disclosure button (aria-expanded, aria-controls)
 * and its region; one panel is open at a time (the page keeps which). A plain disclosure rather than
 * Radix Accordion keeps the page's initial JavaScript small (scripts/initial-js.ts).
 */
export function Panel({
  title,
  open,
  onToggle,
  children,
}: {
  title: string;
  open: boolean;
  onToggle: () => void;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <div className="rounded-2xl border border-line bg-surface">
      <h2>
        <button
          type="button"
          id={`${id}-trigger`}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={onToggle}
          className="flex min-h-14 w-full items-center justify-between px-5 text-lg font-bold"
        >
          {title}
          <ChevronDown aria-hidden className={clsx('size-5 transition-transform duration-150', open && 'rotate-180')} />
        </button>
      </h2>
      {open ? (
        <div id={`${id}-panel`} role="region" aria-labelledby={`${id}-trigger`} className="px-5 pb-5">
          {children}
        </div>
      ) : null}
    </div>
  );
}
