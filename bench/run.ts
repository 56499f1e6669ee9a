/**
 * `npm run bench`: speed and accuracy goals, reported (not asserted in unit tests).
 *
 * Metronome timeline: for 40, 120, 240 and 400 bpm over 5 minutes of clicks (plus a speed-training
 * run), the worst onset error in sample frames at 48 kHz between the scheduler's click times and the
 * ideal grid computed independently (beat index × 60 / bpm), and how fast clicks are generated.
 * The browser's own rendering of those times is checked by the metronome browser tests.
 */
import { clickTimeline, onsetFrame, speedBpm, type SpeedTraining } from '../src/shared/metronome.ts';

const RATE = 48_000;
const SECONDS = 5 * 60;

function fixed(bpm: number) {
  const started = performance.now();
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
  return { worst, clicks, ms: performance.now() - started };
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

console.log(`metronome timeline, ${SECONDS / 60} minutes, ${RATE} Hz, sixteenth subdivisions`);
for (const bpm of [40, 120, 240, 400]) {
  const r = fixed(bpm);
  console.log(`  ${String(bpm).padStart(3)} bpm: ${String(r.clicks).padStart(6)} clicks, worst onset error ${r.worst} frame(s), ${(r.ms / r.clicks * 1000).toFixed(2)} µs per click`);
}
const t = training({ initialBpm: 60, finalBpm: 400, step: 7, barsPerStep: 2 });
console.log(`  speed training 60→400 (+7 every 2 bars): ${t.clicks} clicks, worst onset error ${t.worst} frame(s)`);
