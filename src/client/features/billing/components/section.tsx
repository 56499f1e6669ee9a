import type { ReactNode } from 'react';
import clsx from 'clsx';

/** One block of the billing page: a heading and what sits under it. */
export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = `billing-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id} data-testid={testId} className="rounded-2xl border border-line bg-surface p-5 sm:p-6">
      <h2 id={id} className="mb-4 text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A labelled fact (plan, price, date, card). */
export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-sm font-semibold text-muted">{label}</dt>
      <dd className="text-lg font-semibold wrap-anywhere" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The state of something the member has: calm for running, muted for paused or ending, red when a payment is due. */
export function StatusBadge({ tone, children }: { tone: 'good' | 'muted' | 'danger'; children: ReactNode }) {
  return (
    <span
      className={clsx(
        'ml-1 inline-block rounded-full px-2.5 py-0.5 align-middle text-sm whitespace-nowrap',
        tone === 'good' && 'bg-accent-soft text-accent-strong',
        tone === 'muted' && 'bg-surface-2 text-muted',
        tone === 'danger' && 'bg-danger-soft text-danger',
      )}
    >
      {children}
    </span>
  );
}

/** One thing the member has, inside a section: a bordered card when a section lists several. */
export function Holding({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <li data-testid={testId} className="rounded-xl border border-line p-4 sm:p-5">
      {children}
    </li>
  );
}
