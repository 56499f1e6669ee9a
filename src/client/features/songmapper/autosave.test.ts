import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Autosaver, type SaveStatus } from './autosave.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function setup(opts: { online?: () => boolean } = {}) {
  const statuses: SaveStatus[] = [];
  const calls: Array<{ value: string; id: string | null }> = [];
  const ids: string[] = [];
  let answer: (value: string, id: string | null) => Promise<{ id: string }> = async (_v, id) => ({
    id: id ?? 'new-id',
  });
  const saver = new Autosaver<string>(null, {
    save: (value, id) => {
      calls.push({ value, id });
      return answer(value, id);
    },
    onStatus: (s) => statuses.push(s),
    onId: (id) => ids.push(id),
    ...(opts.online ? { isOnline: opts.online } : {}),
  });
  return { saver, statuses, calls, ids, setAnswer: (fn: typeof answer) => (answer = fn) };
}

it('saves 1 s after the last change, shows Saved! for 1.5 s, and takes the first id', async () => {
  const { saver, statuses, calls, ids } = setup();
  saver.change('a');
  await vi.advanceTimersByTimeAsync(600);
  saver.change('ab');
  await vi.advanceTimersByTimeAsync(999);
  expect(calls).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls).toEqual([{ value: 'ab', id: null }]);
  expect(ids).toEqual(['new-id']);
  expect(statuses.at(-1)).toBe('saved');
  await vi.advanceTimersByTimeAsync(1499);
  expect(statuses.at(-1)).toBe('saved');
  await vi.advanceTimersByTimeAsync(1);
  expect(statuses.at(-1)).toBe('idle');
  saver.change('abc');
  await vi.advanceTimersByTimeAsync(1000);
  expect(calls.at(-1)).toEqual({ value: 'abc', id: 'new-id' });
  expect(saver.dirty).toBe(false);
});

it('never sends two first saves: an edit during the first request waits for its id', async () => {
  const { saver, calls, setAnswer } = setup();
  let release: () => void = () => undefined;
  setAnswer(() => new Promise((resolve) => (release = () => resolve({ id: 'the-id' }))));
  saver.change('one');
  await vi.advanceTimersByTimeAsync(1000);
  saver.change('two');
  await vi.advanceTimersByTimeAsync(5000);
  expect(calls).toHaveLength(1);
  setAnswer(async (_v, id) => ({ id: id! }));
  release();
  await vi.advanceTimersByTimeAsync(1000);
  expect(calls).toEqual([
    { value: 'one', id: null },
    { value: 'two', id: 'the-id' },
  ]);
  expect(saver.dirty).toBe(false);
});

it('a failed save keeps the edit, says so, and retries with a growing wait until it lands', async () => {
  const { saver, statuses, calls, setAnswer } = setup();
  let failures = 3;
  setAnswer(async (_v, id) => {
    if (failures-- > 0) throw new TypeError('Failed to fetch');
    return { id: id ?? 'x' };
  });
  saver.change('keep me');
  await vi.advanceTimersByTimeAsync(1000);
  expect(statuses.at(-1)).toBe('retrying');
  expect(saver.dirty).toBe(true);
  await vi.advanceTimersByTimeAsync(2000); // second try
  await vi.advanceTimersByTimeAsync(4000); // third
  expect(calls).toHaveLength(3);
  expect(statuses).not.toContain('saved');
  await vi.advanceTimersByTimeAsync(8000);
  expect(calls).toHaveLength(4);
  expect(calls.every((c) => c.value === 'keep me')).toBe(true);
  expect(statuses.at(-1)).toBe('saved');
  expect(saver.dirty).toBe(false);
});

it('a refused save (422, 401, 404) is not retried and not called saved; the next edit tries again', async () => {
  const { saver, statuses, calls, setAnswer } = setup();
  setAnswer(async () => {
    throw new HttpError(422, 'The bpm may not be greater than 4 digits.');
  });
  saver.change('bad');
  await vi.advanceTimersByTimeAsync(60_000);
  expect(calls).toHaveLength(1);
  expect(statuses.at(-1)).toBe('error');
  expect(saver.dirty).toBe(true);
  setAnswer(async () => ({ id: 'ok' }));
  saver.change('good');
  await vi.advanceTimersByTimeAsync(1000);
  expect(statuses.at(-1)).toBe('saved');
});

it('offline: waits without calling the server, then saves on flush when back online', async () => {
  let online = false;
  const { saver, statuses, calls } = setup({ online: () => online });
  saver.change('on the train');
  await vi.advanceTimersByTimeAsync(1000);
  expect(calls).toEqual([]);
  expect(statuses.at(-1)).toBe('offline');
  online = true;
  saver.flush();
  await vi.advanceTimersByTimeAsync(0);
  expect(calls).toEqual([{ value: 'on the train', id: null }]);
  expect(statuses.at(-1)).toBe('saved');
});
