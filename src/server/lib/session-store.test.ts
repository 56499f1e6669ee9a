import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createTestApp, type TestApp } from '#test/api-harness';
import { closeRedis, openRedis, whenReady, type RedisClient } from './redis.ts';
import { databaseSessionStore, redisSessionStore, type SessionStore } from './session-store.ts';

let t: TestApp;
let redis: RedisClient | null = null;
beforeAll(async () => {
  t = await createTestApp();
  if (process.env.REDIS_URL) {
    redis = await openRedis(process.env.REDIS_URL);
    expect(await whenReady(redis, 10_000)).toBe(true);
  }
});
afterAll(async () => {
  if (redis) await closeRedis(redis);
  await t.close();
});

const stores: Array<[string, () => SessionStore | null]> = [
  ['database', () => databaseSessionStore(t.app.deps.db)],
  ['redis', () => (redis ? redisSessionStore(redis, `bbt${randomBytes(4).toString('hex')}`) : null)],
];

describe.each(stores)('%s session store', (name, make) => {
  it.skipIf(name === 'redis' && !process.env.REDIS_URL)(
    'creates, reads, expires and revokes sessions (REDIS_URL needed for redis)',
    async () => {
      const store = make()!;
      const user = await t.createUser();
      const hour = Date.now() + 3_600_000;
      await store.create('session-a-0123456789abcdef', { userId: user.id, remember: false, expiresAt: hour }, {});
      await store.create('session-b-0123456789abcdef', { userId: user.id, remember: true, expiresAt: hour }, {});
      await store.create(
        'session-c-0123456789abcdef',
        { userId: user.id, remember: false, expiresAt: Date.now() - 1 },
        {},
      );
      expect(await store.get('session-a-0123456789abcdef')).toEqual({
        userId: user.id,
        remember: false,
        expiresAt: hour,
      });
      expect(await store.get('session-c-0123456789abcdef')).toBeNull();
      expect(await store.get('unknown-session-0123456789')).toBeNull();
      await store.destroyUser(user.id, 'session-b-0123456789abcdef');
      expect(await store.get('session-a-0123456789abcdef')).toBeNull();
      expect(await store.get('session-b-0123456789abcdef')).not.toBeNull();
      await store.destroy('session-b-0123456789abcdef');
      expect(await store.get('session-b-0123456789abcdef')).toBeNull();
    },
  );
});

it.skipIf(!process.env.REDIS_URL)('with REDIS_URL the app keeps sessions in Redis', async () => {
  const app = await createTestApp({ redisUrl: process.env.REDIS_URL! });
  try {
    const user = await app.createUser();
    const c = await app.client();
    await c.signIn(user.email, user.password);
    const keys = await redis!.keys(`${app.config.keyNamespace}:sess:*`);
    expect(keys.length).toBe(1);
    expect((await c.get('/api/me')).json().user.id).toBe(user.id);
  } finally {
    await app.close();
  }
});
