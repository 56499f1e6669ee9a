import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { METRONOME } from '#shared/metronome';

/** The committed samples are what scripts/make-metronome-sounds.ts writes: 3 sets × 3, PCM WAV, onset at frame 0. */
it('serves three sound sets of three samples, each starting on its first frame', () => {
  for (let set = 0; set < METRONOME.soundSets; set++) {
    for (let n = 1; n <= METRONOME.samplesPerSet; n++) {
      const file = readFileSync(
        path.resolve(import.meta.dirname, `../../src/client/public/metronome-assets/${set}_${n}.wav`),
      );
      expect(file.toString('ascii', 0, 4)).toBe('RIFF');
      expect(file.toString('ascii', 8, 12)).toBe('WAVE');
      expect([file.readUInt16LE(20), file.readUInt16LE(22), file.readUInt32LE(24)]).toEqual([1, 1, 44_100]);
      // the click is audible within its first millisecond
      const early = Array.from({ length: 44 }, (_, i) => Math.abs(file.readInt16LE(44 + i * 2)));
      expect(Math.max(...early)).toBeGreaterThan(1000);
    }
  }
});
