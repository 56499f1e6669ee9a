import { describe, expect, it } from 'vitest';
import {
  accentsFor,
  barClicks,
  barSounds,
  clamp,
  digitsOnly,
  doubleNote,
  halveNote,
  METRONOME_WORDS,
  nextAccent,
  SPEED_DEFAULTS,
  speedBpm,
  startableBpm,
  tap,
  tempoName,
  type TapState,
} from './metronome.ts';

describe('tempo names (ten bands)', () => {
  it.each([
    [47, 'Largo'],
    [48, 'Lento'],
    [53, 'Lento'],
    [54, 'Adagio'],
    [59, 'Adagio'],
    [60, 'Andante'],
    [71, 'Andante'],
    [72, 'Moderato'],
    [95, 'Moderato'],
    [96, 'Allegretto'],
    [115, 'Allegretto'],
    [116, 'Allegro'],
    [143, 'Allegro'],
    [144, 'Vivace'],
    [175, 'Vivace'],
    [176, 'Presto'],
    [199, 'Presto'],
    [200, 'Prestissimo'],
    [400, 'Prestissimo'],
  ])('%i bpm is %s', (bpm, name) => expect(tempoName(bpm)).toBe(name));
});

describe('bounds', () => {
  it('clamps to the chosen readings', () => {
    expect([
      clamp('step', 0),
      clamp('step', 150),
      clamp('barsPerStep', 100),
      clamp('rhythmOn', 0),
      clamp('rhythmOff', 0),
      clamp('rhythmOff', 11),
    ]).toEqual([1, 99, 99, 1, 0, 10]);
    expect([clamp('beats', 17), clamp('volume', 95), clamp('initialBpm', 10), clamp('finalBpm', 40)]).toEqual([
      16, 90, 40, 41,
    ]);
  });
  it('a start bpm of 0 or empty does not start; above 400 becomes 400', () => {
    expect([startableBpm(''), startableBpm(0), startableBpm(null), startableBpm('450'), startableBpm(90)]).toEqual([
      null,
      null,
      null,
      400,
      90,
    ]);
  });
  it('numeric inputs take digits only', () => expect(digitsOnly(' 1a2 b3 4')).toBe('123'));
  it('note value halves and doubles between 2 and 8; accents cycle 0–3', () => {
    expect([halveNote(4), halveNote(2), doubleNote(4), doubleNote(8)]).toEqual([2, 2, 8, 8]);
    expect([nextAccent(0), nextAccent(2), nextAccent(3)]).toEqual([1, 3, 0]);
    expect(accentsFor(6, [3, 0, 2, 2])).toEqual([3, 0, 2, 2, 2, 2]);
    expect(accentsFor(2, [3, 0, 2, 2])).toEqual([3, 0]);
  });
});

describe('tap tempo', () => {
  const run = (times: number[]) => {
    let state: TapState = { taps: [] };
    let bpm: number | null = null;
    for (const t of times) ({ state, bpm } = tap(state, t));
    return bpm;
  };
  it('sets the bpm only after more than 3 taps, from the average interval', () => {
    expect(run([0, 500, 1000])).toBeNull();
    expect(run([0, 500, 1000, 1500])).toBe(120);
    expect(run([0, 400, 1000, 1500])).toBe(120);
  });
  it('a gap of 2000 ms or more starts over', () => {
    expect(run([0, 500, 1000, 3000, 3600, 4200])).toBeNull();
    expect(run([0, 500, 1000, 3000, 3600, 4200, 4800])).toBe(100);
  });
});

describe('the click grid', () => {
  it('places beats at 60/bpm and subdivisions between them', () => {
    const clicks = barClicks(120, [3, 2, 2, 2], [1, 1, 1]);
    expect(clicks).toHaveLength(16);
    expect(clicks.slice(0, 5).map((c) => [c.offset, c.beat, c.sub, c.level])).toEqual([
      [0, 0, 0, 3],
      [0.125, 0, 1, 1],
      [0.25, 0, 2, 1],
      [0.375, 0, 3, 1],
      [0.5, 1, 0, 2],
    ]);
    const swing = barClicks(60, [3], [0, 1]);
    expect(swing.map((c) => c.offset)).toEqual([0, 2 / 3]);
  });
  it('a silent accent stays in the grid at level 0', () =>
    expect(barClicks(60, [0, 2], []).map((c) => c.level)).toEqual([0, 2]));
});

