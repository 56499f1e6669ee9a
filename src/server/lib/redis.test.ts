import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '#test/server';
import { privateRedis, REDIS_SERVER, silentListener } from '#test/private-redis';
import { closeRedis, openRedis, redisAddress, RedisMonitor, type RedisClient } from './redis.ts';

/** what the monitor logged, as pino would get it */
function logBook() {
  const lines: Array<{ level: 'error' | 'warn'; obj: Record<string, unknown>; msg: string }> = [];
  return {
    lines,
    log: {
      error: (obj: object, msg: string) =>
        void lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
      warn: (obj: object, msg: string) => void lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    },
  };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function watched(url: string, opts: { remindEveryMs?: number; silentAfterMs?: number } = {}) {
  const client = await openRedis(url);
  const book = logBook();
  const monitor = new RedisMonitor(client, { url, log: book.log, ...opts });
  cleanups.push(async () => {
    monitor.stop();
    await closeRedis(client);
  });
  return { client, monitor, ...book };
}

const countErrors = (client: RedisClient) => {
  let n = 0;
  client.on('error', () => n++);
  return () => n;
};

describe('redisAddress', () => {
  it('leaves the user name and password out of the logs', () => {
    expect(redisAddress('redis://backbeat:s3cret@cache.internal:6380/2')).toBe('redis://cache.internal:6380/2');
    expect(redisAddress('rediss://:s3cret@cache.internal')).toBe('rediss://cache.internal');
    expect(redisAddress('not a url')).not.toMatch(/not a url/);
  });
});

describe('RedisMonitor', () => {
  it('with nothing listening: the start goes on after its wait, says so once, and not again on every retry', async () => {
    const url = `redis://backbeat:s3cret@127.0.0.1:${await freePort()}`;
    const { client, monitor, lines } = await watched(url, { remindEveryMs: 60_000 });
    const errors = countErrors(client);
    const t0 = Date.now();
    expect(await monitor.start(300)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(monitor.up).toBe(false);
    // the client keeps trying in the background; each failure is an error event, not a log line
    await expect.poll(errors, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', obj: { redis: url.replace('backbeat:s3cret@', '') } });
    expect(lines[0]!.msg).toMatch(/^Redis is unavailable: .*503.*reconnecting in the background$/);
    expect(JSON.stringify(lines)).not.toContain('s3cret');
    // and commands fail at once meanwhile, they are not queued
    await expect(client.get('x')).rejects.toThrow();
  });

  it('while Redis stays away, says so again every remindEveryMs', async () => {
    const { monitor, lines } = await watched(`redis://127.0.0.1:${await freePort()}`, { remindEveryMs: 300 });
    await monitor.start(100);
    await expect
      .poll(() => lines.filter((l) => /still unavailable/.test(l.msg)).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    expect(lines.every((l) => l.level === 'error')).toBe(true);
  });

  it('with a listener that never answers: the start goes on after its wait', async () => {
    const listener = await silentListener();
    cleanups.push(() => listener.close());
    const { monitor, lines } = await watched(listener.url);
    expect(await monitor.start(300)).toBe(false);
    expect(listener.connections()).toBeGreaterThanOrEqual(1);
    expect(lines.map((l) => l.level)).toEqual(['error']);
  });

  it.runIf(!!REDIS_SERVER)(
    'notices Redis coming, going silent and coming back; tells its listeners; commands never hang',
    async () => {
      const redis = await privateRedis({ started: false });
      cleanups.push(() => redis.dispose());
      const { client, monitor, lines } = await watched(redis.url, { silentAfterMs: 1000 });
      const changes: boolean[] = [];
      monitor.onChange((up) => changes.push(up));
      expect(await monitor.start(100)).toBe(false);

      await redis.start();
      await expect.poll(() => monitor.up, { timeout: 10_000 }).toBe(true);
      expect(lines.at(-1)).toMatchObject({ level: 'warn', msg: expect.stringMatching(/^Redis is available again/) });
      expect(await client.set('k', 'v')).toBe('OK');

      // stopped, not closed: the connection stays open and nothing answers
      redis.pause();
      const waiting = client.get('k').then(
        () => 'answered',
        (err: unknown) => err,
      );
      await expect.poll(() => monitor.up, { timeout: 10_000 }).toBe(false);
      // what was waiting on the silent connection fails, and what comes next fails at once
      expect(await waiting).toBeInstanceOf(Error);
      const t0 = Date.now();
      await expect(client.get('k')).rejects.toThrow();
      expect(Date.now() - t0).toBeLessThan(500);
      expect(lines.at(-1)).toMatchObject({ level: 'error', obj: { reason: 'no answer within 1000 ms' } });

      redis.resume();
      await expect.poll(() => monitor.up, { timeout: 15_000 }).toBe(true);
      expect(await client.get('k')).toBe('v');
      expect(changes).toEqual([true, false, true]);
    },
    40_000,
  );
});
