import { useEffect, useRef, useState } from 'react';
import { toast } from '#client/components/ui/toast.tsx';
import { isolateText } from '#shared/display-text';
import { useMetronomeAnnouncements } from '../use-metronome-announcements.ts';
import { useMetronomeEngine, useSpaceBar } from '../use-metronome-engine.ts';
import { useMetronomeSettings } from '../use-metronome-settings.ts';
import { ClickTrackButton } from './click-track.tsx';
import { Playlist } from './playlist.tsx';
import { SettingsPanels, type PanelName } from './settings-panels.tsx';
import { TempoSection } from './tempo-section.tsx';

/** The metronome page (docs/product/metronome.md): the instrument, its settings panels, the playlist and the click track. */
export function Metronome() {
  const { settings, update, setBpm, stepBpm, load } = useMetronomeSettings();
  const [bpmText, setBpmText] = useState(String(settings.bpm));
  useEffect(() => setBpmText(String(settings.bpm)), [settings.bpm]);
  const engine = useMetronomeEngine(settings, bpmText, update);
  const [panel, setPanel] = useState<PanelName>('');
  const tempoField = useRef<HTMLInputElement>(null);
  const said = useMetronomeAnnouncements(settings, engine, tempoField);

  // space bar: start/stop (speed training in its view)
  useSpaceBar(() => (engine.playing ? engine.stop() : void engine.start(panel === 'speed')));

  const openPanel = (value: PanelName) => {
    // opening the speed or internal rhythm panel stops the metronome (docs/product/metronome.md)
    if ((value === 'speed' || value === 'rhythm') && engine.playing) engine.stop();
    setPanel(value);
  };

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      {/* always on the page, so each change to it is spoken (docs/product/accessibility.md) */}
      <p role="status" className="sr-only" data-testid="metronome-announcement">
        {said}
      </p>
      <TempoSection
        tempoField={tempoField}
        settings={settings}
        engine={engine}
        bpmText={bpmText}
        onBpmText={setBpmText}
        update={update}
        setBpm={setBpm}
        stepBpm={stepBpm}
      />
      <SettingsPanels panel={panel} onOpen={openPanel} settings={settings} update={update} engine={engine} />
      <Playlist
        current={settings}
        onLoad={(entry) => {
          load(entry);
          toast(`Loaded “${isolateText(entry.name)}”.`);
        }}
      />
      <ClickTrackButton settings={settings} />
    </div>
  );
}
