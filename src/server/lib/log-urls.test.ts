import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/api-harness';
import { loggedUrl } from './log-urls.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it('a reset link token never reaches the logs; other addresses are logged as they are', () => {
  expect(loggedUrl('/password/reset/Ab-c_123?utm=mail')).toBe('/password/reset/[token]?utm=mail');
  expect(loggedUrl('/api/password/reset/Ab-c_123')).toBe('/api/password/reset/[token]');
  expect(loggedUrl('/lessons/3?x=/password/reset')).toBe('/lessons/3?x=/password/reset');
});

it("the app's request log line goes through it", () => {
  const serializers = (
    t.app.log as unknown as Record<symbol, { req: (req: unknown) => { url: string; method: string } }>
  )[Symbol.for('pino.serializers')]!;
  const line = serializers.req({
    method: 'GET',
    url: '/password/reset/secret-token',
    host: 'x',
    ip: '203.0.113.9',
    socket: null,
  });
  expect(line).toMatchObject({ method: 'GET', url: '/password/reset/[token]' });
});
