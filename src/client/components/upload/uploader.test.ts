/* eslint-disable max-lines -- the uploader's chunking, retries, pause and resume against one fake transport set up at its top */
import { describe, expect, it, vi } from 'vitest';
import { NO_ACTION_CONFIGURED, UPLOAD_ERROR_MESSAGES, UPLOAD_MESSAGES } from '#shared/upload';
import {
  chunkPlan,
  errorFor,
  formatBytes,
  formatSpeed,
  isRetryable,
  precheck,
  retryDelay,
  runLimited,
  TransportError,
  Uploader,
  withRetries,
  type HttpRequest,
  type HttpResponse,
  type Transport,
} from './uploader.ts';

const MB = 1_048_576;

describe('chunk plan', () => {
  it('cuts a file into chunk-size parts, the last one shorter', () => {
    expect(chunkPlan(3.5 * MB, MB)).toEqual([
      { start: 0, end: MB },
      { start: MB, end: 2 * MB },
      { start: 2 * MB, end: 3 * MB },
      { start: 3 * MB, end: 3.5 * MB },
    ]);
    expect(chunkPlan(MB, MB)).toEqual([{ start: 0, end: MB }]);
    expect(chunkPlan(0, MB)).toEqual([]);
    expect(() => chunkPlan(10, 0)).toThrow();
  });

  it('skips the chunks the server already holds (resume)', () => {
    const plan = chunkPlan(3.5 * MB, MB, [
      [0, MB],
      [2 * MB, 3 * MB],
    ]);
    expect(plan).toEqual([
      { start: MB, end: 2 * MB },
      { start: 3 * MB, end: 3.5 * MB },
    ]);
    // a chunk only partly there is sent again
    expect(chunkPlan(2 * MB, MB, [[0, MB + 10]])).toEqual([{ start: MB, end: 2 * MB }]);
    expect(chunkPlan(2 * MB, MB, [[0, 2 * MB]])).toEqual([]);
  });
});

describe('pre-checks', () => {
  const rules = { extensions: ['mp4', 'mov'], maxSize: 1000 };
  it('checks the extension case-insensitively, then the size', () => {
    expect(precheck({ name: 'Take.MP4', size: 10 }, rules)).toBeNull();
    expect(precheck({ name: 'take.mov', size: 1000 }, rules)).toBeNull();
    expect(precheck({ name: 'take.png', size: 10 }, rules)).toBe('extension');
    expect(precheck({ name: 'mp4', size: 10 }, rules)).toBe('extension');
    expect(precheck({ name: 'take.mp4', size: 1001 }, rules)).toBe('size');
    expect(precheck({ name: 'anything', size: 1e12 }, {})).toBeNull();
  });
});

describe('error mapping (the error codes of docs/product/uploads.md)', () => {
  it('maps answers and their absence to the codes', () => {
    expect(errorFor(new TransportError('network'))).toEqual({
      code: 'network',
      message: UPLOAD_ERROR_MESSAGES.network,
    });
    expect(errorFor(new TransportError('timeout')).code).toBe('timeout');
    expect(errorFor(new TransportError('abort')).code).toBe('abort');
    expect(errorFor({ status: 0, body: null }).code).toBe('network');
    expect(errorFor({ status: 500, body: { message: 'boom' } })).toEqual({
      code: 'server',
      message: UPLOAD_ERROR_MESSAGES.server,
    });
    expect(errorFor({ status: 503, body: null }).code).toBe('server');
    expect(errorFor({ status: 200, body: { status: 'error' } }).code).toBe('server');
    expect(errorFor({ status: 422, body: { status: 'error', message: 'Not a video.' } })).toEqual({
      code: 'denied',
      message: 'Not a video.',
    });
    expect(errorFor({ status: 403, body: null })).toEqual({ code: 'denied', message: UPLOAD_ERROR_MESSAGES.denied });
    expect(errorFor(new Error('odd')).code).toBe('server');
  });

  it('retries what may pass next time, not refusals or cancels', () => {
    expect(isRetryable(new TransportError('network'))).toBe(true);
    expect(isRetryable(new TransportError('timeout'))).toBe(true);
    expect(isRetryable(new TransportError('abort'))).toBe(false);
    expect(isRetryable({ status: 500, body: null })).toBe(true);
    expect(isRetryable({ status: 200, body: { status: 'error' } })).toBe(true);
    expect(isRetryable({ status: 429, body: null })).toBe(true);
    expect(isRetryable({ status: 422, body: null })).toBe(false);
    expect(isRetryable({ status: 404, body: null })).toBe(false);
  });
});

