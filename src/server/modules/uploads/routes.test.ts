import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MENTORSHIP_MESSAGES } from '#shared/mentorship';
import {
  MAX_OPEN_UPLOAD_SESSIONS,
  UPLOAD_CHUNK_SIZE,
  UPLOAD_MESSAGES,
  UPLOAD_SESSION_TTL_MS,
  UPLOAD_TARGETS,
} from '#shared/upload';
import { uploadSessions } from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { createUploadService } from './service.ts';
import { finishUpload, mp4Bytes, multipart, pngBytes, sendChunk, startUpload, uploadVideo } from '#test/uploads';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const MB = UPLOAD_CHUNK_SIZE;
const student = () => t.signedIn({ entitlements: ['mentorship'] });
const row = async (id: string) =>
  (await t.app.deps.db.select().from(uploadSessions).where(eq(uploadSessions.id, id)))[0];
const partial = (id: string) => t.app.deps.storage.partialPath(id);
const sessionOf = (res: { json(): unknown }) => (res.json() as { data: { session_id: string } }).data.session_id;
const status = (client: TestClient, id: string) => client.get(`${UPLOAD_TARGETS.chunked}/${id}`);

async function started(client: TestClient, size: number, name = 'groove.mp4') {
  const res = await startUpload(client, { size, name });
  expect(res.statusCode).toBe(200);
  return sessionOf(res);
}

function expectError(res: { statusCode: number; json(): unknown }, code: number, message?: string) {
  expect(res.statusCode).toBe(code);
  const body = res.json() as { status: string; message: string };
  expect(body.status).toBe('error');
  expect(typeof body.message).toBe('string');
  if (message) expect(body.message).toBe(message);
}

