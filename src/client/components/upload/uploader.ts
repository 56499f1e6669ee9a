import { CSRF_HEADER } from '#shared/constants';
import {
  missingRanges,
  NO_ACTION_CONFIGURED,
  receivedBytes,
  UPLOAD_DEFAULTS,
  UPLOAD_ERROR_MESSAGES,
  UPLOAD_MESSAGES,
  type ByteRange,
  type UploadErrorCode,
  type UploadFileObject,
  type UploadSessionStatus,
} from '#shared/upload';

/*
 * The generic upload component (docs/product/uploads.md: file object, states, chunked handler, error
 * codes, defaults), framework-free: React reaches it through use-upload.ts. Everything that decides
 * something (the chunk plan, retries, the concurrency cap, error mapping, speed) is a plain function
 * here, tested without a browser; requests go through a Transport (XMLHttpRequest in the browser, for
 * upload progress).
 */

// ---------------------------------------------------------------------------------------------
// Transport

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  /** FormData (multipart) or a JSON value */
  body?: FormData | Record<string, unknown>;
  headers?: Record<string, string>;
  /** ms; 0 = none */
  timeout: number;
  signal: AbortSignal;
  /** bytes of the body sent so far */
  onProgress?: (loaded: number) => void;
}
export interface HttpResponse {
  status: number;
  body: unknown;
}
/** A request that got no answer: the connection dropped, it timed out, or it was cancelled. */
export class TransportError extends Error {
  constructor(readonly kind: 'network' | 'timeout' | 'abort') {
    super(kind);
  }
}
export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

function csrfToken(): string {
  if (typeof document === 'undefined') return '';
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  if (meta) return meta;
  try {
    const config = JSON.parse(document.getElementById('page-config')?.textContent || '{}') as { csrfToken?: string };
    return config.csrfToken ?? '';
  } catch {
    return '';
  }
}

/** XMLHttpRequest (upload progress events), with the CSRF header as src/client/lib/api.ts sends it. */
export const xhrTransport: Transport = (req) =>
  new Promise<HttpResponse>((resolve, reject) => {
    if (req.signal.aborted) return reject(new TransportError('abort'));
    const xhr = new XMLHttpRequest();
    xhr.open(req.method, req.url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (req.method !== 'GET') {
      const token = csrfToken();
      if (token) xhr.setRequestHeader(CSRF_HEADER, token);
    }
    for (const [k, v] of Object.entries(req.headers ?? {})) xhr.setRequestHeader(k, v);
    let body: XMLHttpRequestBodyInit | null = null;
    if (req.body instanceof FormData) body = req.body;
    else if (req.body !== undefined) {
      xhr.setRequestHeader('Content-Type', 'application/json');
      body = JSON.stringify(req.body);
    }
    xhr.timeout = req.timeout;
    if (req.onProgress && body) xhr.upload.onprogress = (e) => req.onProgress?.(e.loaded);
    const onAbort = () => xhr.abort();
    req.signal.addEventListener('abort', onAbort, { once: true });
    const done = () => req.signal.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      const rotated = xhr.getResponseHeader(CSRF_HEADER);
      const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
      if (rotated && meta) meta.content = rotated;
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = null;
      }
      resolve({ status: xhr.status, body: parsed });
    };
    xhr.onerror = () => (done(), reject(new TransportError('network')));
    xhr.ontimeout = () => (done(), reject(new TransportError('timeout')));
    xhr.onabort = () => (done(), reject(new TransportError('abort')));
    xhr.send(body);
  });

// ---------------------------------------------------------------------------------------------
// Pure parts

export interface ChunkPart {
  start: number;
  end: number;
}

/** The chunks of a file of `size` bytes still to send, given the ranges the server already holds. */
export function chunkPlan(size: number, chunkSize: number, received: readonly ByteRange[] = []): ChunkPart[] {
  if (chunkSize <= 0) throw new Error('chunk size must be positive');
  const missing = missingRanges(received, size);
  const parts: ChunkPart[] = [];
  for (let start = 0; start < size; start += chunkSize) {
    const end = Math.min(size, start + chunkSize);
    if (missing.some(([s, e]) => s < end && e > start)) parts.push({ start, end });
  }
  return parts;
}

/** The extension and size checks made before anything is sent (case-insensitive). */
export function precheck(
  file: { name: string; size: number },
  rules: { extensions?: readonly string[] | undefined; maxSize?: number | undefined },
): UploadErrorCode | null {
  if (rules.extensions?.length) {
    const dot = file.name.lastIndexOf('.');
    const ext = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
    if (!rules.extensions.map((e) => e.toLowerCase()).includes(ext)) return 'extension';
  }
  if (rules.maxSize !== undefined && rules.maxSize > 0 && file.size > rules.maxSize) return 'size';
  return null;
}

export interface UploadFailure {
  code: UploadErrorCode;
  message: string;
}

const serverMessage = (body: unknown) => {
  const m = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof m === 'string' && m.trim() ? m : null;
};

/**
 * Error codes (docs/product/uploads.md): no answer -> network / timeout / abort; 5xx -> server; 4xx -> denied (with the
 * server's words when it sent some); an answer whose `status` is not success -> server.
 */
