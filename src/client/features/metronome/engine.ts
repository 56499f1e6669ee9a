import { clickTimeline, gainFor, type TimedClick, type TimelineOptions } from '#shared/metronome';

const LOOKAHEAD_MS = 25;
const SCHEDULE_AHEAD_S = 0.12;
const START_DELAY_S = 0.06;

/** Loads one sound set: samples 1..3 for accent levels 1..3. */
export async function loadSoundSet(ctx: BaseAudioContext, set: number): Promise<AudioBuffer[]> {
  return Promise.all(
    [1, 2, 3].map(async (n) =>
      ctx.decodeAudioData(await (await fetch(`/metronome-assets/${set}_${n}.wav`)).arrayBuffer()),
    ),
  );
}

/**
 * A look-ahead scheduler: a timer wakes every 25 ms and hands Web Audio every click due in the next
 * 120 ms, each with its exact start time on the audio clock. A late timer never moves a click.
 */
export class Scheduler {
  private timer: ReturnType<typeof setInterval> | null = null;
  private timeline: Generator<TimedClick> | null = null;
  private pending: TimedClick | null = null;
  private readonly gain: GainNode;
  private sources = new Set<AudioBufferSourceNode>();
  /** scheduled clicks, for the visual indicator to follow the audio clock */
  readonly played: TimedClick[] = [];

  constructor(
    private readonly ctx: AudioContext,
    private buffers: AudioBuffer[],
  ) {
    this.gain = ctx.createGain();
    this.gain.connect(ctx.destination);
  }

  setVolume(volume: number) {
    this.gain.gain.setValueAtTime(gainFor(volume), this.ctx.currentTime);
  }
  setBuffers(buffers: AudioBuffer[]) {
    this.buffers = buffers;
  }
  get running() {
    return this.timer !== null;
  }

  start(options: TimelineOptions) {
    this.stop();
    this.timeline = clickTimeline(this.ctx.currentTime + START_DELAY_S, options);
    this.pending = this.timeline.next().value ?? null;
    this.tick();
    this.timer = setInterval(() => this.tick(), LOOKAHEAD_MS);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.timeline = null;
    this.pending = null;
    for (const s of this.sources) s.stop();
    this.sources.clear();
    this.played.length = 0;
  }

  /** the click sounding now (the last one at or before the audio clock) */
  current(): TimedClick | null {
    const now = this.ctx.currentTime;
    let last: TimedClick | null = null;
    for (const c of this.played) if (c.time <= now) last = c;
    return last;
  }

  private tick() {
    const until = this.ctx.currentTime + SCHEDULE_AHEAD_S;
    while (this.pending && this.pending.time < until) {
      scheduleClick(this.ctx, this.gain, this.buffers, this.pending, this.sources);
      this.played.push(this.pending);
      if (this.played.length > 64) this.played.shift();
      this.pending = this.timeline?.next().value ?? null;
    }
  }
}

export function scheduleClick(
  ctx: BaseAudioContext,
  out: AudioNode,
  buffers: AudioBuffer[],
  click: TimedClick,
  sources?: Set<AudioBufferSourceNode>,
) {
  const buffer = buffers[Math.min(3, Math.max(1, click.level)) - 1];
  if (!buffer) return;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  source.connect(out);
  source.start(click.time);
  if (sources) {
    sources.add(source);
    source.onended = () => sources.delete(source);
  }
}

/** The click track's sample rate: the sound files' own, so nothing is resampled. */
export const TRACK_RATE = 44_100;

/**
 * Renders `seconds` of clicks offline (OfflineAudioContext): every click is placed at its exact
 * time on the timeline, as the live scheduler does, with no main thread in the way.
 */
export async function renderClickTrack(
  options: TimelineOptions & { volume: number; soundSet: number },
  seconds: number,
): Promise<AudioBuffer> {
  const ctx = new OfflineAudioContext(1, Math.ceil(seconds * TRACK_RATE), TRACK_RATE);
  const buffers = await loadSoundSet(ctx, options.soundSet);
  const gain = ctx.createGain();
  gain.gain.value = gainFor(options.volume);
  gain.connect(ctx.destination);
  for (const click of clickTimeline(0, options)) {
    if (click.time >= seconds) break;
    scheduleClick(ctx, gain, buffers, click);
  }
  return ctx.startRendering();
}

/** 16-bit PCM WAV of a rendered buffer (first channel). */
export function encodeWav(buffer: AudioBuffer): Blob {
  const samples = buffer.getChannelData(0);
  const data = new DataView(new ArrayBuffer(44 + samples.length * 2));
  const text = (at: number, s: string) => [...s].forEach((c, i) => data.setUint8(at + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  data.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  data.setUint32(16, 16, true);
  data.setUint16(20, 1, true);
  data.setUint16(22, 1, true);
  data.setUint32(24, buffer.sampleRate, true);
  data.setUint32(28, buffer.sampleRate * 2, true);
  data.setUint16(32, 2, true);
  data.setUint16(34, 16, true);
  text(36, 'data');
  data.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => data.setInt16(44 + i * 2, Math.round(Math.max(-1, Math.min(1, s)) * 32_767), true));
  return new Blob([data.buffer], { type: 'audio/wav' });
}
