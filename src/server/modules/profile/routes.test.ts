import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { crc32, deflateSync } from 'node:zlib';
import { UPLOADS } from '#shared/learning';
import { MESSAGES } from '#shared/constants';
import { createTestApp, type TestApp } from '#test/api-harness';

let t: TestApp;
let png: Buffer;
let jpegWithExif: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ea580c' } })
    .png()
    .toBuffer();
  jpegWithExif = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#333' } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: 'secret-gps-here' } } })
    .toBuffer();
});
afterAll(async () => t.close());

/** A tiny PNG whose header claims enormous dimensions: a decompression bomb. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1_000_000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('POST /dashboard/upload-image', () => {
  it('stores a real image re-encoded (metadata stripped) and answers {response: "ok"}', async () => {
    const { user, client } = await t.signedIn();
    const res = await client.upload('/dashboard/upload-image', 'file', 'me.JPEG', jpegWithExif, 'image/jpeg');
    expect(res.statusCode).toBe(200);
    expect(res.json().response).toBe('ok');
    const url = res.json().avatar as string;
    expect(url).toMatch(/^\/files\/avatars\/[\w-]+\.jpg$/);
    const served = await client.get(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    // the uploads' own locked-down policy (app.ts), not the API's
    expect(served.headers['content-security-policy']).toBe(
      "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    );
    expect(served.rawPayload.includes(Buffer.from('secret-gps-here'))).toBe(false);
    expect((await client.get('/api/me')).json().user.avatarUrl).toBe(url);
    // a new picture replaces the old file
    const second = (await client.upload('/dashboard/upload-image', 'file', 'me.png', png)).json().avatar;
    expect((await client.get(url)).statusCode).toBe(404);
    expect((await t.app.deps.services.users.findById(user.id))!.avatarPath).toBe(second.replace('/files/', ''));
  });

  it('judges by content, not by name: a script named .png is refused and nothing changes', async () => {
    const { user, client } = await t.signedIn();
    const res = await client.upload(
      '/dashboard/upload-image',
      'file',
      'evil.png',
      Buffer.from('<script>alert(1)</script>'),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ response: UPLOADS.imageWrongType, errors: { file: [UPLOADS.imageWrongType] } });
    expect((await t.app.deps.services.users.findById(user.id))!.avatarPath).toBeNull();
  });

  it('refuses SVG, oversize files and decompression bombs', async () => {
    const { client } = await t.signedIn();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
    );
    expect(
      (await client.upload('/dashboard/upload-image', 'file', 'a.svg', svg, 'image/svg+xml')).json().response,
    ).toBe(UPLOADS.imageWrongType);
    const big = Buffer.concat([png, Buffer.alloc(3_000_001)]);
    expect((await client.upload('/dashboard/upload-image', 'file', 'big.png', big)).json().response).toBe(
      UPLOADS.imageTooBig,
    );
    const bomb = pngClaiming(50_000, 50_000);
    expect(bomb.length).toBeLessThan(3_000_000);
    expect((await client.upload('/dashboard/upload-image', 'file', 'bomb.png', bomb)).json().response).toBe(
      UPLOADS.imageWrongType,
    );
  });

  it('needs sign-in and the CSRF token', async () => {
    const anon = await t.client();
    expect((await anon.upload('/dashboard/upload-image', 'file', 'a.png', png)).statusCode).toBe(401);
  });
});

describe('POST /account/avatar/upload', () => {
  it('answers the stored address in `avatar`; refuses over 1 MB with the spec wording', async () => {
    const { client } = await t.signedIn();
    const ok = await client.upload(
      '/account/avatar/upload',
      'avatar',
      'a.gif',
      await sharp(png).gif().toBuffer(),
      'image/gif',
    );
    expect(ok.json().avatar).toMatch(/^\/files\/avatars\/[\w-]+\.png$/);
    // nothing of the upload is kept in libvips' cache after it
    expect(sharp.cache()).toMatchObject({ memory: { current: 0, max: 0 }, items: { current: 0 } });
    const big = Buffer.concat([png, Buffer.alloc(1024 * 1024)]);
    const res = await client.upload('/account/avatar/upload', 'avatar', 'a.png', big);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.avatar[0]).toBe(UPLOADS.avatarFailed);
  });
});

describe('GET /dashboard/clear-image', () => {
  it("works only with the page's token (a cross-site link cannot delete the picture)", async () => {
    const { user, client } = await t.signedIn();
    await client.upload('/dashboard/upload-image', 'file', 'me.png', png);
    const forged = await client.get('/dashboard/clear-image');
    expect(forged.statusCode).toBe(419);
    expect((await t.app.deps.services.users.findById(user.id))!.avatarPath).not.toBeNull();
    const res = await client.get(`/dashboard/clear-image?_token=${client.csrfToken}`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account/profile');
    expect((await t.app.deps.services.users.findById(user.id))!.avatarPath).toBeNull();
  });

  it('brings the member back to the page they were on (never off the site)', async () => {
    const { client } = await t.signedIn();
    await client.upload('/dashboard/upload-image', 'file', 'me.png', png);
    const res = await client.get(
      `/dashboard/clear-image?_token=${client.csrfToken}&to=${encodeURIComponent('/profile/ann-drummer?tab=wall')}`,
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/profile/ann-drummer?tab=wall');
    const away = await client.get(
      `/dashboard/clear-image?_token=${client.csrfToken}&to=${encodeURIComponent('https://evil.example/')}`,
    );
    expect(away.headers.location).toBe('/account/profile');
  });
});

describe('friends', () => {
  it("request, cancel, request, accept, unfriend: the friend button's state machine", async () => {
    const a = await t.signedIn({ name: 'Ann Drummer' });
    const b = await t.signedIn({ name: 'Bob Bass' });
    const slugB = (await b.client.get('/api/me')).json().user.slug;
    const req = (await a.client.post('/friends', { user_id: b.user.id })).json();
    expect(req).toMatchObject({ status: 'pending' });
    expect(typeof req.relationship_id).toBe('number');
    expect((await a.client.get(`/api/profiles/${slugB}`)).json().data.friendship).toEqual({
      status: 'pending',
      relationship_id: req.relationship_id,
    });
    // B is told, and sees it as incoming
    expect((await b.client.get('/notifications/recent')).json().data[0].body).toBe(
      '<strong>Ann Drummer</strong> sent you a friend request.',
    );
    expect((await b.client.get('/api/friends')).json().data.incoming.map((f: { id: number }) => f.id)).toEqual([
      a.user.id,
    ]);
    // cancel (action 0)
    expect((await a.client.post(`/friends/${req.relationship_id}/request`, { action: 0 })).json().status).toBe(
      'notfriends',
    );
    const again = (await a.client.post('/friends', { user_id: b.user.id })).json();
    // only B may accept
    expect((await a.client.post(`/friends/${again.relationship_id}/request`, { action: 1 })).statusCode).toBe(403);
    const outsider = await t.signedIn();
    expect((await outsider.client.post(`/friends/${again.relationship_id}/request`, { action: 1 })).statusCode).toBe(
      404,
    );
    expect((await b.client.post(`/friends/${again.relationship_id}/request`, { action: 1 })).json().status).toBe(
      'friends',
    );
    expect((await a.client.get(`/api/profiles/${slugB}`)).json().data.friendship.status).toBe('friends');
    // unfriend with _method delete
    expect((await a.client.post('/friends', { user_id: b.user.id, _method: 'delete' })).json().status).toBe(
      'notfriends',
    );
    expect((await b.client.get('/api/friends')).json().data.friends).toEqual([]);
  });

  it('asking someone who already asked you makes you friends; you cannot befriend yourself', async () => {
    const a = await t.signedIn();
    const b = await t.signedIn();
    await a.client.post('/friends', { user_id: b.user.id });
    expect((await b.client.post('/friends', { user_id: a.user.id })).json().status).toBe('friends');
    expect((await a.client.post('/friends', { user_id: a.user.id })).statusCode).toBe(422);
    expect((await (await t.client()).post('/friends', { user_id: a.user.id })).statusCode).toBe(401);
  });

  it('profiles need sign-in; status shows with its date; another member is not the owner', async () => {
    const a = await t.signedIn();
    const b = await t.signedIn();
    await a.client.post('/status', { status: 'Grooving' });
    const slug = (await a.client.get('/api/me')).json().user.slug;
    const seen = (await b.client.get(`/api/profiles/${slug}`)).json().data;
    expect(seen).toMatchObject({ status: 'Grooving', is_owner: false });
    expect(Date.parse(seen.status_updated_at)).not.toBeNaN();
    expect((await a.client.get(`/api/profiles/${slug}`)).json().data.is_owner).toBe(true);
    expect((await (await t.client()).get(`/api/profiles/${slug}`)).statusCode).toBe(401);
    expect(MESSAGES.requestFailed).toBeTruthy();
  });
});
