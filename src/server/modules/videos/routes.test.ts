import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MENTORSHIP_MESSAGES } from '#shared/mentorship';
import {
  CAPTION_MESSAGES,
  VIDEO_CAPTIONS,
  VIDEO_MESSAGES,
  type VideoSubmission,
  type VideoSubmissionPage,
} from '#shared/upload';
import { mentorships, notifications, uploadSessions, videoSubmissions } from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { mp4Bytes, startUpload, uploadVideo } from '#test/uploads';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signedIn']>>;
let mentor: Awaited<ReturnType<TestApp['signedIn']>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn({ role: 'admin', name: 'Ada Admin' });
  mentor = await t.signedIn({ role: 'admin', name: 'Max Mentor' });
});
afterAll(async () => t.close());

const db = () => t.app.deps.db;
const student = (name?: string) => t.signedIn({ entitlements: ['mentorship'], ...(name ? { name } : {}) });
const notesOf = (userId: number) =>
  db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.area, 'mentorship')));

async function submit(client: TestClient, title = 'Paradiddles at 90', data = mp4Bytes(2500)) {
  const upload_id = await uploadVideo(client, data);
  const res = await client.post('/mentorship/videos', { upload_id, title, note: 'Left hand feels slow' });
  expect(res.statusCode).toBe(201);
  return (res.json() as { data: VideoSubmission }).data;
}

describe('POST /mentorship/videos', () => {
  it('answers 401 to a visitor and 403 to free and membership members', async () => {
    expect(
      (await (await t.client()).post('/mentorship/videos', { upload_id: 'abcdefghij', title: 'x' })).statusCode,
    ).toBe(401);
    const free = await t.signedIn();
    const res = await free.client.post('/mentorship/videos', { upload_id: 'abcdefghij', title: 'x' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: MENTORSHIP_MESSAGES.mentorshipOnly });
    expect(
      (
        await (
          await t.signedIn({ entitlements: ['membership'] })
        ).client.post('/mentorship/videos', { upload_id: 'abcdefghij', title: 'x' })
      ).statusCode,
    ).toBe(403);
  });

  it("sends a completed upload to the student's mentor, once", async () => {
    const { user, client } = await student('Sam Student');
    await db().insert(mentorships).values({ studentId: user.id, mentorId: mentor.user.id, option: 'onetime' });
    const upload_id = await uploadVideo(client, mp4Bytes(3000));
    const path = (await db().select().from(uploadSessions).where(eq(uploadSessions.id, upload_id)))[0]!.path!;
    const res = await client.post('/mentorship/videos', { upload_id, title: '  Rudiments  ', note: 'Week 2' });
    expect(res.statusCode).toBe(201);
    const v = (res.json() as { data: VideoSubmission }).data;
    expect(v).toMatchObject({
      student: { id: user.id, name: 'Sam Student' },
      title: 'Rudiments',
      note: 'Week 2',
      mime_type: 'video/mp4',
      size: 3000,
      feedback: null,
      status: 'awaiting',
      file_url: `/mentorship/videos/${v.id}/file`,
      url: `/mentorship/videos/${v.id}`,
    });
    const row = (await db().select().from(videoSubmissions).where(eq(videoSubmissions.id, v.id)))[0]!;
    expect(row.path).toBe(path);
    expect(row.originalName).toBe('groove.mp4');
    // claimed: the session is gone and cannot be sent twice
    expect(await db().select().from(uploadSessions).where(eq(uploadSessions.id, upload_id))).toEqual([]);
    const again = await client.post('/mentorship/videos', { upload_id, title: 'Again' });
    expect(again.statusCode).toBe(422);
    expect((again.json() as { errors: Record<string, string[]> }).errors.upload_id).toEqual([
      VIDEO_MESSAGES.uploadNotReady,
    ]);
    // only the mentor hears about it
    const notes = await notesOf(mentor.user.id);
    expect(
      notes.some(
        (n) => n.url === `/mentorship/videos/${v.id}` && n.body.includes('Sam Student') && n.body.includes('Rudiments'),
      ),
    ).toBe(true);
    expect((await notesOf(admin.user.id)).some((n) => n.url === `/mentorship/videos/${v.id}`)).toBe(false);
  });

  it('tells every admin when the student has no mentor yet', async () => {
    const { client } = await student();
    const v = await submit(client, '<b>Groove</b>');
    for (const a of [admin, mentor]) {
      const n = (await notesOf(a.user.id)).find((x) => x.url === `/mentorship/videos/${v.id}`);
      expect(n?.body).toContain('&lt;b&gt;Groove&lt;/b&gt;');
    }
  });

  it("refuses an unfinished upload, another student's upload, and a missing title", async () => {
    const { client } = await student();
    const open = await startUpload(client, { size: 5000 });
    const openId = (open.json() as { data: { session_id: string } }).data.session_id;
    expect((await client.post('/mentorship/videos', { upload_id: openId, title: 'Not yet' })).statusCode).toBe(422);
    const other = await student();
    const theirs = await uploadVideo(other.client, mp4Bytes(2000));
    expect((await client.post('/mentorship/videos', { upload_id: theirs, title: 'Stolen' })).statusCode).toBe(422);
    const mine = await uploadVideo(client, mp4Bytes(2000));
    const noTitle = await client.post('/mentorship/videos', { upload_id: mine, title: '   ' });
    expect(noTitle.statusCode).toBe(422);
    expect((noTitle.json() as { errors: Record<string, string[]> }).errors.title).toEqual([
      VIDEO_MESSAGES.titleRequired,
    ]);
    expect((await client.post('/mentorship/videos', { upload_id: mine, title: 'x'.repeat(121) })).statusCode).toBe(422);
    expect((await client.post('/mentorship/videos', { upload_id: mine, title: 'Fine' })).statusCode).toBe(201);
  });
});

