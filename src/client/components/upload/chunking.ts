import { missingRanges, type ByteRange } from '#shared/upload';
import { TransportError } from './transport.ts';

/*
 * How a chunked upload is sent (docs/product/uploads.md): the chunks still missing, retries with their
 * waits, and the cap on chunks in flight at once. Plain functions, tested without a browser.
 */

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

/** a retry's wait that ends early (as a cancel) when the upload is aborted */
export function abortableSleep(sleep: (ms: number) => Promise<void>, ms: number, signal: AbortSignal) {
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
