import {
  NO_ACTION_CONFIGURED,
  receivedBytes,
  UPLOAD_DEFAULTS,
  UPLOAD_ERROR_MESSAGES,
  type ByteRange,
  type UploadFileObject,
  type UploadSessionStatus,
} from '#shared/upload';
import { abortableSleep, chunkPlan, runLimited, withRetries } from './chunking.ts';
import { TransportError, xhrTransport, type HttpRequest, type HttpResponse } from './transport.ts';
import { errorFor, isRetryable, isSuccess, precheck, type UploadFailure } from './validation.ts';
import { chunkSettings, initialState, type UploaderOptions, type UploaderState } from './upload-state.ts';

export { TransportError, xhrTransport, type HttpRequest, type HttpResponse, type Transport } from './transport.ts';
export { chunkPlan, retryDelay, runLimited, withRetries, type ChunkPart } from './chunking.ts';
export { errorFor, isRetryable, isSuccess, precheck, type UploadFailure } from './validation.ts';
export { formatBytes, formatSpeed } from './format.ts';
export type { ChunkOptions, UploaderOptions, UploaderState } from './upload-state.ts';

/*
 * The generic upload component (docs/product/uploads.md: file object, states, chunked handler, error
 * codes, defaults), framework-free: React reaches it through use-upload.ts. Everything that decides
 * something is a plain function, tested without a browser: the chunk plan, retries and the concurrency
 * cap (chunking.ts), the checks and error mapping (validation.ts); requests go through a Transport
 * (transport.ts: XMLHttpRequest in the browser, for upload progress); the options and the file object
 * live in upload-state.ts. This file moves one file through its states and measures its speed.
 */

const sleepFor = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One file through its states: inactive -> active -> success | error. */
export class Uploader {
  state: UploaderState;
  private readonly opts: Required<
    Pick<UploaderOptions, 'transport' | 'sleep' | 'now' | 'speedSampleMs' | 'timeout' | 'fieldName'>
  > &
    UploaderOptions;
  private controller: AbortController | null = null;
  private runs = 0;
  private chunkSize = 0;
  private confirmed = 0;
  private inFlight = new Map<number, number>();
  private sampler: ReturnType<typeof setInterval> | null = null;
  private lastSample = { at: 0, loaded: 0 };

  constructor(
    readonly blob: Blob & { name: string },
    options: UploaderOptions,
    private readonly onChange: (state: UploaderState) => void = () => undefined,
  ) {
    this.opts = {
      transport: xhrTransport,
      sleep: sleepFor,
      now: () => Date.now(),
      speedSampleMs: UPLOAD_DEFAULTS.speedSampleMs,
      timeout: UPLOAD_DEFAULTS.timeout,
      fieldName: 'file',
      ...options,
    };
    this.state = initialState(blob, options, this.opts.timeout);
  }

  private get chunkOpts() {
    return chunkSettings(this.opts.chunk);
  }

  /** chunked when chunking is on and the file is over chunkMinSize */
  get chunked() {
    const c = this.chunkOpts;
    return c.enabled && this.blob.size > c.minSize;
  }

  private update(patch: Partial<UploadFileObject>, extra: Partial<Omit<UploaderState, 'file'>> = {}) {
    this.state = { ...this.state, ...extra, file: { ...this.state.file, ...patch } };
    this.onChange(this.state);
  }

  private loaded() {
    let n = this.confirmed;
    for (const v of this.inFlight.values()) n += v;
    return Math.min(n, this.blob.size);
  }

  private report() {
    const size = this.blob.size || 1;
    this.update({ progress: ((this.loaded() / size) * 100).toFixed(2) });
  }

  private startSampler() {
    this.lastSample = { at: this.opts.now(), loaded: this.loaded() };
    this.sampler = setInterval(() => {
      const at = this.opts.now();
      const loaded = this.loaded();
      const dt = (at - this.lastSample.at) / 1000;
      if (dt > 0) this.update({ speed: Math.max(0, Math.round((loaded - this.lastSample.loaded) / dt)) });
      this.lastSample = { at, loaded };
    }, this.opts.speedSampleMs);
  }

