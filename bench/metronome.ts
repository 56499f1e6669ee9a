/**
 * Metronome timing for `npm run bench`: the worst onset error in sample frames at 48 kHz between the
 * scheduler's click times (src/shared/metronome.ts) and the ideal grid computed independently (beat
 * index × 60 / bpm), over 5 minutes of sixteenth-note clicks at every whole bpm from 40 to 400 (every
 * 40th in BENCH_QUICK), plus a speed-training run from 60 to 400 bpm.
 * The rendered-audio proof (the real page rendering WAVs in Chromium) is tests/e2e's metronome spec.
 */
import { clickTimeline, onsetFrame, speedBpm, type SpeedTraining } from '../src/shared/metronome.ts';

const RATE = 48_000;
const SECONDS = 5 * 60;

function fixed(bpm: number) {
  const it = clickTimeline(0, { bpm, accents: [3, 2, 2, 2], subdivision: [1, 1, 1] });
  let worst = 0;
  let clicks = 0;
  for (const c of it) {
    if (c.time > SECONDS) break;
    const beatIndex = c.bar * 4 + c.beat;
    const ideal = (beatIndex + c.sub / 4) * (60 / bpm);
    worst = Math.max(worst, Math.abs(onsetFrame(c.time, RATE) - Math.round(ideal * RATE)));
    clicks++;
  }
  return { worst, clicks };
}

function training(cfg: SpeedTraining) {
  const it = clickTimeline(0, { bpm: cfg.initialBpm, accents: [3, 2, 2, 2], subdivision: [], speed: cfg });
  let barStart = 0;
  let bar = 0;
  let worst = 0;
  let clicks = 0;
  for (const c of it) {
    if (c.time > SECONDS) break;
    while (bar < c.bar) barStart += (60 / speedBpm(cfg, bar++)) * 4;
    const ideal = barStart + c.beat * (60 / speedBpm(cfg, c.bar));
    worst = Math.max(worst, Math.abs(onsetFrame(c.time, RATE) - Math.round(ideal * RATE)));
    clicks++;
  }
  return { worst, clicks };
}

/** The worst onset error (frames) over the bpm range and the speed-training run, and how many clicks were checked. */
export function metronomeWorst(quick: boolean): { worst: number; clicks: number; tempos: number } {
  let worst = 0;
  let clicks = 0;
  let tempos = 0;
  for (let bpm = 40; bpm <= 400; bpm += quick ? 40 : 1) {
    const r = fixed(bpm);
    worst = Math.max(worst, r.worst);
    clicks += r.clicks;
    tempos++;
  }
  const t = training({ initialBpm: 60, finalBpm: 400, step: 7, barsPerStep: 2 });
  return { worst: Math.max(worst, t.worst), clicks: clicks + t.clicks, tempos };
}