describe('reading submissions', () => {
  it('a student lists their own; another student is refused; an admin lists any or all', async () => {
    const a = await student('Alex');
    const b = await student('Bea');
    const va = await submit(a.client, 'A1');
    const vb = await submit(b.client, 'B1');
    const mine = (await a.client.get('/api/mentorship/videos')).json() as VideoSubmissionPage;
    expect(mine.data.map((v) => v.id)).toEqual([va.id]);
    expect(mine).toMatchObject({ page: 1, pages: 1, total: 1 });
    expect((await a.client.get(`/api/mentorship/videos?student_id=${a.user.id}`)).statusCode).toBe(200);
    expect((await a.client.get(`/api/mentorship/videos?student_id=${b.user.id}`)).statusCode).toBe(403);
    expect((await a.client.get(`/api/mentorship/videos/${vb.id}`)).statusCode).toBe(404);
    expect(
      ((await a.client.get(`/api/mentorship/videos/${va.id}`)).json() as { data: VideoSubmission }).data.title,
    ).toBe('A1');

    const onlyB = (
      await admin.client.get(`/api/mentorship/videos?student_id=${b.user.id}`)
    ).json() as VideoSubmissionPage;
    expect(onlyB.data.map((v) => v.id)).toEqual([vb.id]);
    const all = (await admin.client.get('/api/mentorship/videos')).json() as VideoSubmissionPage;
    expect(all.data.map((v) => v.id)).toEqual(expect.arrayContaining([va.id, vb.id]));
    expect((await admin.client.get(`/api/mentorship/videos/${vb.id}`)).statusCode).toBe(200);
    expect((await admin.client.get('/api/mentorship/videos/999999')).statusCode).toBe(404);
    expect((await admin.client.get('/api/mentorship/videos/abc')).statusCode).toBe(404);
  });

  it('answers 401 to a visitor and 403 to a free member', async () => {
    const visitor = await t.client();
    expect((await visitor.get('/api/mentorship/videos')).statusCode).toBe(401);
    expect((await visitor.get('/api/mentorship/videos/1')).statusCode).toBe(401);
    const free = await t.signedIn();
    expect((await free.client.get('/api/mentorship/videos')).statusCode).toBe(403);
    expect((await free.client.get('/api/mentorship/videos/1')).statusCode).toBe(403);
  });
});

