/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { eq } from 'drizzle-orm';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { LIVE_MESSAGES } from '#shared/live';
import { showChannel } from '#shared/realtime';
import { RATE_LIMITS } from '#server/lib/rate-limits';
import { chatHearts, chatMessages, liveShows } from '#server/db/schema/index';
import { createTestApp, subscribe, type TestApp } from '#test/api-harness';
import { until } from '#test/until';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const member = () => t.signedIn({ entitlements: ['membership'] });
const student = () => t.signedIn({ entitlements: ['mentorship'] });
const free = () => t.signedIn();
const admin = () => t.signedIn({ role: 'admin' });

async function newShow(values: Partial<typeof liveShows.$inferInsert> = {}) {
  const [show] = await t.app.deps.db
    .insert(liveShows)
    .values({ title: 'Clinic', startsAt: new Date(), status: 'live', chatOpen: true, ...values })
    .returning();
  return show!;
}

/** every event a socket receives, to look at after the fact */
function collect(socket: Socket) {
  const events: { channel: string; event: string; payload: Record<string, unknown> }[] = [];
  socket.on('event', (m) => events.push(m));
  return events;
}

describe('shows', () => {
  it('lists live, upcoming and past shows for community members only', async () => {
    const live = await newShow({ title: 'On air' });
    const soon = await newShow({
      title: 'Soon',
      status: 'scheduled',
      chatOpen: false,
      startsAt: new Date(Date.now() + 86_400_000),
    });
    const past = await newShow({
      title: 'Done',
      status: 'ended',
      chatOpen: false,
      startsAt: new Date(Date.now() - 86_400_000),
    });
    for (const who of [member, student, admin]) {
      const res = await (await who()).client.get('/api/live/shows');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.live.map((s: { id: number }) => s.id)).toContain(live.id);
      expect(body.upcoming.map((s: { id: number }) => s.id)).toContain(soon.id);
      expect(body.past.map((s: { id: number }) => s.id)).toContain(past.id);
    }
    expect((await (await t.client()).get('/api/live/shows')).statusCode).toBe(401);
    const denied = await (await free()).client.get('/api/live/shows');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(COMMUNITY_MESSAGES.communityMembersOnly);
  });

  it('answers one show, 404 for an unknown one', async () => {
    const show = await newShow({
      title: 'One',
      description: 'About it',
      videoUrl: 'https://www.youtube-nocookie.com/embed/abcdefghijk',
      topic: 'Pinned',
    });
    const { client } = await member();
    const res = await client.get(`/api/live/shows/${show.id}`);
    expect(res.json().data).toEqual({
      id: show.id,
      title: 'One',
      description: 'About it',
      startsAt: show.startsAt.toISOString(),
      status: 'live',
      videoUrl: 'https://www.youtube-nocookie.com/embed/abcdefghijk',
      chatOpen: true,
      topic: 'Pinned',
    });
    expect((await client.get(`/api/live/shows/${show.id + 9999}`)).statusCode).toBe(404);
    expect((await (await free()).client.get(`/api/live/shows/${show.id}`)).statusCode).toBe(403);
  });

  it('admins schedule a show with an https embed from an allowed host only', async () => {
    const { client } = await admin();
    const startsAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const ok = await client.post('/api/live/shows', {
      title: '  Fills  ',
      description: 'Tom fills',
      starts_at: startsAt,
      video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data).toMatchObject({
      title: 'Fills',
      status: 'scheduled',
      chatOpen: false,
      startsAt,
      videoUrl: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    });
    const vimeo = await client.post('/api/live/shows', {
      title: 'V',
      starts_at: startsAt,
      video_url: 'https://vimeo.com/123456',
    });
    expect(vimeo.json().data.videoUrl).toBe('https://player.vimeo.com/video/123456');
    const none = await client.post('/api/live/shows', { title: 'No video yet', starts_at: startsAt });
    expect(none.json().data.videoUrl).toBeNull();

    for (const bad of [
      'http://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://evil.example/embed/dQw4w9WgXcQ',
      'javascript:alert(1)',
      'https://www.paypal.com/x',
      'https://www.youtube.com/embed/a"onload',
    ]) {
      const res = await client.post('/api/live/shows', { title: 'Bad', starts_at: startsAt, video_url: bad });
      expect(res.statusCode, bad).toBe(422);
      expect(res.json().errors.video_url).toEqual([LIVE_MESSAGES.videoUrlInvalid]);
    }
    const missing = await client.post('/api/live/shows', { title: ' ', starts_at: 'tomorrow-ish' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.title).toEqual([LIVE_MESSAGES.titleRequired]);
    expect(missing.json().errors.starts_at).toEqual([LIVE_MESSAGES.startsAtInvalid]);

    const m = await member();
    expect((await m.client.post('/api/live/shows', { title: 'Mine', starts_at: startsAt })).statusCode).toBe(403);
    expect((await (await t.client()).post('/api/live/shows', { title: 'Mine', starts_at: startsAt })).statusCode).toBe(
      401,
    );
  });

  it('admins go live, end the show and open or close the chat; each change is broadcast on the show channel', async () => {
    const show = await newShow({ status: 'scheduled', chatOpen: false });
    const { client } = await admin();
    const viewer = await member();
    const socket = await t.socket(viewer.client);
    expect(await subscribe(socket, showChannel(show.id))).toEqual({ ok: true });
    const events = collect(socket);

    const live = await client.post(`/api/live/shows/${show.id}/status`, { status: 'live' });
    expect(live.json().data).toMatchObject({ status: 'live', chatOpen: true });
    const closed = await client.post(`/api/live/shows/${show.id}/chat`, { open: false });
    expect(closed.json().data).toMatchObject({ status: 'live', chatOpen: false });
    const open = await client.post(`/api/live/shows/${show.id}/chat`, { open: '1' }, { form: true });
    expect(open.json().data.chatOpen).toBe(true);
    const ended = await client.post(`/api/live/shows/${show.id}/status`, { status: 'ended' });
    expect(ended.json().data).toMatchObject({ status: 'ended', chatOpen: false });
    await until('the events', () => events.length === 4);
    expect(
      events.map((e) => [
        e.event,
        (e.payload.show as { status: string }).status,
        (e.payload.show as { chatOpen: boolean }).chatOpen,
      ]),
    ).toEqual([
      ['ShowUpdated', 'live', true],
      ['ShowUpdated', 'live', false],
      ['ShowUpdated', 'live', true],
      ['ShowUpdated', 'ended', false],
    ]);

    expect((await client.post(`/api/live/shows/${show.id}/status`, { status: 'paused' })).statusCode).toBe(422);
    expect((await client.post(`/api/live/shows/${show.id + 9999}/status`, { status: 'live' })).statusCode).toBe(404);
    expect((await viewer.client.post(`/api/live/shows/${show.id}/status`, { status: 'live' })).statusCode).toBe(403);
    expect((await viewer.client.post(`/api/live/shows/${show.id}/chat`, { open: true })).statusCode).toBe(403);
    expect((await (await t.client()).post(`/api/live/shows/${show.id}/chat`, { open: true })).statusCode).toBe(401);
  });

  it("only community members join a show's channel", async () => {
    const show = await newShow();
    expect((await subscribe(await t.socket((await member()).client), showChannel(show.id))).ok).toBe(true);
    expect((await subscribe(await t.socket((await student()).client), showChannel(show.id))).ok).toBe(true);
    expect((await subscribe(await t.socket((await free()).client), showChannel(show.id))).ok).toBe(false);
    expect((await subscribe(await t.socket(await t.client()), showChannel(show.id))).ok).toBe(false);
    expect((await subscribe(await t.socket((await member()).client), showChannel(show.id + 9999))).ok).toBe(false);
  });
});

describe('GET /live-chat/get', () => {
  it('answers the newest page in chronological order, then older pages through from/more', async () => {
    const show = await newShow({ topic: 'Ghost notes' });
    const { user, client } = await member();
    const other = await admin();
    const total = COMMUNITY.chatPageSize + 7;
    const rows = await t.app.deps.db
      .insert(chatMessages)
      .values(
        Array.from({ length: total }, (_, i) => ({
          showId: show.id,
          userId: i % 2 ? user.id : other.user.id,
          body: `m${i}`,
        })),
      )
      .returning({ id: chatMessages.id });
    await t.app.deps.db.insert(chatHearts).values({ messageId: rows[total - 1]!.id, userId: user.id });
    await t.app.deps.db
      .update(chatMessages)
      .set({ heartsCount: 1 })
      .where(eq(chatMessages.id, rows[total - 1]!.id));
    // a hidden message (reported and hidden by an admin) is left out
    await t.app.deps.db
      .update(chatMessages)
      .set({ hiddenAt: new Date() })
      .where(eq(chatMessages.id, rows[total - 2]!.id));

    const first = (await client.get(`/live-chat/get?showId=${show.id}`)).json();
    expect(first.topic).toBe('Ghost notes');
    expect(first.more).toBe(true);
    expect(first.messages).toHaveLength(COMMUNITY.chatPageSize);
    const bodies = first.messages.map((m: { body: string }) => m.body);
    expect(bodies.at(-1)).toBe(`m${total - 1}`);
    expect(bodies).not.toContain(`m${total - 2}`);
    expect(bodies[0]).toBe(`m${total - 1 - COMMUNITY.chatPageSize}`);
    expect(first.from).toBe(first.messages[0].id);
    const newest = first.messages.at(-1);
    expect(newest).toEqual({
      id: rows[total - 1]!.id,
      name: other.user.name,
      admin: true,
      avatar_url: '/images/default-avatar.png',
      profile_url: expect.stringMatching(/^\/profile\//),
      body: `m${total - 1}`,
      hearts: 1,
      hearted: true,
      timestamp: expect.any(Number),
    });
    expect(Math.abs(newest.timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(first.messages.map((m: { admin: boolean }) => m.admin).slice(0, 2)).toEqual([true, false]);

    const older = (await client.get(`/live-chat/get?showId=${show.id}&from=${first.from}`)).json();
    expect(older.more).toBe(false);
    expect(older.messages.map((m: { body: string }) => m.body)).toEqual(
      Array.from({ length: total - 1 - COMMUNITY.chatPageSize }, (_, i) => `m${i}`),
    );
    expect(older.from).toBe(rows[0]!.id);

    const empty = (await client.get(`/live-chat/get?showId=${(await newShow()).id}`)).json();
    expect(empty).toEqual({ messages: [], topic: null, from: null, more: false });
  });

  it('reads a page with a fixed number of queries whatever its size', async () => {
    const { user, client } = await member();
    const authors = await Promise.all(Array.from({ length: 5 }, () => t.createUser()));
    const big = await newShow();
    await t.app.deps.db
      .insert(chatMessages)
      .values(Array.from({ length: 40 }, (_, i) => ({ showId: big.id, userId: authors[i % 5]!.id, body: `x${i}` })));
    const small = await newShow();
    await t.app.deps.db.insert(chatMessages).values({ showId: small.id, userId: user.id, body: 'one' });
    // the member's session is read once and then kept in memory (lib/hot-cache.ts): read it first
    await client.get('/notifications/recent');
    const many = await t.countQueries(() => client.get(`/live-chat/get?showId=${big.id}`));
    const few = await t.countQueries(() => client.get(`/live-chat/get?showId=${small.id}`));
    expect(many).toBeGreaterThan(0);
    expect(many).toBe(few);
  });

  it('permissions: visitor 401, free member 403 with the spec message, unknown show 404, bad query 422', async () => {
    const show = await newShow();
    expect((await (await t.client()).get(`/live-chat/get?showId=${show.id}`)).statusCode).toBe(401);
    const f = await (await free()).client.get(`/live-chat/get?showId=${show.id}`);
    expect(f.statusCode).toBe(403);
    expect(f.json().message).toBe(COMMUNITY_MESSAGES.communityMembersOnly);
    const { client } = await student();
    expect((await client.get(`/live-chat/get?showId=${show.id}`)).statusCode).toBe(200);
    expect((await client.get(`/live-chat/get?showId=${show.id + 9999}`)).statusCode).toBe(404);
    expect((await client.get('/live-chat/get?showId=abc')).statusCode).toBe(422);
  });
});

describe('POST /live-chat/messages', () => {
  it('stores a trimmed message, answers its id and broadcasts it to everyone but the sender socket', async () => {
    const show = await newShow();
    const sender = await member();
    const viewer = await member();
    const senderSocket = await t.socket(sender.client);
    const senderOtherTab = await t.socket(sender.client);
    const viewerSocket = await t.socket(viewer.client);
    for (const s of [senderSocket, senderOtherTab, viewerSocket])
      expect(await subscribe(s, showChannel(show.id))).toEqual({ ok: true });
    const toSender = collect(senderSocket);
    const toOtherTab = collect(senderOtherTab);
    const toViewer = collect(viewerSocket);

    const res = await sender.client.post(
      '/live-chat/messages',
      { body: '  Hello <b>band</b>  ', showId: show.id },
      { headers: { 'x-socket-id': senderSocket.id! } },
    );
    expect(res.statusCode).toBe(200);
    const { id } = res.json();
    expect(id).toEqual(expect.any(Number));
    await until('the events', () => toViewer.length === 1 && toOtherTab.length === 1);
    expect(toViewer[0]).toMatchObject({
      channel: showChannel(show.id),
      event: 'NewMessage',
      payload: {
        message: { id, name: sender.user.name, admin: false, body: 'Hello <b>band</b>', hearts: 0, hearted: false },
      },
    });
    // a socket receives its events in the order they were sent: had the message reached the sending
    // socket, it would have come before the viewer's heart on it
    await viewer.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id });
    await until('the heart on the sending socket', () => toSender.length > 0);
    expect(toSender.map((e) => e.event)).toEqual(['HeartAdded']);

    const page = (await viewer.client.get(`/live-chat/get?showId=${show.id}`)).json();
    expect(page.messages.map((m: { id: number; body: string }) => [m.id, m.body])).toEqual([[id, 'Hello <b>band</b>']]);

    // a form post works too (a client may send either)
    expect(
      (await sender.client.post('/live-chat/messages', { body: 'form', showId: String(show.id) }, { form: true }))
        .statusCode,
    ).toBe(200);
  });

  it('validates the body: required, at most the maximum length; the chat must be open', async () => {
    const show = await newShow();
    const { client } = await member();
    for (const body of [{ showId: show.id }, { body: '', showId: show.id }, { body: '   \n ', showId: show.id }]) {
      const res = await client.post('/live-chat/messages', body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.body).toEqual([COMMUNITY_MESSAGES.bodyRequired]);
    }
    const long = await client.post('/live-chat/messages', {
      body: 'x'.repeat(COMMUNITY.chatBodyMax + 1),
      showId: show.id,
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.body).toEqual([COMMUNITY_MESSAGES.bodyTooLong(COMMUNITY.chatBodyMax)]);
    expect(
      (await client.post('/live-chat/messages', { body: 'x'.repeat(COMMUNITY.chatBodyMax), showId: show.id }))
        .statusCode,
    ).toBe(200);

    const closed = await newShow({ chatOpen: false });
    const res = await client.post('/live-chat/messages', { body: 'anyone?', showId: closed.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.body).toEqual([COMMUNITY_MESSAGES.chatClosed]);
    expect((await client.post('/live-chat/messages', { body: 'hi', showId: show.id + 9999 })).statusCode).toBe(404);
  });

  it('permissions: visitor 401, free member 403', async () => {
    const show = await newShow();
    expect((await (await t.client()).post('/live-chat/messages', { body: 'hi', showId: show.id })).statusCode).toBe(
      401,
    );
    const res = await (await free()).client.post('/live-chat/messages', { body: 'hi', showId: show.id });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(COMMUNITY_MESSAGES.communityMembersOnly);
    expect((await (await admin()).client.post('/live-chat/messages', { body: 'hi', showId: show.id })).statusCode).toBe(
      200,
    );
  });

  it('rate-limits a member (429 with a body error) without stopping anyone else', async () => {
    const show = await newShow();
    const flooder = await member();
    const codes: number[] = [];
    for (let i = 0; i < RATE_LIMITS.chatPerUser.points + 3; i++) {
      const res = await flooder.client.post('/live-chat/messages', { body: `spam ${i}`, showId: show.id });
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().errors.body).toEqual([LIVE_MESSAGES.chatTooFast]);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(codes.filter((c) => c === 200)).toHaveLength(RATE_LIMITS.chatPerUser.points);
    expect(codes.filter((c) => c === 429)).toHaveLength(3);
    const other = await member();
    expect((await other.client.post('/live-chat/messages', { body: 'still here', showId: show.id })).statusCode).toBe(
      200,
    );
    const page = (await other.client.get(`/live-chat/get?showId=${show.id}`)).json();
    expect(page.messages).toHaveLength(RATE_LIMITS.chatPerUser.points + 1);
  });
  it("the show's crowd shares one pace: past it members hear that the chat is busy, the host still posts", async () => {
    const show = await newShow();
    const quiet = await newShow();
    // the rest of the crowd has written all but one of the show's messages in this window
    await t.app.deps.limiters.consume('chatPerShow', String(show.id), RATE_LIMITS.chatPerShow.points - 1);
    const [first, second] = [await member(), await member()];
    expect((await first.client.post('/live-chat/messages', { body: 'last one in', showId: show.id })).statusCode).toBe(
      200,
    );
    const busy = await second.client.post('/live-chat/messages', { body: 'me too', showId: show.id });
    expect(busy.statusCode).toBe(429);
    expect(busy.json().errors.body).toEqual([LIVE_MESSAGES.chatBusy]);
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    // the host is never held back, and another show keeps its own pace
    expect(
      (await (await admin()).client.post('/live-chat/messages', { body: 'Slow down, all', showId: show.id }))
        .statusCode,
    ).toBe(200);
    expect((await second.client.post('/live-chat/messages', { body: 'me too', showId: quiet.id })).statusCode).toBe(
      200,
    );
    const page = (await second.client.get(`/live-chat/get?showId=${show.id}`)).json();
    expect(page.messages.map((m: { body: string }) => m.body)).toEqual(['last one in', 'Slow down, all']);
  });
});

describe('POST /live-chat/set-topic', () => {
  it('admins set and clear the topic; it is broadcast as NewTopic', async () => {
    const show = await newShow();
    const staff = await admin();
    const viewer = await member();
    const socket = await t.socket(viewer.client);
    await subscribe(socket, showChannel(show.id));
    const events = collect(socket);

    const set = await staff.client.post('/live-chat/set-topic', { body: '  Groove 3 at 80 bpm ', showId: show.id });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ topic: 'Groove 3 at 80 bpm' });
    expect((await viewer.client.get(`/live-chat/get?showId=${show.id}`)).json().topic).toBe('Groove 3 at 80 bpm');
    expect((await staff.client.post('/live-chat/set-topic', { body: '', showId: show.id })).json()).toEqual({
      topic: null,
    });
    expect((await viewer.client.get(`/api/live/shows/${show.id}`)).json().data.topic).toBeNull();
    await until('the events', () => events.length === 2);
    expect(events.map((e) => [e.event, e.payload.topic])).toEqual([
      ['NewTopic', 'Groove 3 at 80 bpm'],
      ['NewTopic', null],
    ]);
    expect(
      (
        await staff.client.post('/live-chat/set-topic', {
          body: 'x'.repeat(COMMUNITY.chatBodyMax + 1),
          showId: show.id,
        })
      ).statusCode,
    ).toBe(422);
    expect((await staff.client.post('/live-chat/set-topic', { body: 'x', showId: show.id + 9999 })).statusCode).toBe(
      404,
    );
  });

  it('members 403, free members 403, visitors 401', async () => {
    const show = await newShow({ topic: 'keep me' });
    expect(
      (await (await member()).client.post('/live-chat/set-topic', { body: 'mine now', showId: show.id })).statusCode,
    ).toBe(403);
    expect(
      (await (await free()).client.post('/live-chat/set-topic', { body: 'mine now', showId: show.id })).statusCode,
    ).toBe(403);
    expect(
      (await (await t.client()).post('/live-chat/set-topic', { body: 'mine now', showId: show.id })).statusCode,
    ).toBe(401);
    expect((await t.app.deps.services.live.show(show.id)).topic).toBe('keep me');
  });
});

describe('POST /live-chat/toggle-heart', () => {
  async function messageIn(showId: number) {
    const author = await member();
    const res = await author.client.post('/live-chat/messages', { body: 'heart me', showId });
    return res.json().id as number;
  }
  const count = async (id: number) =>
    (await t.app.deps.db.select().from(chatMessages).where(eq(chatMessages.id, id)))[0]!.heartsCount;
  const rows = async (id: number) =>
    (await t.app.deps.db.select().from(chatHearts).where(eq(chatHearts.messageId, id))).length;

  it('toggles one heart per member per message and broadcasts HeartAdded/HeartRemoved except to the sender socket', async () => {
    const show = await newShow();
    const id = await messageIn(show.id);
    const fan = await member();
    const viewer = await member();
    const fanSocket = await t.socket(fan.client);
    const viewerSocket = await t.socket(viewer.client);
    await subscribe(fanSocket, showChannel(show.id));
    await subscribe(viewerSocket, showChannel(show.id));
    const toFan = collect(fanSocket);
    const toViewer = collect(viewerSocket);
    const headers = { 'x-socket-id': fanSocket.id! };

    expect(
      (await fan.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id }, { headers })).json(),
    ).toEqual({ hearted: true, hearts: 1 });
    expect((await viewer.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id })).json()).toEqual({
      hearted: true,
      hearts: 2,
    });
    expect(
      (await fan.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id }, { headers })).json(),
    ).toEqual({ hearted: false, hearts: 1 });
    await until('the events', () => toViewer.length === 3);
    expect(toViewer.map((e) => [e.event, e.payload.messageId])).toEqual([
      ['HeartAdded', id],
      ['HeartAdded', id],
      ['HeartRemoved', id],
    ]);
    const page = (await fan.client.get(`/live-chat/get?showId=${show.id}`)).json();
    expect(page.messages[0]).toMatchObject({ id, hearts: 1, hearted: false });
    expect((await viewer.client.get(`/live-chat/get?showId=${show.id}`)).json().messages[0]).toMatchObject({
      hearts: 1,
      hearted: true,
    });

    // the fan's socket only hears the viewer's hearts: its events come in the order they were sent, so
    // the fan's own would have come before the viewer's removal
    await viewer.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id });
    await until("the viewer's removal on the fan's socket", () => toFan.length === 2, { seen: () => toFan });
    expect(toFan.map((e) => [e.event, e.payload.userId])).toEqual([
      ['HeartAdded', viewer.user.id],
      ['HeartRemoved', viewer.user.id],
    ]);
  });

  it('stays exact under concurrent toggles and never goes below 0', async () => {
    const show = await newShow();
    const id = await messageIn(show.id);
    const fans = await Promise.all(Array.from({ length: 8 }, () => member()));
    // every fan toggles at the same time: 8 hearts
    await Promise.all(fans.map((f) => f.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id })));
    expect(await count(id)).toBe(8);
    expect(await rows(id)).toBe(8);
    // one fan toggles 7 times at once: an odd number of flips from hearted, whatever the order
    const one = fans[0]!;
    const answers = await Promise.all(
      Array.from({ length: 7 }, () => one.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id })),
    );
    for (const a of answers) expect(a.statusCode).toBe(200);
    expect(await count(id)).toBe(await rows(id));
    // everyone un-hearts concurrently, several times over: the count follows the rows and never goes below 0
    await Promise.all(
      fans.flatMap((f) =>
        [f, f, f].map(() => f.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id })),
      ),
    );
    const c = await count(id);
    expect(c).toBeGreaterThanOrEqual(0);
    expect(c).toBe(await rows(id));
    for (const answer of answers) expect(answer.json().hearts).toBeGreaterThanOrEqual(0);
  });

  it('a counter already at 0 (inconsistent data) stays at 0', async () => {
    const show = await newShow();
    const id = await messageIn(show.id);
    const fan = await member();
    await fan.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id });
    await t.app.deps.db.update(chatMessages).set({ heartsCount: 0 }).where(eq(chatMessages.id, id));
    expect((await fan.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id })).json()).toEqual({
      hearted: false,
      hearts: 0,
    });
    expect(await count(id)).toBe(0);
  });

  it('permissions, unknown or mismatched ids, and the hearts rate limit', async () => {
    const show = await newShow();
    const id = await messageIn(show.id);
    const elsewhere = await newShow();
    expect(
      (await (await t.client()).post('/live-chat/toggle-heart', { show_id: show.id, message_id: id })).statusCode,
    ).toBe(401);
    const f = await (await free()).client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id });
    expect(f.statusCode).toBe(403);
    expect(f.json().message).toBe(COMMUNITY_MESSAGES.communityMembersOnly);
    const { client } = await member();
    expect((await client.post('/live-chat/toggle-heart', { show_id: elsewhere.id, message_id: id })).statusCode).toBe(
      404,
    );
    expect((await client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id + 9999 })).statusCode).toBe(
      404,
    );
    expect((await client.post('/live-chat/toggle-heart', { show_id: show.id })).statusCode).toBe(422);

    const flood = await member();
    let limited = null;
    for (let i = 0; i < RATE_LIMITS.heartsPerUser.points + 1; i++) {
      const res = await flood.client.post('/live-chat/toggle-heart', { show_id: show.id, message_id: id });
      if (res.statusCode === 429) {
        limited = { i, body: res.json() };
        break;
      }
    }
    expect(limited?.i).toBe(RATE_LIMITS.heartsPerUser.points);
    expect(limited?.body.errors.body).toEqual([LIVE_MESSAGES.heartsTooFast]);
    expect(await count(id)).toBe(await rows(id));
  });
});
