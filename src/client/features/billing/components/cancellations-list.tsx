import { formatDistanceToNow } from 'date-fns';
import { errorMessage } from '#client/lib/api.ts';
import { Pager } from '#client/components/ui/pager.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useCancellations } from '../api/billing.ts';

const OUTCOME: Record<string, string> = {
  cancel: 'Cancelled',
  pause: 'Paused',
  discount: 'Took the discount',
  'upgrade-yearly': 'Upgraded to yearly',
  'upgrade-lifetime': 'Upgraded to lifetime',
  'lifetime-checkout': 'Bought lifetime (PayPal)',
};

/** Admin: why members left, or what they chose instead (spec 002 cancel flows; issue 7). */
export function CancellationsList({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const list = useCancellations(page);
  if (list.isPending) return <Spinner />;
  if (list.isError)
    return (
      <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">
        {errorMessage(list.error, [])}
      </p>
    );
  const { data, pages } = list.data;
  return (
    <>
      {data.length === 0 ? <p className="text-muted">No cancellation feedback yet.</p> : null}
      <ul className="flex flex-col gap-4" aria-label="Cancellation feedback">
        {data.map((r) => (
          <li key={r.id} data-testid={`cancellation-${r.id}`} className="rounded-2xl border border-line bg-surface p-4 sm:p-5">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted">
              <span className="rounded-full bg-accent-soft px-2.5 py-0.5 font-semibold text-accent-strong">{OUTCOME[r.outcome] ?? r.outcome}</span>
              <span className="rounded-full bg-surface-2 px-2.5 py-0.5 font-semibold text-fg">{r.provider === 'paypal' ? 'PayPal' : 'Card'}</span>
              <span>{r.cycle === 'year' ? 'Yearly' : 'Monthly'}</span>
              <span>
                {r.member ? (
                  <a href={r.member.url} className="font-semibold text-fg hover:underline">
                    {r.member.name}
                  </a>
                ) : (
                  'a former member'
                )}
                {r.member ? <span className="break-all"> ({r.member.email})</span> : null}
              </span>
              <time dateTime={r.created_at} title={new Date(r.created_at).toLocaleString()}>
                {formatDistanceToNow(new Date(r.created_at), { addSuffix: true })}
              </time>
            </div>
            <p className="mt-3 font-semibold">{r.reason}</p>
            {r.description ? <p className="mt-1 whitespace-pre-wrap break-words text-muted">{r.description}</p> : null}
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} onPage={onPage} />
    </>
  );
}
