import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/api-harness';
import { API_DOCS_PREFIX, apiTag } from './api-docs.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

interface Operation {
  'x-access'?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** `/a/:id/b` as OpenAPI writes it: `/a/{id}/b` (and a wildcard `/a/*` as `/a/{*}`) */
const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');

describe('the generated API reference', () => {
  let doc: Doc;
  beforeAll(async () => {
    const res = await (await t.client()).get(`${API_DOCS_PREFIX}/json`);
    expect(res.statusCode).toBe(200);
    doc = res.json() as Doc;
  });

  it('lists every registered route with the access class it declares', () => {
    const wrong = t.app.routeList
      .filter((r) => !r.url.startsWith(API_DOCS_PREFIX))
      .filter((r) => doc.paths[openapiPath(r.url)]?.[r.method.toLowerCase()]?.['x-access'] !== r.access)
      .map((r) => `${r.method} ${r.url}`);
    expect(wrong).toEqual([]);
  });

  it('declares what every route answers (its response schema, docs/api.md)', () => {
    const undeclared = t.app.routeList
      .filter((r) => !r.url.startsWith(API_DOCS_PREFIX))
      .filter((r) => !r.schema.response || Object.keys(r.schema.response).length === 0)
      .map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });

  it("describes a call's body from its zod schema, grouped by its address", () => {
    const pin = doc.paths['/api/forums/topics/{id}/pin']!.post!;
    expect(pin['x-access']).toBe('moderation');
    expect(pin.tags).toEqual(['forums']);
    expect(Object.keys(pin.requestBody!.content['application/json']!.schema.properties ?? {})).toContain('pinned');
    expect(apiTag('/api/admin/members/:id')).toBe('admin');
    expect(apiTag('/posts/:id')).toBe('posts');
    expect(apiTag('/api/admin/reviews.csv')).toBe('admin');
  });

  it('serves the reference page', async () => {
    const res = await (await t.client()).get(`${API_DOCS_PREFIX}/`, { headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });
});

it('is not served in production', async () => {
  const prod = await createTestApp({ env: 'production' });
  try {
    const visitor = await prod.client();
    for (const url of [API_DOCS_PREFIX, `${API_DOCS_PREFIX}/`, `${API_DOCS_PREFIX}/json`])
      expect((await visitor.get(url)).statusCode, url).toBe(404);
    expect(prod.app.routeList.filter((r) => r.url.startsWith(API_DOCS_PREFIX))).toEqual([]);
  } finally {
    await prod.close();
  }
});
