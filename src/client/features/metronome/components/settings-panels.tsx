import { Suspense } from 'react';
import { preloadableLazy } from '#client/lib/preloadable-lazy.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import type { MetronomeEngine } from '../use-metronome-engine.ts';
import type { SettingsProps } from './panel-bodies.tsx';
import { Panel } from './panel.tsx';

// the panels' controls load when one first opens, or as a pointer or focus reaches the panels
const PanelBody = preloadableLazy(() => import('./panel-bodies.tsx').then((m) => ({ default: m.PanelBody })));
const preloadBodies = () => void PanelBody.preload().catch(() => undefined);

export type PanelName = '' | 'meter' | 'speed' | 'rhythm';

const PANELS: [Exclude<PanelName, ''>, string][] = [
  ['meter', 'Meter'],
  ['speed', 'Speed Training'],
  ['rhythm', 'Internal Rhythm Training'],
];

/** Meter, Speed Training and Internal Rhythm Training: one panel open at a time. */
export function SettingsPanels({
  panel,
  onOpen,
  engine,
  ...props
}: SettingsProps & { panel: PanelName; onOpen: (panel: PanelName) => void; engine: MetronomeEngine }) {
  return (
    <div className="flex flex-col gap-2" onPointerOver={preloadBodies} onFocus={preloadBodies}>
      {PANELS.map(([value, title]) => (
        <Panel key={value} title={title} open={panel === value} onToggle={() => onOpen(panel === value ? '' : value)}>
          <Suspense fallback={<Spinner label={`Loading ${title}`} />}>
            <PanelBody panel={value} engine={engine} {...props} />
          </Suspense>
        </Panel>
      ))}
    </div>
  );
}