describe('speed training', () => {
  it('rises by step after every barsPerStep bars and lands exactly on the final bpm', () => {
    expect(Array.from({ length: 16 }, (_, bar) => speedBpm(SPEED_DEFAULTS, bar))).toEqual([
      60, 60, 70, 70, 80, 80, 90, 90, 100, 100, 110, 110, 120, 120, 120, 120,
    ]);
    expect(
      Array.from({ length: 6 }, (_, bar) =>
        speedBpm({ initialBpm: 100, finalBpm: 125, step: 10, barsPerStep: 1 }, bar),
      ),
    ).toEqual([100, 110, 120, 125, 125, 125]);
  });
});

describe('internal rhythm', () => {
  it('alternates on-bars and off-bars', () => {
    const cfg = { enabled: true, on: 2, off: 1, random: false };
    expect(Array.from({ length: 6 }, (_, b) => barSounds(cfg, b))).toEqual([true, true, false, true, true, false]);
    expect(barSounds({ ...cfg, enabled: false }, 2)).toBe(true);
    expect(Array.from({ length: 3 }, (_, b) => barSounds({ enabled: true, on: 1, off: 0, random: false }, b))).toEqual([
      true,
      true,
      true,
    ]);
  });
  it('random: on or off with probability 1/2', () => {
    const cfg = { enabled: true, on: 1, off: 1, random: true };
    expect(barSounds(cfg, 0, () => 0.49)).toBe(true);
    expect(barSounds(cfg, 0, () => 0.5)).toBe(false);
  });
});

describe('click timeline', () => {
  const take = <T>(it: Iterator<T>, n: number) => Array.from({ length: n }, () => it.next().value as T);
  it('bars follow each other exactly; frames are on the ideal grid', async () => {
    const { clickTimeline, onsetFrame } = await import('./metronome.ts');
    const clicks = take(clickTimeline(1, { bpm: 120, accents: [3, 2, 2, 2], subdivision: [] }), 9);
    expect(clicks.map((c) => c.time)).toEqual([1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5]);
    expect(clicks[4]).toMatchObject({ bar: 1, beat: 0, level: 3 });
    expect(onsetFrame(clicks[1]!.time, 48_000)).toBe(72_000);
  });
  it('a count-in bar comes first; speed training changes tempo at bar boundaries', async () => {
    const { clickTimeline } = await import('./metronome.ts');
    const clicks = take(
      clickTimeline(0, {
        bpm: 999,
        accents: [3, 2],
        subdivision: [],
        countIn: true,
        speed: { initialBpm: 60, finalBpm: 120, step: 60, barsPerStep: 1 },
      }),
      6,
    );
    expect(clicks.map((c) => [c.time, c.bar, c.bpm, c.countIn])).toEqual([
      [0, -1, 60, true],
      [1, -1, 60, true],
      [2, 0, 60, false],
      [3, 0, 60, false],
      [4, 1, 120, false],
      [4.5, 1, 120, false],
    ]);
  });
  it('skips silent accents and off bars of internal rhythm', async () => {
    const { clickTimeline } = await import('./metronome.ts');
    const clicks = take(
      clickTimeline(0, {
        bpm: 60,
        accents: [3, 0],
        subdivision: [],
        rhythm: { enabled: true, on: 1, off: 1, random: false },
      }),
      3,
    );
    expect(clicks.map((c) => [c.time, c.bar])).toEqual([
      [0, 0],
      [4, 2],
      [8, 4],
    ]);
  });
});

describe('what the live region says', () => {
  it('the settled tempo, the start with tempo and meter, the stop, a speed-training step', () => {
    expect(METRONOME_WORDS.tempo(125)).toBe('125 BPM');
    expect(METRONOME_WORDS.playing(120, 4, 4)).toBe('Playing at 120 BPM, 4/4');
    expect(METRONOME_WORDS.playing(90, 7, 8)).toBe('Playing at 90 BPM, 7/8');
    expect(METRONOME_WORDS.stopped).toBe('Stopped');
    expect(METRONOME_WORDS.tempoUp(130)).toBe('Tempo up to 130 BPM');
  });
});