describe('retry', () => {
  it('tries 1 + retries times with growing waits, then throws the last failure', async () => {
    const waits: number[] = [];
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw new TransportError('network');
        },
        { retries: 5, retryable: isRetryable, sleep: async (ms) => void waits.push(ms) },
      ),
    ).rejects.toBeInstanceOf(TransportError);
    expect(calls).toBe(6);
    expect(waits).toEqual([500, 1000, 2000, 4000, 5000]);
    expect(retryDelay(10)).toBe(5000);
  });

  it('stops at once on a failure that is not retryable, and returns the first success', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw { status: 422, body: null };
        },
        { retries: 5, retryable: isRetryable, sleep: async () => undefined },
      ),
    ).rejects.toEqual({ status: 422, body: null });
    expect(calls).toBe(1);
    const result = await withRetries(async (n) => (n < 2 ? Promise.reject(new TransportError('timeout')) : 'ok'), {
      retries: 5,
      retryable: isRetryable,
      sleep: async () => undefined,
    });
    expect(result).toBe('ok');
  });
});

describe('concurrency cap', () => {
  it('never runs more than the limit at once and runs everything', async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await runLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      // work of different lengths (one to three turns of the event loop), so tasks finish out of order
      for (let turn = 0; turn <= n % 3; turn++) await new Promise((r) => setImmediate(r));
      running--;
      done.push(n);
    });
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('stops starting new work after a failure and rejects with it', async () => {
    const started: number[] = [];
    await expect(
      runLimited([1, 2, 3, 4, 5, 6], 2, async (n) => {
        started.push(n);
        if (n === 2) throw new Error('two');
        await new Promise((r) => setImmediate(r));
      }),
    ).rejects.toThrow('two');
    expect(started.length).toBeLessThan(6);
  });
});

describe('formatting', () => {
  it('shows sizes and speeds', () => {
    expect(formatSpeed(2.4 * MB)).toBe('2.4 MB/s');
    expect(formatBytes(3.5 * MB)).toBe('3.5 MB');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(12)).toBe('12 B');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2.0 GB');
  });
});

// ---------------------------------------------------------------------------------------------
// The Uploader against a fake chunked handler

type Fake = Transport & { calls: HttpRequest[]; held: Set<number>; maxInFlight: number };

