import { format } from 'date-fns';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useJournal, usePracticeSummary } from '../api/journal.ts';

export function JournalHistory() {
  const journal = useJournal();
  if (journal.isPending) return <Spinner />;
  if (journal.isError) return <p className="text-muted">We could not load your journal.</p>;
  const entries = journal.data.pages.flatMap((p) => p.data);
  if (!entries.length)
    return (
      <p className="rounded-2xl border border-dashed border-line p-6 text-center text-muted">
        No entries yet. Your first one is a few taps away.
      </p>
    );
  return (
    <div className="flex flex-col gap-4">
      <ul className="flex flex-col gap-4">
        {entries.map((e) => (
          <li key={e.id} className="rounded-2xl border border-line bg-surface p-5">
            <p className="text-sm font-semibold text-muted">{format(new Date(e.created_at), 'PPPP')}</p>
            <table className="mt-3 w-full text-left">
              <thead>
                <tr className="text-sm text-muted">
                  <th className="py-1 font-semibold">Exercise</th>
                  <th className="w-24 py-1 text-right font-semibold">Start</th>
                  <th className="w-24 py-1 text-right font-semibold">End</th>
                </tr>
              </thead>
              <tbody>
                {e.exercises.map((x, i) => (
                  <tr key={i} className="border-t border-line">
                    <td className="py-2">{x.practicedToday || '—'}</td>
                    <td className="py-2 text-right tabular">{x.startingTempo ? `${x.startingTempo} bpm` : '—'}</td>
                    <td className="py-2 text-right tabular">{x.endingTempo ? `${x.endingTempo} bpm` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {e.notes ? <p className="mt-3 whitespace-pre-wrap text-muted">{e.notes}</p> : null}
          </li>
        ))}
      </ul>
      {journal.hasNextPage ? (
        <Button variant="secondary" onClick={() => void journal.fetchNextPage()} className="self-center">
          Load older entries
        </Button>
      ) : null}
    </div>
  );
}

export function PracticeSummary() {
  const summary = usePracticeSummary();
  const s = summary.data;
  return (
    <div className="grid grid-cols-2 gap-4">
      {[
        ['Today', s?.today],
        ['Last 7 days', s?.week],
      ].map(([label, minutes]) => (
        <div key={label as string} className="rounded-2xl border border-line bg-surface p-5">
          <p className="text-sm font-semibold text-muted">{label}</p>
          <p className="text-3xl font-black tabular">
            {minutes ?? '—'}
            <span className="ml-1 text-base font-semibold text-muted">min</span>
          </p>
        </div>
      ))}
    </div>
  );
}