describe('feedback', () => {
  it('an admin answers; the student is told; the video leaves the awaiting queue', async () => {
    const s = await student();
    const v = await submit(s.client, 'Shuffle');
    const queue = async () =>
      ((await admin.client.get('/api/mentorship/videos?awaiting=1')).json() as VideoSubmissionPage).data.map(
        (x) => x.id,
      );
    expect(await queue()).toContain(v.id);
    expect((await s.client.post(`/mentorship/videos/${v.id}/feedback`, { feedback: 'Great' })).statusCode).toBe(403);
    expect(
      (await (await t.client()).post(`/mentorship/videos/${v.id}/feedback`, { feedback: 'Great' })).statusCode,
    ).toBe(401);
    expect((await admin.client.post(`/mentorship/videos/${v.id}/feedback`, { feedback: '  ' })).statusCode).toBe(422);
    expect((await admin.client.post('/mentorship/videos/999999/feedback', { feedback: 'x' })).statusCode).toBe(404);
    const res = await mentor.client.post(`/mentorship/videos/${v.id}/feedback`, { feedback: 'Relax the left wrist.' });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: VideoSubmission }).data).toMatchObject({
      feedback: 'Relax the left wrist.',
      feedback_by: { id: mentor.user.id, name: 'Max Mentor' },
      status: 'reviewed',
    });
    expect(await queue()).not.toContain(v.id);
    const seen = ((await s.client.get(`/api/mentorship/videos/${v.id}`)).json() as { data: VideoSubmission }).data;
    expect(seen.feedback).toBe('Relax the left wrist.');
    expect(seen.feedback_at).not.toBeNull();
    expect(
      (await notesOf(s.user.id)).some((n) => n.url === `/mentorship/videos/${v.id}` && n.body.includes('Shuffle')),
    ).toBe(true);
  });
});

describe('deleting', () => {
  it('the student deletes their own video before feedback, not after; others cannot', async () => {
    const s = await student();
    const other = await student();
    const v = await submit(s.client);
    const file = t.app.deps.storage.privatePath(
      (await db().select().from(videoSubmissions).where(eq(videoSubmissions.id, v.id)))[0]!.path,
    )!;
    expect((await other.client.post(`/mentorship/videos/${v.id}`, { _method: 'delete' })).statusCode).toBe(404);
    expect((await (await t.client()).post(`/mentorship/videos/${v.id}`, { _method: 'delete' })).statusCode).toBe(401);
    expect((await s.client.post(`/mentorship/videos/${v.id}`, {})).statusCode).toBe(405);
    const res = await s.client.post(`/mentorship/videos/${v.id}`, { _method: 'delete' });
    expect(res.statusCode).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect((await s.client.get(`/api/mentorship/videos/${v.id}`)).statusCode).toBe(404);

    const answered = await submit(s.client);
    await admin.client.post(`/mentorship/videos/${answered.id}/feedback`, { feedback: 'Nice' });
    const late = await s.client.post(`/mentorship/videos/${answered.id}`, { _method: 'delete' });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toEqual({ message: VIDEO_MESSAGES.feedbackGiven });
    expect((await s.client.request('DELETE', `/mentorship/videos/${answered.id}`)).statusCode).toBe(403);
  });
});

