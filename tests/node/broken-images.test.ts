import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '#shared/constants';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { ADMIN_IMAGE } from '#shared/admin';
import { UPLOADS } from '#shared/learning';
import { postAttachments, uploadSessions, users } from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { brokenImages, pngBytes } from '#test/images';

// Every route that takes an image refuses one whose data cannot be decoded with a 422 and a sentence
// the member can act on, and keeps nothing: no file under DATA_DIR, no row.

let t: TestApp;
let member: { user: { id: number }; client: TestClient };
let admin: TestClient;
let broken: Awaited<ReturnType<typeof brokenImages>>;

beforeAll(async () => {
  t = await createTestApp();
  member = await t.signedIn({ entitlements: ['membership', 'mentorship'] });
  admin = (await t.signedIn({ role: 'admin' })).client;
  broken = await brokenImages();
});
afterAll(async () => t?.close());

/** every file under DATA_DIR (uploads and private files alike) */
function storedFiles(): string[] {
  return readdirSync(t.config.dataDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.parentPath.includes(`${path.sep}db`))
    .map((e) => path.join(e.parentPath, e.name));
}
const count = async (table: typeof postAttachments | typeof uploadSessions) =>
  (await t.app.deps.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
const avatarOf = async (id: number) =>
  (await t.app.deps.db.select({ a: users.avatarPath }).from(users).where(eq(users.id, id)))[0]!.a;

const ROUTES = [
  { url: '/attachments', field: 'file', who: () => member.client },
  { url: '/dashboard/upload-image', field: 'file', who: () => member.client },
  { url: '/account/avatar/upload', field: 'avatar', who: () => member.client },
  { url: '/api/admin/images', field: 'image', who: () => admin },
] as const;

describe('an image whose data cannot be decoded', () => {
  it.each(ROUTES.flatMap((r) => [0, 1, 2].map((i) => [r.url, i, r] as const)))(
    '%s refuses broken file #%i with 422, storing nothing',
    async (_url, i, route) => {
      const file = broken[i]!;
      const before = {
        files: storedFiles(),
        attachments: await count(postAttachments),
        avatar: await avatarOf(member.user.id),
      };
      const res = await route.who().upload(route.url, route.field, file.filename, file.data, file.type);
      expect(res.statusCode, `${file.label}: ${res.body}`).toBe(422);
      const body = res.json() as { message: string; errors: Record<string, string[]>; response?: string };
      expect(body.message).toBe(MESSAGES.imageUnreadable);
      expect(body.errors).toEqual({ [route.field]: [MESSAGES.imageUnreadable] });
      // the profile image modal reads `response`
      if (route.url === '/dashboard/upload-image') expect(body.response).toBe(MESSAGES.imageUnreadable);
      expect(storedFiles()).toEqual(before.files);
      expect(await count(postAttachments)).toBe(before.attachments);
      expect(await avatarOf(member.user.id)).toBe(before.avatar);
    },
  );

  it("a file that is not one of the accepted types (a truncated WebP, plain text) keeps the route's own wrong-type message", async () => {
    const webp = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ea580c' } })
      .webp()
      .toBuffer();
    const cut = webp.subarray(0, 40);
    const expected = {
      '/attachments': COMMUNITY_MESSAGES.attachmentInvalid,
      '/dashboard/upload-image': UPLOADS.imageWrongType,
      '/account/avatar/upload': UPLOADS.avatarFailed,
      '/api/admin/images': ADMIN_IMAGE.invalid,
    };
    const before = storedFiles();
    for (const route of ROUTES) {
      for (const [name, data] of [
        ['kit.webp', cut],
        ['notes.png', Buffer.from('just some text, not an image')],
      ] as const) {
        const res = await route.who().upload(route.url, route.field, name, data, 'image/png');
        expect(res.statusCode, `${route.url} ${name}`).toBe(422);
        expect((res.json() as { message: string }).message).toBe(expected[route.url]);
      }
    }
    expect(storedFiles()).toEqual(before);
  });

  it('a good image still goes through every route', async () => {
    const png = await pngBytes();
    for (const route of ROUTES) {
      const res = await route.who().upload(route.url, route.field, 'kit.png', png);
      expect(res.statusCode, `${route.url}: ${res.body}`).toBe(200);
    }
  });

  it('the upload routes that take videos refuse a broken image by its content, storing nothing', async () => {
    const before = { files: storedFiles(), sessions: await count(uploadSessions) };
    const res = await member.client.request(
      'POST',
      '/uploads',
      multipart([['purpose', 'practice-video']], {
        field: 'file',
        filename: 'kit.png',
        type: 'image/png',
        data: broken[0]!.data,
      }),
      {
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      },
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(storedFiles()).toEqual(before.files);
    expect(await count(uploadSessions)).toBe(before.sessions);
  });
});

const BOUNDARY = 'bb-broken-images';
function multipart(
  fields: Array<[string, string]>,
  file: { field: string; filename: string; type: string; data: Buffer },
) {
  const parts = fields.map(([k, v]) =>
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  return Buffer.concat([
    ...parts,
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}
