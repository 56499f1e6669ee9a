import { SONG } from '#shared/songmapper';

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'retrying' | 'offline' | 'error';

export interface SaveError {
  /** HTTP status, or 0 when the request never reached the server */
  status: number;
  message: string;
  /** a refusal's messages by field (`song.title`, `song.sections.0.measures`), as the server's 422 names them */
  errors?: Record<string, string[]>;
}

interface Options<T> {
  save: (value: T, id: string | null) => Promise<{ id: string }>;
  onStatus: (status: SaveStatus, error: SaveError | null) => void;
  /** the first save answered an id */
  onId: (id: string) => void;
  debounceMs?: number;
  savedMs?: number;
  retryMs?: number;
  retryMaxMs?: number;
  isOnline?: () => boolean;
}

/** Worth trying again: the network, the server having a bad moment, or a rate limit. */
const retryable = (e: SaveError) => e.status === 0 || e.status >= 500 || e.status === 429 || e.status === 408;

/**
 * Autosave (docs/product/song-mapper.md), made safe: a change waits `debounceMs` (1 s) then saves; one request at a
 * time, so the first save's id is known before the next (never two songs for one); a change made
 * while a request is out is saved right after it; a failure keeps the edit and tries again with a
 * growing wait, and says so instead of "Saved!". `dirty` is true until the latest edit is stored.
 */
export class Autosaver<T> {
  private latest: T | null = null;
  private version = 0;
  private savedVersion = 0;
  private inFlight = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private savedTimer: ReturnType<typeof setTimeout> | null = null;
  private wait: number;
  private stopped = false;
  id: string | null;

  constructor(
    id: string | null,
    private readonly o: Options<T>,
  ) {
    this.id = id;
    this.wait = o.retryMs ?? SONG.retryMs;
  }

  get dirty() {
    return this.version !== this.savedVersion;
  }

  /** a change: save it after the debounce */
  change(value: T) {
    this.latest = value;
    this.version += 1;
    this.o.onStatus('saving', null);
    this.schedule(this.o.debounceMs ?? SONG.autosaveMs);
  }

  /** save now (the browser is going offline-to-online, or the page is being hidden) */
  flush() {
    if (this.dirty && !this.inFlight) this.schedule(0);
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.savedTimer) clearTimeout(this.savedTimer);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, ms);
  }

  private async run() {
    if (this.inFlight || !this.dirty || this.latest === null || this.stopped) return;
    if (this.o.isOnline && !this.o.isOnline()) {
      this.o.onStatus('offline', null);
      return; // flush() on the 'online' event tries again
    }
    this.inFlight = true;
    const version = this.version;
    try {
      const { id } = await this.o.save(this.latest, this.id);
      if (this.stopped) return;
      if (!this.id) {
        this.id = id;
        this.o.onId(id);
      }
      this.savedVersion = Math.max(this.savedVersion, version);
      this.wait = this.o.retryMs ?? SONG.retryMs;
      if (this.dirty) {
        // edited while the request was out: save again after the usual pause
        this.o.onStatus('saving', null);
        this.schedule(this.o.debounceMs ?? SONG.autosaveMs);
      } else {
        this.o.onStatus('saved', null);
        if (this.savedTimer) clearTimeout(this.savedTimer);
        this.savedTimer = setTimeout(
          () => !this.dirty && !this.stopped && this.o.onStatus('idle', null),
          this.o.savedMs ?? SONG.savedIndicatorMs,
        );
      }
    } catch (err) {
      if (this.stopped) return;
      const e = toSaveError(err);
      if (retryable(e)) {
        this.o.onStatus(e.status === 0 && this.o.isOnline && !this.o.isOnline() ? 'offline' : 'retrying', e);
        this.schedule(this.wait);
        this.wait = Math.min(this.wait * 2, this.o.retryMaxMs ?? SONG.retryMaxMs);
      } else {
        // the server refused this version (invalid, signed out, deleted elsewhere): say why and keep it
        this.o.onStatus('error', e);
      }
    } finally {
      this.inFlight = false;
    }
  }
}

export function toSaveError(err: unknown): SaveError {
  if (err && typeof err === 'object' && 'status' in err && typeof err.status === 'number') {
    const e: SaveError = { status: err.status, message: err instanceof Error ? err.message : 'Not saved.' };
    if ('errors' in err && err.errors && typeof err.errors === 'object')
      e.errors = err.errors as Record<string, string[]>;
    return e;
  }
  return { status: 0, message: err instanceof Error ? err.message : 'Not saved.' };
}