  private stopSampler() {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = null;
  }

  /** Send the file (or, after an error, resume it). Resolves when it settled (success or error). */
  async start(): Promise<void> {
    if (this.state.file.active || this.state.file.success) return;
    const pre = precheck(this.blob, { extensions: this.opts.extensions, maxSize: this.opts.maxSize });
    if (pre) return this.fail({ code: pre, message: UPLOAD_ERROR_MESSAGES[pre] });
    const action = this.chunked ? this.chunkOpts.action : this.opts.postAction;
    if (!action) {
      this.update({ error: NO_ACTION_CONFIGURED, active: false }, { message: NO_ACTION_CONFIGURED });
      return;
    }
    // a run that was cancelled may still be settling: only the latest run changes the state
    const run = ++this.runs;
    const controller = new AbortController();
    this.controller = controller;
    this.inFlight.clear();
    this.update({ active: true, error: '', success: false, speed: 0 }, { message: '' });
    this.startSampler();
    try {
      const response = this.chunked
        ? await this.sendChunked(controller.signal)
        : await this.sendSimple(controller.signal);
      if (run !== this.runs || controller.signal.aborted) return;
      this.stopSampler();
      this.confirmed = this.blob.size;
      this.inFlight.clear();
      this.update({ active: false, success: true, progress: '100.00', speed: 0, response });
    } catch (err) {
      if (run !== this.runs) return;
      this.stopSampler();
      this.fail(controller.signal.aborted ? { code: 'abort', message: UPLOAD_ERROR_MESSAGES.abort } : toFailure(err));
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  /** Try again: resumes a chunked session (only the missing chunks are sent). */
  retry() {
    return this.start();
  }

  /** Deactivating an active file aborts it: the state changes at once. */
  abort() {
    if (!this.controller) return;
    this.controller.abort();
    this.controller = null;
    this.runs++;
    this.stopSampler();
    this.inFlight.clear();
    this.fail({ code: 'abort', message: UPLOAD_ERROR_MESSAGES.abort });
  }

  /** Abort and tell the server to drop the partial file (the file is removed from the form). */
  async discard() {
    this.abort();
    const id = this.state.sessionId;
    if (!id || this.state.file.success) return;
    this.state = { ...this.state, sessionId: null };
    await this.opts
      .transport({
        method: 'POST',
        url: this.chunkOpts.action,
        body: { phase: 'abort', session_id: id },
        timeout: 10_000,
        signal: new AbortController().signal,
      })
      .catch(() => undefined);
  }

  private fail(f: UploadFailure) {
    this.update({ active: false, success: false, error: f.code, speed: 0 }, { message: f.message });
  }

  private async call(
    req: Omit<HttpRequest, 'signal' | 'timeout'> & { timeout?: number },
    signal: AbortSignal,
  ): Promise<HttpResponse> {
    const res = await this.opts.transport({
      timeout: this.opts.timeout,
      ...req,
      headers: { ...this.opts.headers, ...req.headers },
      signal,
    });
    return res;
  }

  private async sendSimple(signal: AbortSignal) {
    const form = new FormData();
    for (const [k, v] of Object.entries(this.opts.data ?? {})) form.append(k, v);
    form.append(this.opts.fieldName, this.blob, this.blob.name);
    this.confirmed = 0;
    const res = await this.call(
      {
        method: 'POST',
        url: this.opts.postAction!,
        body: form,
        onProgress: (loaded) => {
          this.inFlight.set(0, Math.min(loaded, this.blob.size));
          this.report();
        },
      },
      signal,
    );
    if (!isSuccess(res)) throw res;
    return res.body;
  }

  private async sendChunked(signal: AbortSignal) {
    const c = this.chunkOpts;
    let received: ByteRange[] = [];
    // resume: ask where the session stands; a session that is gone starts again
    if (this.state.sessionId) {
      const res = await this.call(
        { method: 'GET', url: `${c.action}/${encodeURIComponent(this.state.sessionId)}` },
        signal,
      ).catch((err: unknown) => {
        if (err instanceof TransportError) throw err;
        return null;
      });
      const data = res && isSuccess(res) ? ((res.body as { data?: UploadSessionStatus }).data ?? null) : null;
      if (data && data.state === 'open' && data.size === this.blob.size) received = data.received;
      else if (data && data.state === 'complete') return this.finish(signal);
      else this.state = { ...this.state, sessionId: null };
    }
    if (!this.state.sessionId) {
      const res = await this.call(
        {
          method: 'POST',
          url: c.action,
          body: {
            phase: 'start',
            mime_type: this.blob.type || 'application/octet-stream',
            size: this.blob.size,
            name: this.blob.name,
            ...this.opts.data,
          },
        },
        signal,
      );
      if (!isSuccess(res)) throw res;
      const data = (res.body as { data?: { session_id?: unknown; end_offset?: unknown } }).data;
      if (typeof data?.session_id !== 'string') throw { status: 500, body: null } satisfies HttpResponse;
      this.chunkSize =
        typeof data.end_offset === 'number' && data.end_offset > 0 ? data.end_offset : UPLOAD_DEFAULTS.chunkMinSize;
      this.update({}, { sessionId: data.session_id });
    }
    if (!this.chunkSize) this.chunkSize = UPLOAD_DEFAULTS.chunkMinSize;
    const sessionId = this.state.sessionId!;
    this.confirmed = receivedBytes(received);
    this.report();
    const plan = chunkPlan(this.blob.size, this.chunkSize, received);
    // already-held bytes inside a chunk we send again are counted by the chunk itself
    for (const part of plan)
      for (const [s, e] of received) this.confirmed -= Math.max(0, Math.min(e, part.end) - Math.max(s, part.start));

    // The refusals of this run's chunks: when the server refuses the file's first bytes it closes the
    // session, and chunks still in flight may hear that the session is gone; the refusal says why.
    const refusals: HttpResponse[] = [];
    const gone = (r: HttpResponse) => r.status === 404;
    await runLimited(plan, c.maxActive, async (part) => {
      try {
        await withRetries(
          async () => {
            const form = new FormData();
            form.append('phase', 'upload');
            form.append('session_id', sessionId);
            form.append('start_offset', String(part.start));
            form.append('chunk', this.blob.slice(part.start, part.end), 'blob');
            this.inFlight.set(part.start, 0);
            try {
              const res = await this.call(
                {
                  method: 'POST',
                  url: c.action,
                  body: form,
                  timeout: c.timeoutMs,
                  onProgress: (loaded) => {
                    this.inFlight.set(part.start, Math.min(loaded, part.end - part.start));
                    this.report();
                  },
                },
                signal,
              );
              if (!isSuccess(res)) throw res;
            } finally {
              this.inFlight.delete(part.start);
            }
          },
          {
            retries: c.maxRetries,
            retryable: (err) => !signal.aborted && isRetryable(err),
            sleep: (ms) => abortableSleep(this.opts.sleep, ms, signal),
          },
        );
      } catch (err) {
        // a chunk that failed after its retries is 'upload'; a refusal (4xx) keeps its words
        if (err instanceof TransportError && err.kind === 'abort') throw err;
        const status = (err as HttpResponse | null)?.status;
        if (typeof status === 'number' && status >= 400 && status < 500 && !isRetryable(err)) {
          refusals.push(err as HttpResponse);
          throw err;
        }
        throw new ChunkFailed();
      }
      this.confirmed += part.end - part.start;
      this.report();
    }).catch((err: unknown) => {
      throw refusals.find((r) => !gone(r)) ?? err;
    });
    return this.finish(signal);
  }

  private async finish(signal: AbortSignal) {
    const res = await this.call(
      { method: 'POST', url: this.chunkOpts.action, body: { phase: 'finish', session_id: this.state.sessionId } },
      signal,
    );
    if (!isSuccess(res)) throw res;
    return res.body;
  }
}

class ChunkFailed extends Error {}

function toFailure(err: unknown): UploadFailure {
  if (err instanceof ChunkFailed) return { code: 'upload', message: UPLOAD_ERROR_MESSAGES.upload };
  return errorFor(err);
}
