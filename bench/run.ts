/**
 * `npm run bench`: speed and accuracy goals, reported (not asserted in unit tests).
 *
 * Metronome timeline: for 40, 120, 240 and 400 bpm over 5 minutes of clicks (plus a speed-training
 * run), the worst onset error in sample frames at 48 kHz between the scheduler's click times and the
 * ideal grid computed independently (beat index × 60 / bpm), and how fast clicks are generated.
 * Then the same for audio the real page renders in Chromium (see `rendered` below).
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

// ---- rendered audio: the real page renders 5-minute click tracks in Chromium (OfflineAudioContext)
// and every onset is read back from the WAV. Needs the built client (`npm run build`).
async function rendered() {
  const { existsSync, mkdtempSync, rmSync } = await import('node:fs');
  const { readFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const { chromium } = await import('playwright-core');
  const { findChromium } = await import('../scripts/find-chromium.ts');
  const { startServer } = await import('../tests/support/server.ts');
  const { before, idealFrames, onsets, worstError } = await import('../tests/support/onsets.ts');
  if (!existsSync(path.resolve(import.meta.dirname, '../dist/client/index.html'))) {
    console.log('rendered audio: skipped (run `npm run build` first)');
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-bench-'));
  const server = await startServer({ NODE_ENV: 'production', DEMO: '0', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' });
  const info = await findChromium();
  const browser = await chromium.launch({ executablePath: info.path, args: info.args });
  try {
    const page = await (await browser.newContext({ baseURL: server.url })).newPage();
    await page.goto('/metronome');
    await page.getByLabel('Length').selectOption('5');
    console.log('metronome rendered audio, 5 minutes each, OfflineAudioContext at 44.1 kHz, onsets read back from the WAV');
    for (const bpm of [40, 120, 240, 400]) {
      const field = page.getByLabel('BPM', { exact: true });
      await field.fill(String(bpm));
      await field.press('Tab');
      const started = performance.now();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download WAV' }).click()]);
      const frames = before(onsets(await readFile((await download.path())!)).frames, SECONDS);
      const ms = performance.now() - started;
      const ideal = idealFrames(SECONDS, () => bpm);
      console.log(`  ${String(bpm).padStart(3)} bpm: ${frames.length}/${ideal.length} clicks found, worst onset error ${worstError(frames, ideal).toFixed(3)} frame(s), rendered and read in ${ms.toFixed(0)} ms`);
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
await rendered();

// ---- community reads at scale (issue 5): thread page and chat history at 1,000 and 100,000 posts
const { communityBench } = await import('./community.ts');
await communityBench();