describe('GET /mentorship/videos/{id}/file', () => {
  it('streams the video to its student and admins, with Range', async () => {
    const s = await student();
    const data = mp4Bytes(5000, 3);
    const v = await submit(s.client, 'Fills', data);
    const whole = await s.client.get(v.file_url);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(data)).toBe(true);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['x-content-type-options']).toBe('nosniff');
    expect(whole.headers['content-disposition']).toBe('inline');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-length']).toBe('5000');

    const part = await s.client.get(v.file_url, { headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/5000');
    expect(part.rawPayload.equals(data.subarray(100, 200))).toBe(true);
    const tail = await admin.client.get(v.file_url, { headers: { range: 'bytes=-8' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(data.subarray(4992))).toBe(true);
    const outside = await s.client.get(v.file_url, { headers: { range: 'bytes=6000-' } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe('bytes */5000');
  });

  it('refuses visitors, free members and other students', async () => {
    const s = await student();
    const v = await submit(s.client);
    expect((await (await t.client()).get(v.file_url)).statusCode).toBe(401);
    expect((await (await t.signedIn()).client.get(v.file_url)).statusCode).toBe(403);
    expect((await (await student()).client.get(v.file_url)).statusCode).toBe(404);
    expect((await admin.client.get(v.file_url)).statusCode).toBe(200);
  });
});

/** a multipart POST with a caption file and (optionally) its language, as the admin's form sends it */
function sendCaptions(client: TestClient, id: number, data: Buffer, lang?: string, name = 'captions.vtt') {
  const boundary = '----bbcaptions' + Math.random().toString(16).slice(2);
  const parts = [
    ...(lang === undefined
      ? []
      : [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="lang"\r\n\r\n${lang}\r\n`)]),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${VIDEO_CAPTIONS.field}"; filename="${name}"\r\nContent-Type: text/vtt\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return client.request('POST', `/mentorship/videos/${id}/captions`, Buffer.concat(parts), {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

const VTT = Buffer.from('WEBVTT\n\n00:00.000 --> 00:02.000\nCount in: one, two, three, four\n');

describe('captions on a practice video', () => {
  it('an admin attaches a WebVTT file; the student and admins read it, others do not', async () => {
    const s = await student();
    const v = await submit(s.client);
    expect(v.captions).toBeNull();
    const res = await sendCaptions(admin.client, v.id, VTT, 'de');
    expect(res.statusCode).toBe(200);
    const after = (res.json() as { message: string; data: VideoSubmission }).data;
    expect(after.captions).toEqual({ url: `/mentorship/videos/${v.id}/captions`, lang: 'de', label: 'German' });
    expect((await s.client.get(`/api/mentorship/videos/${v.id}`)).json()).toMatchObject({
      data: { captions: after.captions },
    });

    const file = await s.client.get(after.captions!.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.equals(VTT)).toBe(true);
    expect((await (await t.client()).get(after.captions!.url)).statusCode).toBe(401);
    expect((await (await student()).client.get(after.captions!.url)).statusCode).toBe(404);
    // students cannot attach captions, not even to their own video
    expect((await sendCaptions(s.client, v.id, VTT)).statusCode).toBe(403);
  });

  it('refuses a file that is not WebVTT with a 422 and a sentence, and keeps what was there', async () => {
    const s = await student();
    const v = await submit(s.client);
    const first = await sendCaptions(admin.client, v.id, VTT);
    expect(first.statusCode).toBe(200);
    const path = (await db().select().from(videoSubmissions).where(eq(videoSubmissions.id, v.id)))[0]!.captionsPath!;

    // an .srt file named .vtt: judged by its content, not its name
    const srt = Buffer.from('1\n00:00:00,000 --> 00:00:02,000\nCount in\n');
    for (const bad of [
      srt,
      Buffer.from('WEBVTTX\n'),
      Buffer.from([0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0a, 0xff, 0xfe]),
    ]) {
      const res = await sendCaptions(admin.client, v.id, bad);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ errors: { [VIDEO_CAPTIONS.field]: [CAPTION_MESSAGES.notWebVtt] } });
    }
    const big = Buffer.concat([Buffer.from('WEBVTT\n\n'), Buffer.alloc(VIDEO_CAPTIONS.maxBytes, 'a')]);
    const tooBig = await sendCaptions(admin.client, v.id, big);
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json()).toMatchObject({ errors: { [VIDEO_CAPTIONS.field]: [CAPTION_MESSAGES.tooBig] } });
    const badLang = await sendCaptions(admin.client, v.id, VTT, 'English please');
    expect(badLang.statusCode).toBe(422);
    expect(badLang.json()).toMatchObject({ errors: { lang: [CAPTION_MESSAGES.lang] } });
    const none = await admin.client.post(`/mentorship/videos/${v.id}/captions`, {});
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ errors: { [VIDEO_CAPTIONS.field]: [CAPTION_MESSAGES.required] } });

    // nothing half-written: the first file is still the one served
    const row = (await db().select().from(videoSubmissions).where(eq(videoSubmissions.id, v.id)))[0]!;
    expect(row.captionsPath).toBe(path);
    expect((await s.client.get(`/mentorship/videos/${v.id}/captions`)).rawPayload.equals(VTT)).toBe(true);
  });

  it('accepts a byte-order mark and a header text; replacing or removing deletes the old file', async () => {
    const s = await student();
    const v = await submit(s.client);
    await sendCaptions(admin.client, v.id, VTT);
    const old = (await db().select().from(videoSubmissions).where(eq(videoSubmissions.id, v.id)))[0]!.captionsPath!;
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('WEBVTT - Lesson 1\r\n\r\n')]);
    expect((await sendCaptions(admin.client, v.id, withBom, 'pt-BR')).statusCode).toBe(200);
    expect(existsSync(t.app.deps.storage.privatePath(old)!)).toBe(false);
    const now = (await db().select().from(videoSubmissions).where(eq(videoSubmissions.id, v.id)))[0]!.captionsPath!;
    const removed = await admin.client.request('DELETE', `/mentorship/videos/${v.id}/captions`);
    expect(removed.statusCode).toBe(200);
    expect((removed.json() as { data: VideoSubmission }).data.captions).toBeNull();
    expect(existsSync(t.app.deps.storage.privatePath(now)!)).toBe(false);
    expect((await s.client.get(`/mentorship/videos/${v.id}/captions`)).statusCode).toBe(404);
  });
});