export function errorFor(outcome: HttpResponse | TransportError | unknown): UploadFailure {
  if (outcome instanceof TransportError) return { code: outcome.kind, message: UPLOAD_ERROR_MESSAGES[outcome.kind] };
  if (
    outcome &&
    typeof outcome === 'object' &&
    'status' in outcome &&
    typeof (outcome as HttpResponse).status === 'number'
  ) {
    const res = outcome as HttpResponse;
    if (res.status === 0) return { code: 'network', message: UPLOAD_ERROR_MESSAGES.network };
    const words = serverMessage(res.body);
    // a file whose content is not a video we can play: sending it again cannot work (no Try again)
    if (res.status === 422 && words === UPLOAD_MESSAGES.wrongType) return { code: 'extension', message: words };
    if (res.status >= 400 && res.status < 500)
      return { code: 'denied', message: words ?? UPLOAD_ERROR_MESSAGES.denied };
    return { code: 'server', message: UPLOAD_ERROR_MESSAGES.server };
  }
  return { code: 'server', message: UPLOAD_ERROR_MESSAGES.server };
}

/** true when the answer is a success of the chunked handler: 2xx and `status: 'success'` */
export const isSuccess = (res: HttpResponse) =>
  res.status >= 200 && res.status < 300 && (res.body as { status?: unknown } | null)?.status === 'success';

/** Worth another try: no answer (not a cancel), 5xx, 408/429, or a 2xx that is not a success. */
export function isRetryable(outcome: unknown): boolean {
  if (outcome instanceof TransportError) return outcome.kind !== 'abort';
  const status = (outcome as HttpResponse | null)?.status;
  if (typeof status !== 'number') return false;
  return status === 0 || status >= 500 || status === 408 || status === 429 || (status >= 200 && status < 300);
}

/** Wait before retry n (1-based): 0.5 s, 1 s, 2 s, 4 s, then 5 s. */
export const retryDelay = (n: number) => Math.min(500 * 2 ** (n - 1), 5000);

/**
 * Runs `attempt` until it succeeds, at most 1 + `retries` times, while the failure is retryable.
 * Throws the last failure.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<T>,
  opts: { retries: number; retryable: (err: unknown) => boolean; sleep: (ms: number) => Promise<void> },
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (n >= opts.retries || !opts.retryable(err)) throw err;
      await opts.sleep(retryDelay(n + 1));
    }
  }
}

/**
 * Runs `worker` over `items` with at most `limit` at once. The first failure stops new work and
 * rejects once the running ones have settled.
 */
export async function runLimited<T>(
  items: readonly T[],
  limit: number,
  worker: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const lane = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await worker(item);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw (failure as { err: unknown }).err;
}

/** "2.4 MB/s" */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** "3.5 MB", "820 KB", "12 B" */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round(bytes)} B`;
}

// ---------------------------------------------------------------------------------------------
// The uploader

export interface ChunkOptions {
  enabled?: boolean;
  /** the chunked handler's address */
  action?: string;
  minSize?: number;
  maxActive?: number;
  maxRetries?: number;
  timeoutMs?: number;
}

export interface UploaderOptions {
  /** simple uploads: POST multipart here */
  postAction?: string;
  chunk?: ChunkOptions;
  extensions?: readonly string[];
  maxSize?: number;
  /** extra fields sent with the file (simple) and the start phase (chunked), e.g. purpose */
  data?: Record<string, string>;
  headers?: Record<string, string>;
  /** whole-request timeout of simple/start/finish calls; 0 = none */
  timeout?: number;
  speedSampleMs?: number;
  /** the multipart field of a simple upload */
  fieldName?: string;
  transport?: Transport;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface UploaderState {
  file: UploadFileObject;
  /** what to tell the user about the error ('' when none) */
  message: string;
  /** the chunked session, kept so that Try again resumes it */
  sessionId: string | null;
}

let ids = 0;
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
    this.state = {
      file: {
        id: `upload-${++ids}`,
        name: blob.name,
        size: blob.size,
        type: blob.type,
        active: false,
        error: '',
        success: false,
        progress: '0.00',
        speed: 0,
        response: null,
        data: { ...(options.data ?? {}) },
        headers: { ...(options.headers ?? {}) },
        putAction: '',
        postAction: options.postAction ?? '',
        timeout: this.opts.timeout,
      },
      message: '',
      sessionId: null,
    };
  }

  private get chunkOpts() {
    const c = this.opts.chunk ?? {};
    return {
      enabled: c.enabled ?? UPLOAD_DEFAULTS.chunkEnabled,
      action: c.action ?? '',
      minSize: c.minSize ?? UPLOAD_DEFAULTS.chunkMinSize,
      maxActive: c.maxActive ?? UPLOAD_DEFAULTS.chunkMaxActive,
      maxRetries: c.maxRetries ?? UPLOAD_DEFAULTS.chunkMaxRetries,
      timeoutMs: c.timeoutMs ?? UPLOAD_DEFAULTS.chunkTimeoutMs,
    };
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

/** a retry's wait that ends early (as a cancel) when the upload is aborted */
function abortableSleep(sleep: (ms: number) => Promise<void>, ms: number, signal: AbortSignal) {
  if (signal.aborted) return Promise.reject(new TransportError('abort'));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new TransportError('abort'));
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms).then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}

function toFailure(err: unknown): UploadFailure {
  if (err instanceof ChunkFailed) return { code: 'upload', message: UPLOAD_ERROR_MESSAGES.upload };
  return errorFor(err);
}
