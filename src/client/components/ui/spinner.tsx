import { Loader2 } from 'lucide-react';
import clsx from 'clsx';

export const Spinner = ({ label = 'Loading', className }: { label?: string; className?: string }) => (
  <span role="status" aria-label={label} className={clsx('inline-flex items-center justify-center', className)}>
    <Loader2 aria-hidden className="size-6 animate-spin text-accent motion-reduce:animate-none" />
  </span>
);
