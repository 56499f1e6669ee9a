/**
 * Synthesises the metronome's three sound sets of three samples each into
 * src/client/public/metronome-assets/{set}_{n}.wav (n 1..3 = accent level: 3 loudest).
 * Made by us, from maths: nothing is downloaded. Run: npx tsx scripts/make-metronome-sounds.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const RATE = 44_100;

function wav(samples: Float32Array): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32_767), i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A deterministic noise source, so the files are the same on every run. */
function noise(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) & 0x7fffffff;
    return (s / 0x7fffffff) * 2 - 1;
  };
}

function render(seconds: number, fn: (t: number, i: number) => number): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++) out[i] = fn(i / RATE, i);
  // the first sample is the onset: each partial starts at its peak (cosine), no fade-in delay
  return out;
}

const SETS: Array<(level: number) => Float32Array> = [
  // 0: a clean electronic click
  (level) => {
    const f = [0, 800, 1_100, 1_600][level]!;
    const amp = [0, 0.45, 0.7, 0.95][level]!;
    return render(0.05, (t) => amp * Math.cos(2 * Math.PI * f * t) * Math.exp(-t * 90));
  },
  // 1: a woodblock: resonant tone plus a burst of noise
  (level) => {
    const n = noise(level * 7 + 1);
    const f = [0, 900, 1_250, 1_700][level]!;
    const amp = [0, 0.4, 0.65, 0.9][level]!;
    return render(
      0.06,
      (t) => amp * (0.75 * Math.cos(2 * Math.PI * f * t) * Math.exp(-t * 70) + 0.25 * n() * Math.exp(-t * 400)),
    );
  },
  // 2: a bright beep (two detuned partials)
  (level) => {
    const f = [0, 1_000, 1_500, 2_000][level]!;
    const amp = [0, 0.35, 0.55, 0.8][level]!;
    return render(
      0.07,
      (t) => amp * 0.5 * (Math.cos(2 * Math.PI * f * t) + Math.cos(2 * Math.PI * f * 1.5 * t)) * Math.exp(-t * 55),
    );
  },
];

const dir = path.resolve(import.meta.dirname, '../src/client/public/metronome-assets');
mkdirSync(dir, { recursive: true });
SETS.forEach((make, set) => {
  for (let n = 1; n <= 3; n++) writeFileSync(path.join(dir, `${set}_${n}.wav`), wav(make(n)));
});
console.log(`wrote 9 samples to ${dir}`);
