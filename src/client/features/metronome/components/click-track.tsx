import { useState } from 'react';
import { Download } from 'lucide-react';
import { SUBDIVISIONS, type MetronomeSettings } from '#shared/metronome';
import { Button } from '#client/components/ui/button.tsx';
import { inputClass } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';

const LENGTHS = [1, 2, 5, 10];

/**
 * A click track of the current settings as a WAV file, to play along with anywhere (in the car, in a
 * DAW). Rendered offline on the same exact timeline as the live metronome; with "speed training" it
 * follows the speed-training plan.
 */
export function ClickTrackButton({ settings: s }: { settings: MetronomeSettings }) {
  const [minutes, setMinutes] = useState(2);
  const [training, setTraining] = useState(false);
  const [busy, setBusy] = useState(false);
  const render = async () => {
    setBusy(true);
    try {
      // the audio engine is its own chunk, loaded on first use (not part of the page's initial JavaScript)
      const { encodeWav, renderClickTrack } = await import('../engine.ts');
      const buffer = await renderClickTrack(
        {
          bpm: s.bpm,
          accents: s.accents,
          subdivision: SUBDIVISIONS[s.subdiv] ?? [],
          speed: training ? s.speed : null,
          rhythm: s.rhythm,
          countIn: s.countIn,
          volume: s.volume,
          soundSet: s.soundSet,
        },
        minutes * 60,
      );
      const url = URL.createObjectURL(encodeWav(buffer));
      const a = document.createElement('a');
      a.href = url;
      a.download = training
        ? `click-track-${s.speed.initialBpm}-to-${s.speed.finalBpm}bpm.wav`
        : `click-track-${s.bpm}bpm.wav`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      toast('The click track could not be made in this browser.', 'danger');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section
      aria-labelledby="click-track"
      className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 sm:p-5"
    >
      <h2 id="click-track" className="text-lg font-bold">
        Click track
      </h2>
      <p className="text-muted">Download these settings as an audio file to practise with anywhere.</p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-semibold">
          Length
          <select
            className={`${inputClass} min-h-11 w-36`}
            value={minutes}
            onChange={(e) => setMinutes(Number(e.target.value))}
          >
            {LENGTHS.map((m) => (
              <option key={m} value={m}>
                {m} {m === 1 ? 'minute' : 'minutes'}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-h-11 items-center gap-2 text-base">
          <input
            type="checkbox"
            className="size-5 accent-[var(--accent)]"
            checked={training}
            onChange={(e) => setTraining(e.target.checked)}
          />{' '}
          Follow speed training
        </label>
        <Button variant="secondary" onClick={render} disabled={busy}>
          <Download aria-hidden className="size-5" /> {busy ? 'Rendering...' : 'Download WAV'}
        </Button>
      </div>
    </section>
  );
}
