/**
 * Reading clicks back from a rendered WAV (16-bit mono PCM), for the metronome's timing proof (the
 * browser test) and report (`npm run bench`). Independent of the app's own timing code.
 */
export const TRACK_RATE = 44_100;

/** Sample frames where a click starts: a sample above ~1 % of full scale after 5 ms of silence. */
export function onsets(wav: Buffer): { rate: number; frames: number[] } {
  if (wav.toString('ascii', 0, 4) !== 'RIFF') throw new Error('not a WAV file');
  const rate = wav.readUInt32LE(24);
  const n = wav.readUInt32LE(40) / 2;
  const frames: number[] = [];
  let quiet = Infinity;
  for (let i = 0; i < n; i++) {
    const loud = Math.abs(wav.readInt16LE(44 + i * 2)) > 300;
    if (loud && quiet >= rate * 0.005) frames.push(i);
    quiet = loud ? 0 : quiet + 1;
  }
  return { rate, frames };
}

/** Clicks this close to the end of a track are left out of comparisons (a click exactly on the end is either side of it). */
export const END_MARGIN_S = 0.01;

/** The ideal grid (exact, fractional frames): quarter notes, bar after bar, each bar at its bpm, up to the end margin. */
export function idealFrames(
  seconds: number,
  bpmOfBar: (bar: number) => number,
  rate = TRACK_RATE,
  beats = 4,
): number[] {
  const out: number[] = [];
  const end = seconds - END_MARGIN_S;
  let t = 0;
  for (let bar = 0; t < end; bar++) {
    const beat = 60 / bpmOfBar(bar);
    for (let b = 0; b < beats && t + b * beat < end; b++) out.push((t + b * beat) * rate);
    t += beats * beat;
  }
  return out;
}

/** Found onsets up to the same end margin. */
export const before = (frames: number[], seconds: number, rate = TRACK_RATE) =>
  frames.filter((f) => f < (seconds - END_MARGIN_S) * rate);

/** The worst distance in frames between found and ideal onsets (Infinity when the counts differ). */
export function worstError(found: number[], ideal: number[]): number {
  if (found.length !== ideal.length) return Infinity;
  return Math.max(0, ...found.map((f, i) => Math.abs(f - ideal[i]!)));
}
