import { useEffect, useRef, useState } from 'react';
import { Pause, Play, Send } from 'lucide-react';
import { formatElapsed, minutesFromSeconds, TIMER_WORDS } from '#shared/learning';
import { FormError } from '#client/components/ui/field.tsx';
import { navigate } from '#client/lib/browser.ts';
import { useLogTime } from '../api/journal.ts';

/**
 * Practice timer (docs/product/journal.md): play, pause, submit; HH:MM:SS. Submit is offered once it has been
 * started and is stopped; it posts minutes rounded up (at least 1) and follows the answer's redirect.
 * A polite live region says each start, pause and log once (the ticking display is not a live region),
 * and the journal page then says, with focus, how many minutes were logged.
 */
export function PracticeTimer({
  onRedirect = (url: string) => navigate.within(url, '/journal'),
}: {
  onRedirect?: (url: string) => void;
}) {
  const [running, setRunning] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const startedAt = useRef<number | null>(null);
  const base = useRef(0);
  const log = useLogTime();
  const [error, setError] = useState<string | null>(null);
  const [said, setSaid] = useState('');

  useEffect(() => {
    if (!running) return;
    const tick = () => setElapsed(base.current + (Date.now() - startedAt.current!) / 1000);
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [running]);

  const toggle = () => {
    if (running) {
      base.current += (Date.now() - startedAt.current!) / 1000;
      setElapsed(base.current);
      setRunning(false);
      setSaid(TIMER_WORDS.paused(base.current));
    } else {
      startedAt.current = Date.now();
      setRunning(true);
      setSaid(TIMER_WORDS.started(base.current));
    }
  };
  const submit = async () => {
    if (log.isPending) return;
    setError(null);
    const minutes = minutesFromSeconds(elapsed);
    setSaid(TIMER_WORDS.logging(minutes));
    try {
      onRedirect((await log.mutateAsync(minutes)).redirect);
    } catch {
      setSaid('');
      setError('We could not log your practice time. Please try again.');
    }
  };

  return (
    <div className="flex flex-col items-center gap-5 rounded-2xl border border-line bg-surface p-6">
      <p
        role="timer"
        aria-label="Elapsed practice time"
        className="text-5xl font-black tracking-tight tabular sm:text-6xl"
      >
        {formatElapsed(elapsed)}
      </p>
      <p role="status" className="sr-only" data-testid="timer-announcement">
        {said}
      </p>
      <div className="flex gap-3">
        <button
          type="button"
          onClick={toggle}
          aria-label={running ? 'Pause timer' : 'Start timer'}
          className="grid size-16 place-items-center rounded-full bg-accent text-accent-fg hover:bg-accent-strong"
        >
          {running ? <Pause aria-hidden className="size-7" /> : <Play aria-hidden className="size-7 translate-x-0.5" />}
        </button>
        {!running && elapsed > 0 ? (
          <button
            type="button"
            onClick={() => void submit()}
            disabled={log.isPending}
            aria-label="Log practice time"
            className="grid size-16 place-items-center rounded-full border border-line bg-surface hover:bg-surface-2 disabled:opacity-60"
          >
            <Send aria-hidden className="size-7 text-accent-strong" />
          </button>
        ) : null}
      </div>
      <FormError message={error} />
    </div>
  );
}
