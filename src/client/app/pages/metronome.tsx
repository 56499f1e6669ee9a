import { Metronome } from '#client/features/metronome/components/metronome.tsx';

/** /metronome: a public page, its own chunk (issue 9). */
export const MetronomePage = () => <Metronome />;
