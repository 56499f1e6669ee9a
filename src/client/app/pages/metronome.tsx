import { Metronome } from '#client/features/metronome/components/metronome.tsx';

/** /metronome: a public page, its own chunk (scripts/initial-js.ts). */
export const MetronomePage = () => <Metronome />;
