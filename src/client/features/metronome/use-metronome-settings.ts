import { useCallback, useEffect, useState } from 'react';
import { METRONOME, START_UP, type MetronomeSettings } from '#shared/metronome';

const STORAGE_KEY = 'bb.metronome.settings';

/** saved settings over the start-up ones, the speed and rhythm groups field by field */
function withStartUp(saved: Partial<MetronomeSettings>): MetronomeSettings {
  return {
    ...START_UP,
    ...saved,
    speed: { ...START_UP.speed, ...saved.speed },
    rhythm: { ...START_UP.rhythm, ...saved.rhythm },
  };
}

function loadSettings(): MetronomeSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<MetronomeSettings> | null;
    return saved ? withStartUp(saved) : START_UP;
  } catch {
    return START_UP;
  }
}

const bpmInRange = (bpm: number) => Math.min(METRONOME.bpmMax, Math.max(1, bpm));

/** The metronome's settings, kept in this browser between visits. */
export function useMetronomeSettings() {
  const [settings, setSettings] = useState<MetronomeSettings>(loadSettings);
  useEffect(() => localStorage.setItem(STORAGE_KEY, JSON.stringify(settings)), [settings]);

  const update = useCallback((patch: Partial<MetronomeSettings>) => setSettings((old) => ({ ...old, ...patch })), []);
  const setBpm = useCallback((bpm: number) => update({ bpm: bpmInRange(bpm) }), [update]);
  /** a step from the tempo as it stands: steps faster than the page redraws each build on the one before */
  const stepBpm = useCallback(
    (step: number) => setSettings((old) => ({ ...old, bpm: bpmInRange(old.bpm + step) })),
    [],
  );
  /** a playlist entry replaces every setting */
  const load = useCallback((entry: MetronomeSettings) => setSettings(withStartUp(entry)), []);

  return { settings, update, setBpm, stepBpm, load };
}

export type SettingsUpdate = (patch: Partial<MetronomeSettings>) => void;
