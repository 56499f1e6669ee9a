import type { ReactNode } from 'react';
import { Spinner } from '#client/components/ui/spinner.tsx';

export const PageTitle = ({
  title,
  subtitle,
  children,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children?: ReactNode;
}) => (
  <div className="mb-6 flex flex-wrap items-end justify-between gap-4 sm:mb-8">
    <div>
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
      {subtitle ? <p className="mt-2 max-w-2xl text-lg text-muted">{subtitle}</p> : null}
    </div>
    {children}
  </div>
);

export const Card = ({ children, className = '' }: { children: ReactNode; className?: string }) => (
  <section className={`rounded-2xl border border-line bg-surface p-5 sm:p-6 ${className}`}>{children}</section>
);

/** A narrow centred card for sign-in and similar forms. */
export const AuthCard = ({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) => (
  <div className="mx-auto w-full max-w-md">
    <div className="rounded-2xl border border-line bg-surface p-6 shadow-sm sm:p-8">
      <h1 className="text-3xl font-extrabold tracking-tight">{title}</h1>
      {subtitle ? <p className="mb-6 mt-2 text-muted">{subtitle}</p> : <div className="mb-6" />}
      {children}
    </div>
  </div>
);

/**
 * In place of a page's parts while the reads they show are in flight, for a page whose parts read
 * separately: they then show together, and none pushes down another that has painted.
 */
export const PartsLoading = () => (
  <div className="grid place-items-center py-16">
    <Spinner />
  </div>
);
