import { Metronome } from '#client/features/metronome/components/metronome.tsx';
import { PageTitle } from './common.tsx';

/** /metronome: a public page, its own chunk. */
export const MetronomePage = () => (
  <div className="mx-auto max-w-2xl">
    <PageTitle title="Metronome" />
    <Metronome />
  </div>
);
