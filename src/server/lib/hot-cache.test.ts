import { describe, expect, it, vi } from 'vitest';
import { HotCache } from './hot-cache.ts';

// The rules of the hot-read cache, driven as db/client.ts drives it: `query` as drizzle sends a
// statement (reads are attributed to the load that runs it), `ran` once a statement has finished.
const conn = {};
const load = (cache: HotCache, key: string, sql: string[], value: unknown, ttl = 60_000) =>
  cache.read(key, ttl, async () => {
    for (const s of sql) cache.query(s);
    return value;
  });
const THREAD = ['select "posts"."id" from "posts" left join "users" on "users"."id" = "posts"."user_id"'];

describe('HotCache', () => {
  it('serves a value until a table its load read is written, and only those tables count', async () => {
    const cache = new HotCache({ enabled: true });
    expect(await load(cache, 'k', THREAD, 'v1')).toBe('v1');
    expect(await load(cache, 'k', THREAD, 'v2')).toBe('v1');
    cache.ran(conn, 'insert into "chat_messages" ("body") values ($1)');
    expect(await load(cache, 'k', THREAD, 'v2')).toBe('v1');
    cache.ran(conn, 'update "users" set "name" = $1 where "users"."id" = $2');
    expect(await load(cache, 'k', THREAD, 'v3')).toBe('v3');
    cache.ran(conn, 'with x as (delete from posts where id = 1 returning id) select count(*) from x');
    expect(await load(cache, 'k', THREAD, 'v4')).toBe('v4');
  });

  it('loads that overlap each keep track of what they read, also after the other has finished, and a later load too', async () => {
    const cache = new HotCache({ enabled: true });
    let resume!: () => void;
    const paused = new Promise<void>((r) => (resume = r));
    const slow = cache.read('slow', 60_000, async () => {
      cache.query('select "id" from "live_shows"');
      await paused;
      // the next read comes in a later turn of the event loop, after the quick load has ended
      await new Promise((r) => setImmediate(r));
      cache.query('select "id" from "chat_messages"');
      return 'slow';
    });
    expect(await load(cache, 'quick', THREAD, 'quick')).toBe('quick');
    resume();
    expect(await slow).toBe('slow');
    // the slow load's read, made after the quick one ended, was recorded: a chat write drops it
    expect(cache.lookup('slow')).toBe('slow');
    cache.ran(conn, 'insert into "chat_messages" ("body") values ($1)');
    expect(cache.lookup('slow')).toBeUndefined();
    expect(cache.lookup('quick')).toBe('quick');
    // with nothing loading (the async context switched off), a new load records its reads again
    expect(await load(cache, 'again', ['select "id" from "notifications"'], 'again')).toBe('again');
    cache.ran(conn, 'update "notifications" set "read_at" = now()');
    expect(cache.lookup('again')).toBeUndefined();
  });

  it('does not keep what was loaded while a table it read changed', async () => {
    const cache = new HotCache({ enabled: true });
    const value = await cache.read('k', 60_000, async () => {
      cache.query(THREAD[0]!);
      cache.ran(conn, 'insert into "posts" ("body") values ($1)');
      return 'stale';
    });
    expect(value).toBe('stale');
    expect(cache.lookup('k')).toBeUndefined();
  });

  it('a transaction changes its tables again when it ends: a read between its write and its commit is dropped', async () => {
    const cache = new HotCache({ enabled: true });
    const tx = {};
    cache.ran(tx, 'begin');
    cache.ran(tx, 'insert into "posts" ("body") values ($1)');
    await load(cache, 'k', THREAD, 'before commit');
    expect(cache.lookup('k')).toBe('before commit');
    cache.ran(tx, 'commit');
    expect(cache.lookup('k')).toBeUndefined();
  });

  it('truncate and schema changes forget everything; a load that read nothing is not kept', async () => {
    const cache = new HotCache({ enabled: true });
    await load(cache, 'k', THREAD, 'v');
    cache.ran(conn, 'TRUNCATE notifications, posts CASCADE');
    expect(cache.lookup('k')).toBeUndefined();
    await load(cache, 'nothing', [], 'v');
    expect(cache.lookup('nothing')).toBeUndefined();
  });

  it('entries expire', async () => {
    const cache = new HotCache({ enabled: true });
    await load(cache, 'k', THREAD, 'v', -1);
    expect(cache.lookup('k')).toBeUndefined();
  });

  it('lets go of entries that can no longer be served, though nobody asks for them again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new HotCache({ enabled: true });
      for (let i = 0; i < 5; i++) await load(cache, `short${i}`, THREAD, 'v', 1000);
      await load(cache, 'long', THREAD, 'v', 60_000);
      await load(cache, 'chat', ['select "body" from "chat_messages"'], 'v', 60_000);
      expect(cache.size).toBe(7);
      cache.ran(conn, 'insert into "chat_messages" ("body") values ($1)');
      vi.advanceTimersByTime(1500);
      // the next value kept sweeps the five expired and the one whose table changed
      await load(cache, 'next', THREAD, 'v', 60_000);
      expect(cache.size).toBe(2);
      expect(cache.lookup('long')).toBe('v');
    } finally {
      vi.useRealTimers();
    }
  });

  it('changes heard from elsewhere (another process, Redis sessions) invalidate and are published', async () => {
    const published: string[][] = [];
    const cache = new HotCache({ enabled: true, publish: async (t) => void published.push(t) });
    await cache.read('s', 60_000, async () => 'session', ['sessions']);
    expect(cache.lookup('s')).toBe('session');
    cache.changed(['sessions']);
    expect(cache.lookup('s')).toBeUndefined();
    expect(published).toEqual([['sessions']]);
    await load(cache, 'k', THREAD, 'v');
    cache.bump(['posts']);
    expect(cache.lookup('k')).toBeUndefined();
  });

  it('while the change feed is down nothing is served or kept; it starts empty when the feed is back', async () => {
    const cache = new HotCache({ enabled: true });
    await load(cache, 'k', THREAD, 'v1');
    cache.feedDown();
    expect(cache.active).toBe(false);
    expect(await load(cache, 'k', THREAD, 'v2')).toBe('v2');
    expect(cache.size).toBe(0);
    cache.feedUp();
    expect(cache.active).toBe(true);
    expect(await load(cache, 'k', THREAD, 'v3')).toBe('v3');
    expect(await load(cache, 'k', THREAD, 'v4')).toBe('v3');
  });

  it('turned off, it only passes loads through', async () => {
    const cache = new HotCache({ enabled: false });
    expect(await load(cache, 'k', THREAD, 'v1')).toBe('v1');
    expect(await load(cache, 'k', THREAD, 'v2')).toBe('v2');
    cache.feedUp();
    expect(cache.active).toBe(false);
  });

  it('is bounded in entries and in size', async () => {
    const cache = new HotCache({ enabled: true, maxEntries: 3, maxSize: 1000 });
    for (let i = 0; i < 10; i++) await load(cache, `k${i}`, THREAD, `v${i}`);
    expect(cache.size).toBe(3);
    expect(cache.lookup('k9')).toBe('v9');
    expect(cache.lookup('k0')).toBeUndefined();
    await load(cache, 'big', THREAD, 'x'.repeat(998));
    expect(cache.size).toBeLessThanOrEqual(2);
  });
});
