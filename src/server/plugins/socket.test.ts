import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { userRoom } from '#server/modules/realtime/service';
import type { Socket } from 'socket.io-client';
import { userChannel } from '#shared/realtime';
import { createTestApp, subscribe, type TestApp } from '#test/api-harness';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function nextEvent(socket: Socket, timeoutMs = 3000) {
  return new Promise<{ channel: string; event: string; payload: Record<string, unknown> } | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs);
    socket.once('event', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
  });
}

const member = (opts: Parameters<TestApp['createUser']>[0] = {}) => t.signedIn(opts);

describe('realtime', () => {
  it("disconnectUser closes every socket of that member and nobody else's; the member's room cannot be joined", async () => {
    const { user, client } = await member();
    const other = await member();
    const a = await t.socket(client);
    const b = await t.socket(client);
    const c = await t.socket(other.client);
    expect((await subscribe(c, userRoom(user.id))).ok).toBe(false);
    t.app.deps.realtime.disconnectUser(user.id);
    await vi.waitFor(() => expect([a.connected, b.connected]).toEqual([false, false]));
    expect(c.connected).toBe(true);
  });

  it('a user joins only their own private channel', async () => {
    const { user, client } = await member();
    const other = await member();
    const socket = await t.socket(client);
    expect(await subscribe(socket, userChannel(user.id))).toEqual({ ok: true });
    expect((await subscribe(socket, userChannel(other.user.id))).ok).toBe(false);
    expect((await subscribe(socket, 'anything-else')).ok).toBe(false);
  });

  it("a member joins an existing live show's channel; a visitor does not", async () => {
    const { liveShows } = await import('#server/db/schema/index');
    const [show] = await t.app.deps.db.insert(liveShows).values({ title: 'Clinic', startsAt: new Date() }).returning();
    const { client } = await member({ entitlements: ['membership'] });
    const socket = await t.socket(client);
    expect(await subscribe(socket, `show.${show!.id}`)).toEqual({ ok: true });
    expect((await subscribe(socket, `show.${show!.id + 1000}`)).ok).toBe(false);
    const visitor = await t.socket(await t.client());
    expect((await subscribe(visitor, `show.${show!.id}`)).ok).toBe(false);
  });

  it('a visitor (no session) joins no private channel', async () => {
    const { user } = await member();
    const socket = await t.socket(await t.client());
    expect((await subscribe(socket, userChannel(user.id))).ok).toBe(false);
  });

  it('a new notification reaches the open page at once', async () => {
    const { user, client } = await member();
    const socket = await t.socket(client);
    await subscribe(socket, userChannel(user.id));
    const { client: admin } = await member({ role: 'admin' });
    const received = nextEvent(socket);
    expect(
      (await admin.post('/api/admin/notifications', { user_id: user.id, body: 'Live in 5 minutes' })).statusCode,
    ).toBe(201);
    const message = await received;
    expect(message).toMatchObject({
      channel: userChannel(user.id),
      event: 'NotificationCreated',
      payload: { unread_count: 1 },
    });
    expect((message!.payload.notification as { body: string }).body).toBe('Live in 5 minutes');
  });

  it('X-Socket-ID leaves the sender out of a broadcast', async () => {
    const { user, client } = await member();
    const sender = await t.socket(client);
    const otherTab = await t.socket(client);
    await subscribe(sender, userChannel(user.id));
    await subscribe(otherTab, userChannel(user.id));
    const toSender = nextEvent(sender, 800);
    const toOther = nextEvent(otherTab);
    t.app.deps.realtime.publish(
      userChannel(user.id),
      'SoundslicePathStatus',
      { soundslice_path_id: 3, complete: true },
      { exceptSocketId: sender.id },
    );
    expect((await toOther)?.payload).toEqual({ soundslice_path_id: 3, complete: true });
    expect(await toSender).toBeNull();
  });

  describe('broadcasts to idle viewers (broadcast-frames.ts)', () => {
    async function viewer() {
      const { user, client } = await member();
      const socket = await t.socket(client);
      await subscribe(socket, userChannel(user.id));
      const server = t.app.io.sockets.sockets.get(socket.id!)!;
      return { channel: userChannel(user.id), socket, server };
    }

    it("go onto an idle viewer's websocket as the frame built once for all, not through engine.io's queue", async () => {
      const { channel, socket, server } = await viewer();
      let queued = 0;
      server.conn.on('packetCreate', () => queued++);
      const received = nextEvent(socket);
      t.app.deps.realtime.publish(channel, 'SoundslicePathStatus', { soundslice_path_id: 1, complete: true });
      expect((await received)?.payload).toEqual({ soundslice_path_id: 1, complete: true });
      expect(queued).toBe(0);
    });

    it('keep their order with the messages engine.io is still writing to that viewer', async () => {
      const { channel, socket, server } = await viewer();
      const order: number[] = [];
      const all = new Promise<void>((resolve) =>
        socket.on('event', (m: { payload: { n: number } }) => {
          order.push(m.payload.n);
          if (order.length === 40) resolve();
        }),
      );
      // a message to this socket alone takes engine.io's path and holds its transport until written:
      // the broadcasts right behind it queue there and must not overtake it
      for (let n = 0; n < 40; n++) {
        if (n % 4 === 0) server.emit('event', { channel, event: 'SoundslicePathStatus', payload: { n } });
        else t.app.deps.realtime.publish(channel, 'SoundslicePathStatus', { n });
      }
      await all;
      expect(order).toEqual(Array.from({ length: 40 }, (_, n) => n));
    });
  });
});