describe('POST /uploads/chunked start', () => {
  it('answers 401 to a visitor and 403 to a member without the mentorship', async () => {
    const visitor = await t.client();
    expectError(await startUpload(visitor, { size: 10 }), 401);
    const { client } = await t.signedIn();
    expectError(await startUpload(client, { size: 10 }), 403, MENTORSHIP_MESSAGES.mentorshipOnly);
    const { client: member } = await t.signedIn({ entitlements: ['membership'] });
    expectError(await startUpload(member, { size: 10 }), 403);
  });

  it('opens a session for a student and for an admin, with the chunk size as end_offset', async () => {
    const { user, client } = await student();
    const res = await startUpload(client, { size: 3 * MB + 5, name: 'My Groove.MP4' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { status: string; data: { session_id: string; end_offset: number } };
    expect(body.status).toBe('success');
    expect(body.data.end_offset).toBe(UPLOAD_CHUNK_SIZE);
    expect(body.data.session_id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    const r = (await row(body.data.session_id))!;
    expect(r).toMatchObject({
      userId: user.id,
      status: 'open',
      size: 3 * MB + 5,
      name: 'My Groove.MP4',
      purpose: 'practice-video',
      received: [],
    });
    expect(existsSync(partial(body.data.session_id))).toBe(true);
    const { client: admin } = await t.signedIn({ role: 'admin' });
    expect((await startUpload(admin, { size: 100 })).statusCode).toBe(200);
  });

  it('checks the extension case-insensitively, the declared type and the size', async () => {
    const { client } = await student();
    expect((await startUpload(client, { size: 10, name: 'A.MOV', mime_type: 'video/quicktime' })).statusCode).toBe(200);
    expectError(await startUpload(client, { size: 10, name: 'notes.txt' }), 422, UPLOAD_MESSAGES.wrongType);
    expectError(await startUpload(client, { size: 10, name: 'noextension' }), 422, UPLOAD_MESSAGES.wrongType);
    expectError(
      await startUpload(client, { size: 10, name: 'x.mp4', mime_type: 'image/png' }),
      422,
      UPLOAD_MESSAGES.wrongType,
    );
    expectError(await startUpload(client, { size: 1024 * 1024 * 1024 + 1 }), 422, UPLOAD_MESSAGES.tooBig);
    expectError(await startUpload(client, { size: 0 }), 422);
    expectError(await client.post(UPLOAD_TARGETS.chunked, { phase: 'start', size: 10 }), 422);
    expectError(await client.post(UPLOAD_TARGETS.chunked, { phase: 'nonsense' }), 422);
  });

  it(`refuses more than ${MAX_OPEN_UPLOAD_SESSIONS} open sessions with 429`, async () => {
    const { client } = await student();
    const ids: string[] = [];
    for (let i = 0; i < MAX_OPEN_UPLOAD_SESSIONS; i++) ids.push(await started(client, 100));
    expectError(await startUpload(client, { size: 100 }), 429, UPLOAD_MESSAGES.tooManySessions);
    // cancelling one frees a place
    expect((await client.post(UPLOAD_TARGETS.chunked, { phase: 'abort', session_id: ids[0] })).statusCode).toBe(200);
    expect((await startUpload(client, { size: 100 })).statusCode).toBe(200);
  });

  it('needs the CSRF token', async () => {
    const { client } = await student();
    const res = await client.request(
      'POST',
      UPLOAD_TARGETS.chunked,
      { phase: 'start', mime_type: 'video/mp4', size: 10, name: 'a.mp4' },
      { csrf: false },
    );
    expectError(res, 419);
  });
});

describe('chunks, status, finish', () => {
  it('takes 3 chunks in any order, reports what arrived, finishes into a private random file', async () => {
    const { user, client } = await student();
    const data = mp4Bytes(2 * MB + 1234);
    const id = await started(client, data.length);
    const c2 = await sendChunk(client, id, 2 * MB, data.subarray(2 * MB));
    expect(c2.statusCode).toBe(200);
    expect(c2.json()).toEqual({ status: 'success', data: { received: [[2 * MB, data.length]] } });
    expect((await sendChunk(client, id, 0, data.subarray(0, MB))).statusCode).toBe(200);
    // resume: the status names what is there, so a client sends only the rest
    const s = await status(client, id);
    expect(s.json()).toEqual({
      status: 'success',
      data: {
        received: [
          [0, MB],
          [2 * MB, data.length],
        ],
        size: data.length,
        state: 'open',
      },
    });
    // finishing early: 409 with what is missing
    const early = await finishUpload(client, id);
    expectError(early, 409, UPLOAD_MESSAGES.incomplete);
    expect((early.json() as { missing: unknown }).missing).toEqual([[MB, 2 * MB]]);
    const c1 = await sendChunk(client, id, MB, data.subarray(MB, 2 * MB));
    expect((c1.json() as { data: { received: unknown } }).data.received).toEqual([[0, data.length]]);
    // a repeated chunk is harmless
    expect((await sendChunk(client, id, MB, data.subarray(MB, 2 * MB))).statusCode).toBe(200);
    const fin = await finishUpload(client, id);
    expect(fin.statusCode).toBe(200);
    expect(fin.json()).toEqual({ status: 'success', data: { session_id: id } });
    const r = (await row(id))!;
    expect(r).toMatchObject({ status: 'complete', userId: user.id, mimeType: 'video/mp4' });
    expect(r.path).toMatch(/^videos\/[A-Za-z0-9_-]+\.mp4$/);
    const file = t.app.deps.storage.privatePath(r.path!)!;
    expect(readFileSync(file).equals(data)).toBe(true);
    expect(existsSync(partial(id))).toBe(false);
    // never public: not under the /files root, and /files does not serve it
    expect(file.startsWith(t.app.deps.storage.root)).toBe(false);
    expect((await client.get(`/files/${r.path}`)).statusCode).toBe(404);
    // finishing twice answers the same; a chunk after the finish is refused
    expect((await finishUpload(client, id)).statusCode).toBe(200);
    expectError(await sendChunk(client, id, 0, data.subarray(0, MB)), 409);
    expect((await status(client, id)).json()).toMatchObject({ data: { state: 'complete' } });
  });

  it('refuses a PNG or a text file named .mp4 by its content, and deletes the partial', async () => {
    const { client } = await student();
    const png = pngBytes(5000);
    const id = await started(client, png.length, 'holiday.mp4');
    expectError(await sendChunk(client, id, 0, png), 422, UPLOAD_MESSAGES.wrongType);
    expect((await row(id))!.status).toBe('rejected');
    expect(existsSync(partial(id))).toBe(false);
    // the real reason, not "expired", for whatever else arrives on that session
    expectError(await sendChunk(client, id, 0, png), 422, UPLOAD_MESSAGES.wrongType);
    expectError(await finishUpload(client, id), 422, UPLOAD_MESSAGES.wrongType);
    const text = Buffer.from('just some text pretending to be a video\n'.repeat(50));
    const id2 = await started(client, text.length, 'x.mp4');
    expectError(await sendChunk(client, id2, 0, text), 422, UPLOAD_MESSAGES.wrongType);
    expectError(await finishUpload(client, id2), 422, UPLOAD_MESSAGES.wrongType);
  });

  it('answers every chunk still in flight for a refused file with the real reason', async () => {
    const { client } = await student();
    const fake = Buffer.concat([pngBytes(MB), Buffer.alloc(MB + 10, 1)]);
    const id = await started(client, fake.length, 'holiday.mp4');
    expectError(await sendChunk(client, id, 0, fake.subarray(0, MB)), 422, UPLOAD_MESSAGES.wrongType);
    expectError(await sendChunk(client, id, MB, fake.subarray(MB, 2 * MB)), 422, UPLOAD_MESSAGES.wrongType);
    expect((await client.get(`${UPLOAD_TARGETS.chunked}/${id}`)).json()).toMatchObject({
      status: 'success',
      data: { state: 'rejected' },
    });
  });

  it('refuses misaligned, out-of-range and wrongly sized chunks', async () => {
    const { client } = await student();
    const data = mp4Bytes(MB + 100);
    const id = await started(client, data.length);
    expectError(await sendChunk(client, id, 100, data.subarray(100, 200)), 422, UPLOAD_MESSAGES.badChunk);
    expectError(await sendChunk(client, id, 2 * MB, data.subarray(0, 100)), 422, UPLOAD_MESSAGES.badChunk);
    expectError(await sendChunk(client, id, 0, data.subarray(0, MB - 1)), 422, UPLOAD_MESSAGES.badChunk);
    expectError(await sendChunk(client, id, MB, data.subarray(MB, MB + 99)), 422, UPLOAD_MESSAGES.badChunk);
    expectError(await sendChunk(client, id, MB, data.subarray(0, 0)), 422);
    // a bad offset field and a missing chunk part
    const noChunk = multipart({ phase: 'upload', session_id: id, start_offset: 0 });
    expectError(
      await client.request('POST', UPLOAD_TARGETS.chunked, noChunk.payload, {
        headers: { 'content-type': noChunk.contentType },
      }),
      422,
    );
    const badOffset = multipart(
      { phase: 'upload', session_id: id, start_offset: 'abc' },
      { field: 'chunk', name: 'blob', data: data.subarray(0, MB) },
    );
    expectError(
      await client.request('POST', UPLOAD_TARGETS.chunked, badOffset.payload, {
        headers: { 'content-type': badOffset.contentType },
      }),
      422,
    );
    // the last chunk may be shorter
    expect((await sendChunk(client, id, MB, data.subarray(MB))).statusCode).toBe(200);
    expect((await row(id))!.received).toEqual([[MB, MB + 100]]);
  });

  it("answers 404 for another member's session in every phase", async () => {
    const { client } = await student();
    const { client: other } = await student();
    const data = mp4Bytes(1000);
    const id = await started(client, data.length);
    expectError(await sendChunk(other, id, 0, data), 404, UPLOAD_MESSAGES.sessionNotFound);
    expectError(await status(other, id), 404);
    expectError(await finishUpload(other, id), 404);
    expectError(await other.post(UPLOAD_TARGETS.chunked, { phase: 'abort', session_id: id }), 404);
    expectError(await status(client, 'no-such-session-id'), 404);
    expectError(await status(client, '..%2F..%2Fetc'), 404);
    expect((await row(id))!.status).toBe('open');
    const visitor = await t.client();
    expectError(await status(visitor, id), 401);
  });

  it('abort deletes the partial; the session cannot be used after', async () => {
    const { client } = await student();
    const data = mp4Bytes(MB + 10);
    const id = await started(client, data.length);
    await sendChunk(client, id, 0, data.subarray(0, MB));
    const res = await client.post(UPLOAD_TARGETS.chunked, { phase: 'abort', session_id: id });
    expect(res.json()).toEqual({ status: 'success', data: { session_id: id } });
    expect(existsSync(partial(id))).toBe(false);
    expect((await status(client, id)).json()).toMatchObject({ data: { state: 'aborted' } });
    expectError(await sendChunk(client, id, MB, data.subarray(MB)), 404);
    expectError(await finishUpload(client, id), 404);
  });

  it('keeps a traversal name only as metadata', async () => {
    const { client } = await student();
    const before = readdirSync(path.dirname(t.config.dataDir)).length;
    const id = await uploadVideo(client, mp4Bytes(1500), '../../x.mp4');
    const r = (await row(id))!;
    expect(r.name).toBe('x.mp4');
    expect(r.path).toMatch(/^videos\/[A-Za-z0-9_-]+\.mp4$/);
    expect(existsSync(path.join(t.config.dataDir, 'x.mp4'))).toBe(false);
    expect(existsSync(path.join(t.app.deps.storage.privateRoot, 'x.mp4'))).toBe(false);
    expect(readdirSync(path.dirname(t.config.dataDir)).length).toBe(before);
    const id2 = await uploadVideo(client, mp4Bytes(1500), '..\\..\\evil\u0000.mp4');
    expect((await row(id2))!.name).toBe('evil.mp4');
  });
});

describe('POST /uploads (small files in one request)', () => {
  const send = (client: TestClient, name: string, data: Buffer, purpose = 'practice-video') => {
    const body = multipart({ purpose }, { field: 'file', name, data, type: 'video/mp4' });
    return client.request('POST', UPLOAD_TARGETS.simple, body.payload, {
      headers: { 'content-type': body.contentType },
    });
  };

  it('stores a small video as a completed session', async () => {
    const { user, client } = await student();
    const data = mp4Bytes(4000);
    const res = await send(client, 'short.M4V', data);
    expect(res.statusCode).toBe(200);
    const id = sessionOf(res);
    const r = (await row(id))!;
    expect(r).toMatchObject({
      userId: user.id,
      status: 'complete',
      size: 4000,
      mimeType: 'video/mp4',
      received: [[0, 4000]],
    });
    expect(readFileSync(t.app.deps.storage.privatePath(r.path!)!).equals(data)).toBe(true);
  });

  it('checks sign-in, the mentorship, the extension, the content and the size', async () => {
    expectError(await send(await t.client(), 'a.mp4', mp4Bytes(100)), 401);
    expectError(await send((await t.signedIn()).client, 'a.mp4', mp4Bytes(100)), 403);
    const { client } = await student();
    expectError(await send(client, 'a.png', mp4Bytes(100)), 422, UPLOAD_MESSAGES.wrongType);
    expectError(await send(client, 'a.mp4', pngBytes()), 422, UPLOAD_MESSAGES.wrongType);
    expectError(await send(client, 'a.mp4', mp4Bytes(MB + 1)), 422);
    expectError(await send(client, 'a.mp4', mp4Bytes(100), 'avatar'), 422);
    const empty = multipart({ purpose: 'practice-video' });
    expectError(
      await client.request('POST', UPLOAD_TARGETS.simple, empty.payload, {
        headers: { 'content-type': empty.contentType },
      }),
      422,
    );
  });
});

describe('cleanup', () => {
  it('removes abandoned partials and unclaimed files after the TTL, and keeps fresh ones', async () => {
    const { client } = await student();
    const { storage, db } = t.app.deps;
    const data = mp4Bytes(MB + 10);
    const abandoned = await started(client, data.length);
    await sendChunk(client, abandoned, 0, data.subarray(0, MB));
    const unclaimed = await uploadVideo(client, mp4Bytes(2000));
    const unclaimedFile = storage.privatePath((await row(unclaimed))!.path!)!;
    const fresh = await started(client, 100);
    const old = new Date(Date.now() - UPLOAD_SESSION_TTL_MS - 60_000);
    for (const id of [abandoned, unclaimed])
      await db.update(uploadSessions).set({ updatedAt: old }).where(eq(uploadSessions.id, id));
    expect(existsSync(partial(abandoned))).toBe(true);
    expect(existsSync(unclaimedFile)).toBe(true);

    const result = await createUploadService({ db, storage }).cleanup();
    expect(result.sessions).toBeGreaterThanOrEqual(2);
    expect(await row(abandoned)).toBeUndefined();
    expect(await row(unclaimed)).toBeUndefined();
    expect(existsSync(partial(abandoned))).toBe(false);
    expect(existsSync(unclaimedFile)).toBe(false);
    expect((await row(fresh))!.status).toBe('open');
    expect(existsSync(partial(fresh))).toBe(true);
    // a day later nothing was touched: the fresh one goes too
    await createUploadService({ db, storage }).cleanup(new Date(Date.now() + UPLOAD_SESSION_TTL_MS + 60_000));
    expect(await row(fresh)).toBeUndefined();
    expect(existsSync(partial(fresh))).toBe(false);
  });

  it('sweeps a partial file no session owns', async () => {
    const { storage, db } = t.app.deps;
    await storage.createPartial('orphanPartialFile01');
    await createUploadService({ db, storage }).cleanup();
    expect(existsSync(partial('orphanPartialFile01'))).toBe(true);
    await createUploadService({ db, storage }).cleanup(new Date(Date.now() + UPLOAD_SESSION_TTL_MS + 60_000));
    expect(existsSync(partial('orphanPartialFile01'))).toBe(false);
  });
});
