import { useState } from 'react';
import { NotebookPen } from 'lucide-react';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { inputClass } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { errorMessage } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { logSpeedRun } from '../api/playlist.ts';

/**
 * After a speed-training run: "Log to journal" writes one journal exercise with the starting and the
 * reached tempo, so the learning area's tempo charts fill themselves. Visitors are offered sign-in.
 */
export function SpeedRunLog({ from, to, onDone }: { from: number; to: number; onDone: () => void }) {
  const [exercise, setExercise] = useState('Speed training');
  const [busy, setBusy] = useState(false);
  const signedIn = pageConfig().authId !== null;
  const log = async () => {
    setBusy(true);
    try {
      await logSpeedRun(exercise.trim() || 'Speed training', from, to);
      toast('Logged to your practice journal.');
      onDone();
    } catch (err) {
      toast(errorMessage(err, ['exercises'], 'That did not work. Please try again.'), 'danger');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div
      role="region"
      aria-label="Speed-training run"
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface-2 p-4"
    >
      <p className="text-base">
        You went from <strong className="tabular">{from} bpm</strong> to <strong className="tabular">{to} bpm</strong>.
      </p>
      {signedIn ? (
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm font-semibold">
            Exercise
            <input
              className={inputClass}
              value={exercise}
              maxLength={200}
              onChange={(e) => setExercise(e.target.value)}
            />
          </label>
          <Button onClick={log} disabled={busy}>
            <NotebookPen aria-hidden className="size-5" /> Log to journal
          </Button>
        </div>
      ) : (
        <a href="/login?to=/metronome" className={buttonClass('secondary')}>
          Sign in to log runs to your practice journal
        </a>
      )}
    </div>
  );
}