/** an in-memory chunked handler; `fail(req)` may answer instead (once per call it returns a response) */
function fakeServer(
  opts: {
    chunkSize?: number;
    fail?: (req: HttpRequest, n: number) => HttpResponse | TransportError | null;
    holdChunks?: boolean;
  } = {},
): Fake {
  const chunkSize = opts.chunkSize ?? MB;
  let size = 0;
  let inFlight = 0;
  const fake = (async (req: HttpRequest) => {
    fake.calls.push(req);
    const n = fake.calls.length;
    inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    try {
      // the network's delay: each request answers in a later turn, so several are in flight at once
      await new Promise((r) => setTimeout(r, 1));
      if (opts.holdChunks && req.body instanceof FormData && req.body.get('phase') === 'upload') {
        // keep the chunk in flight until the uploader aborts it
        await new Promise<void>((resolve) =>
          req.signal.aborted ? resolve() : req.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      }
      if (req.signal.aborted) throw new TransportError('abort');
      const failure = opts.fail?.(req, n);
      if (failure instanceof TransportError) throw failure;
      if (failure) return failure;
      if (req.method === 'GET') {
        const received = [...fake.held].sort((a, b) => a - b).map((s) => [s, Math.min(size, s + chunkSize)]);
        return { status: 200, body: { status: 'success', data: { received, size, state: 'open' } } };
      }
      if (req.body instanceof FormData) {
        if (req.body.get('phase') === 'upload') {
          const chunk = req.body.get('chunk') as Blob;
          req.onProgress?.(chunk.size);
          fake.held.add(Number(req.body.get('start_offset')));
          return { status: 200, body: { status: 'success', data: { received: [] } } };
        }
        req.onProgress?.((req.body.get('file') as Blob).size);
        return { status: 200, body: { status: 'success', data: { session_id: 'simple1234' } } };
      }
      const body = req.body as Record<string, unknown>;
      if (body.phase === 'start') {
        size = Number(body.size);
        return { status: 200, body: { status: 'success', data: { session_id: 'sess123456', end_offset: chunkSize } } };
      }
      if (body.phase === 'finish') {
        const all = Math.ceil(size / chunkSize);
        if (fake.held.size < all)
          return { status: 409, body: { status: 'error', message: 'Some parts of this file have not arrived yet.' } };
        return { status: 200, body: { status: 'success', data: { session_id: 'sess123456' } } };
      }
      return { status: 200, body: { status: 'success', data: {} } };
    } finally {
      inFlight--;
    }
  }) as Fake;
  fake.calls = [];
  fake.held = new Set();
  fake.maxInFlight = 0;
  return fake;
}

const video = (size: number, name = 'take.mp4') =>
  Object.assign(new Blob([new Uint8Array(size)], { type: 'video/mp4' }), { name });
const chunkCalls = (f: Fake) => f.calls.filter((c) => c.body instanceof FormData && c.body.get('phase') === 'upload');
const base = {
  postAction: '/uploads',
  chunk: { enabled: true, action: '/uploads/chunked' },
  sleep: async () => undefined,
  speedSampleMs: 5,
};

describe('Uploader', () => {
  it('sends a big file through start, chunks (at most 3 at once) and finish', async () => {
    const server = fakeServer();
    const states: string[] = [];
    const u = new Uploader(video(3.5 * MB), { ...base, transport: server, data: { purpose: 'practice-video' } }, (s) =>
      states.push(s.file.active ? 'active' : s.file.success ? 'success' : s.file.error || 'inactive'),
    );
    expect(u.chunked).toBe(true);
    expect(u.state.file).toMatchObject({
      active: false,
      success: false,
      error: '',
      progress: '0.00',
      name: 'take.mp4',
      size: 3.5 * MB,
    });
    await u.start();
    expect(u.state.file).toMatchObject({ active: false, success: true, error: '', progress: '100.00' });
    expect(u.state.file.response).toEqual({ status: 'success', data: { session_id: 'sess123456' } });
    expect(server.calls[0]!.body).toMatchObject({
      phase: 'start',
      size: 3.5 * MB,
      name: 'take.mp4',
      mime_type: 'video/mp4',
      purpose: 'practice-video',
    });
    expect(
      chunkCalls(server)
        .map((c) => (c.body as FormData).get('start_offset'))
        .sort(),
    ).toEqual(['0', '1048576', '2097152', '3145728']);
    expect(chunkCalls(server).every((c) => c.timeout === 120_000)).toBe(true);
    expect(server.calls.at(-1)!.body).toEqual({ phase: 'finish', session_id: 'sess123456' });
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
    expect(states[0]).toBe('active');
    expect(states.at(-1)).toBe('success');
  });

  it('retries a failed chunk and succeeds', async () => {
    let failed = false;
    const server = fakeServer({
      fail: (req) => {
        if (!failed && req.body instanceof FormData && req.body.get('start_offset') === String(MB)) {
          failed = true;
          return { status: 500, body: null };
        }
        return null;
      },
    });
    const u = new Uploader(video(2.5 * MB), { ...base, transport: server });
    await u.start();
    expect(u.state.file.success).toBe(true);
    expect(chunkCalls(server).filter((c) => (c.body as FormData).get('start_offset') === String(MB))).toHaveLength(2);
  });

  it("gives 'upload' when a chunk still fails after 5 retries; Try again resumes with only the missing chunks", async () => {
    let broken = true;
    const server = fakeServer({
      fail: (req) =>
        broken && req.body instanceof FormData && req.body.get('start_offset') === '0'
          ? new TransportError('network')
          : null,
    });
    const u = new Uploader(video(2.5 * MB), { ...base, transport: server });
    await u.start();
    expect(u.state.file).toMatchObject({ active: false, success: false, error: 'upload' });
    expect(u.state.message).toBe(UPLOAD_ERROR_MESSAGES.upload);
    expect(chunkCalls(server).filter((c) => (c.body as FormData).get('start_offset') === '0')).toHaveLength(6);
    const before = server.calls.length;
    broken = false;
    await u.retry();
    expect(u.state.file.success).toBe(true);
    const after = server.calls.slice(before);
    expect(after[0]!.method).toBe('GET');
    expect(after[0]!.url).toBe('/uploads/chunked/sess123456');
    expect(after.some((c) => (c.body as Record<string, unknown> | undefined)?.phase === 'start')).toBe(false);
    const resent = after.filter((c) => c.body instanceof FormData).map((c) => (c.body as FormData).get('start_offset'));
    expect(resent).toEqual(['0']);
  });

  it("maps a refused start to 'denied' with the server's words, a 5xx finish to 'server'", async () => {
    const refused = fakeServer({
      fail: (req) =>
        (req.body as Record<string, unknown>)?.phase === 'start'
          ? { status: 429, body: { status: 'error', message: 'Too many uploads.' } }
          : null,
    });
    const u = new Uploader(video(2 * MB), { ...base, transport: refused });
    await u.start();
    expect(u.state.file.error).toBe('denied');
    expect(u.state.message).toBe('Too many uploads.');
    const broken = fakeServer({
      fail: (req) => ((req.body as Record<string, unknown>)?.phase === 'finish' ? { status: 502, body: null } : null),
    });
    const v = new Uploader(video(2 * MB), { ...base, transport: broken });
    await v.start();
    expect(v.state.file.error).toBe('server');
    const notSuccess = fakeServer({
      fail: (req) =>
        (req.body as Record<string, unknown>)?.phase === 'start' ? { status: 200, body: { status: 'error' } } : null,
    });
    const w = new Uploader(video(2 * MB), { ...base, transport: notSuccess });
    await w.start();
    expect(w.state.file.error).toBe('server');
  });

  it('sends a small file in one multipart request to postAction', async () => {
    const server = fakeServer();
    const u = new Uploader(video(500_000), { ...base, transport: server, data: { purpose: 'practice-video' } });
    expect(u.chunked).toBe(false);
    await u.start();
    expect(server.calls).toHaveLength(1);
    const form = server.calls[0]!.body as FormData;
    expect(server.calls[0]!.url).toBe('/uploads');
    expect(form.get('purpose')).toBe('practice-video');
    expect((form.get('file') as File).name).toBe('take.mp4');
    expect(u.state.file.success).toBe(true);
  });

  it('checks extension and size before sending, and needs a target', async () => {
    const server = fakeServer();
    const a = new Uploader(video(10, 'holiday.PNG'), { ...base, transport: server, extensions: ['mp4'] });
    await a.start();
    expect(a.state.file.error).toBe('extension');
    expect(a.state.message).toBe(UPLOAD_ERROR_MESSAGES.extension);
    const b = new Uploader(video(2000, 'take.MP4'), { ...base, transport: server, extensions: ['mp4'], maxSize: 1000 });
    await b.start();
    expect(b.state.file.error).toBe('size');
    expect(server.calls).toHaveLength(0);
    const c = new Uploader(video(10), { transport: server });
    await c.start();
    expect(c.state.file.error).toBe(NO_ACTION_CONFIGURED);
    expect(c.state.message).toBe(NO_ACTION_CONFIGURED);
  });

  it("cancelling aborts every request and leaves 'abort'; discard tells the server", async () => {
    const server = fakeServer({ holdChunks: true });
    const u = new Uploader(video(3 * MB), { ...base, transport: server });
    const run = u.start();
    await vi.waitFor(() => expect(chunkCalls(server).length).toBeGreaterThan(0));
    expect(u.state.file.active).toBe(true);
    u.abort();
    expect(u.state.file).toMatchObject({ active: false, error: 'abort' });
    await run;
    expect(u.state.file.error).toBe('abort');
    await u.discard();
    expect(server.calls.at(-1)!.body).toEqual({ phase: 'abort', session_id: 'sess123456' });
  });

  it('reports no-answer failures of a simple upload as network or timeout', async () => {
    const down = fakeServer({ fail: () => new TransportError('network') });
    const u = new Uploader(video(100), { ...base, transport: down });
    await u.start();
    expect(u.state.file.error).toBe('network');
    const slow = fakeServer({ fail: () => new TransportError('timeout') });
    const v = new Uploader(video(100), { ...base, transport: slow });
    await v.start();
    expect(v.state.file.error).toBe('timeout');
  });
});

describe('a file named .mp4 that is not a video', () => {
  it('says so (not "expired") even when a later chunk hears first that the session is gone, and offers no Try again', async () => {
    const wrongType = { status: 422, body: { status: 'error', message: UPLOAD_MESSAGES.wrongType } };
    const expired = { status: 404, body: { status: 'error', message: UPLOAD_MESSAGES.sessionNotFound } };
    let goneSent!: () => void;
    const goneAnswered = new Promise<void>((r) => (goneSent = r));
    const server = fakeServer({
      fail: (req) =>
        req.body instanceof FormData && req.body.get('phase') === 'upload' && req.body.get('start_offset') !== '0'
          ? expired
          : null,
    });
    // the first chunk (which the server sniffs and refuses) answers after the others heard "gone"
    const transport = (async (req: HttpRequest) => {
      const first =
        req.body instanceof FormData && req.body.get('phase') === 'upload' && req.body.get('start_offset') === '0';
      if (!first) {
        const res = await server(req);
        if (res.status === 404) goneSent();
        return res;
      }
      await goneAnswered;
      return wrongType;
    }) as Transport;
    const u = new Uploader(video(3 * MB), { ...base, transport });
    await u.start();
    expect(u.state.message).toBe(UPLOAD_MESSAGES.wrongType);
    expect(u.state.file.error).toBe('extension');
  });
});
