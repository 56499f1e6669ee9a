import type { ComponentType, ReactNode } from 'react';
import { ChevronRight } from 'lucide-react';
import clsx from 'clsx';
import type { MentorshipPayment, MentorshipStatus } from '#shared/mentorship';
import { formatMoney } from '#shared/money';
import { Spinner } from '#client/components/ui/spinner.tsx';

export const Loading = () => (
  <div className="grid place-items-center py-16">
    <Spinner />
  </div>
);

export const Failed = ({ what }: { what: string }) => (
  <p className="rounded-2xl border border-line bg-surface p-6 text-muted">
    We could not load {what}. It may not exist, or the connection dropped.
  </p>
);

export const percentOf = (done: number, total: number) => (total === 0 ? 0 : Math.round((done / total) * 100));

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div className="flex items-center gap-3">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        className="h-2.5 flex-1 overflow-hidden rounded-full bg-surface-2"
      >
        <div
          className="h-full rounded-full bg-accent transition-[width] duration-200 motion-reduce:transition-none"
          style={{ width: `${percent}%` }}
        />
      </div>
      <span className="w-12 text-right text-sm font-semibold tabular">{percent}%</span>
    </div>
  );
}

type Icon = ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;

/** A dashboard tile: a big number, what it counts, optional progress, the whole tile a link. */
export function Tile({
  href,
  icon: IconC,
  title,
  value,
  detail,
  percent,
  testId,
}: {
  href: string;
  icon: Icon;
  title: string;
  value: ReactNode;
  detail?: ReactNode;
  percent?: number;
  testId?: string;
}) {
  return (
    <a
      href={href}
      data-testid={testId}
      className="group flex min-h-36 flex-col gap-3 rounded-2xl border border-line bg-surface p-5 transition-colors duration-150 hover:border-accent"
    >
      <span className="flex items-center gap-2 font-semibold text-muted group-hover:text-fg">
        <IconC aria-hidden className="size-5 text-accent" />
        <span className="flex-1">{title}</span>
        <ChevronRight aria-hidden className="size-5" />
      </span>
      <span className="text-3xl font-extrabold tracking-tight tabular">{value}</span>
      {detail ? <span className="text-sm text-muted">{detail}</span> : null}
      {percent !== undefined ? <ProgressBar percent={percent} label={`${title} progress`} /> : null}
    </a>
  );
}

export const STATUS_LABELS: Record<MentorshipStatus, string> = {
  active: 'Active',
  past_due: 'Payment late',
  defaulted: 'Access paused',
  completed: 'Paid in full',
  canceled: 'Canceled',
  refunded: 'Refunded',
};

export function StatusBadge({ status }: { status: MentorshipStatus | null }) {
  const tone =
    status === 'active' || status === 'completed'
      ? 'bg-success-soft text-success'
      : status === 'past_due'
        ? 'bg-warning-soft text-warning'
        : status
          ? 'bg-danger-soft text-danger'
          : 'bg-surface-2 text-muted';
  return (
    <span className={clsx('inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-semibold', tone)}>
      {status ? STATUS_LABELS[status] : 'Not enrolled'}
    </span>
  );
}

export const formatDate = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));

/** "2 of 3 instalments paid · next $1,200.00 on 4 Jan 2027", "Paid in full", "No payment on record" */
export function paymentSummary(p: MentorshipPayment): { headline: string; detail: string | null } {
  if (p.kind === 'paid_in_full') return { headline: 'Paid in full', detail: null };
  if (p.kind === 'none') return { headline: 'No payment on record', detail: null };
  const headline = `${p.paid} of ${p.total} instalments paid`;
  if (p.status === 'completed') return { headline, detail: 'All instalments are paid.' };
  if (p.status === 'past_due')
    return { headline, detail: `The last instalment of ${formatMoney(p.amountCents)} did not go through.` };
  if (p.status === 'defaulted' || p.status === 'canceled')
    return { headline, detail: 'This payment plan has stopped.' };
  return { headline, detail: p.nextDueAt ? `Next: ${formatMoney(p.amountCents)} on ${formatDate(p.nextDueAt)}` : null };
}

export const relativeTime = (iso: string | null) => {
  if (!iso) return 'No activity yet';
  const minutes = Math.round((Date.now() - Date.parse(iso)) / 60_000);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (Math.abs(minutes) < 60) return rtf.format(-minutes, 'minute');
  if (Math.abs(minutes) < 60 * 24) return rtf.format(-Math.round(minutes / 60), 'hour');
  return rtf.format(-Math.round(minutes / (60 * 24)), 'day');
};
