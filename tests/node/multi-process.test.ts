import { afterAll, beforeAll, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { ServerProcess } from '#test/server';
import { startTwoProcesses, type TwoProcesses } from '#test/two-processes';
import { BrowserSession } from '#test/browser-session';
import { until } from '#test/until';

/**
 * Two real app processes on one PostgreSQL database and one Redis: a notification published by
 * process B reaches a member whose socket is connected to process A, and so do the live chat's
 * message, heart and topic change an admin posts through B. Needs TEST_DATABASE_URL and REDIS_URL
 * (CI sets both).
 */
const enabled = !!process.env.TEST_DATABASE_URL && !!process.env.REDIS_URL;
let processes: TwoProcesses | undefined;
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
const sockets: Socket[] = [];

beforeAll(async () => {
  if (!enabled) return;
  processes = await startTwoProcesses({ prefix: 'bb_mp', demo: true });
  ({ a, b } = processes);
}, 180_000);

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await processes?.stop();
});

/** A browser session against one process, signed in as a demo account. */
async function session(base: string, email: string) {
  const s = await BrowserSession.open(base);
  expect((await s.signIn(email, 'drumsdemo1')).status).toBe(200);
  return { cookie: s.cookie, token: s.token, id: await s.userId() };
}

async function socket(base: string, cookie: string) {
  const s = connect(base, { transports: ['websocket'], extraHeaders: { cookie }, forceNew: true });
  sockets.push(s);
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  return s;
}
const subscribe = (s: Socket, channel: string) =>
  new Promise<{ ok: boolean }>((resolve) => s.emit('subscribe', channel, resolve));

it.skipIf(!enabled)(
  'a broadcast published on one process reaches a client connected to the other',
  async () => {
    const member = await session(a!.url, 'member@demo.test');
    const staff = await session(b!.url, 'admin@demo.test');
    // the session made on A is valid on B too (shared store)
    const onB = (await (await fetch(`${b!.url}/api/me`, { headers: { cookie: member.cookie } })).json()) as {
      user: { id: number };
    };
    expect(onB.user.id).toBe(member.id);

    const s = await socket(a!.url, member.cookie);
    expect(await subscribe(s, `user.${member.id}`)).toEqual({ ok: true });
    expect((await subscribe(s, `user.${staff.id}`)).ok).toBe(false);

    const received = new Promise<{ event: string; payload: { notification: { body: string } } }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no event within 10 s')), 10_000);
      s.on('event', (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    const res = await fetch(`${b!.url}/api/admin/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: staff.cookie, 'x-csrf-token': staff.token },
      body: JSON.stringify({ user_id: member.id, body: 'Cross-process hello' }),
    });
    expect(res.status).toBe(201);
    const message = await received;
    expect(message.event).toBe('NotificationCreated');
    expect(message.payload.notification.body).toBe('Cross-process hello');
  },
  60_000,
);

type ShowEvent = { channel: string; event: string; payload: Record<string, unknown> };

it.skipIf(!enabled)(
  'chat messages, hearts and topic changes posted on one process reach a member connected to the other',
  async () => {
    const member = await session(a!.url, 'member@demo.test');
    const staff = await session(b!.url, 'admin@demo.test');
    const shows = (await (await fetch(`${a!.url}/api/live/shows`, { headers: { cookie: member.cookie } })).json()) as {
      live: { id: number; title: string }[];
    };
    const show = shows.live.find((s) => s.title === 'Sunday Groove Clinic')!;
    expect(show).toBeTruthy();

    const s = await socket(a!.url, member.cookie);
    expect(await subscribe(s, `show.${show.id}`)).toEqual({ ok: true });
    const events: ShowEvent[] = [];
    s.on('event', (m: ShowEvent) => events.push(m));
    const next = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const end = Date.now() + 10_000;
        const tick = () =>
          events.length >= count
            ? resolve()
            : Date.now() > end
              ? reject(new Error(`only ${events.length} events`))
              : setTimeout(tick, 25);
        tick();
      });
    const postB = (path: string, body: Record<string, unknown>) =>
      fetch(`${b!.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          cookie: staff.cookie,
          'x-csrf-token': staff.token,
        },
        body: JSON.stringify(body),
      });

    // A keeps the history in memory (lib/hot-cache.ts) from this read on: what B writes must still show
    const readA = async () =>
      (await (
        await fetch(`${a!.url}/live-chat/get?showId=${show.id}`, { headers: { cookie: member.cookie } })
      ).json()) as {
        topic: string;
        messages: { id: number; hearts: number }[];
      };
    const before = await readA();
    expect(await readA()).toEqual(before);

    const sent = await postB('/live-chat/messages', { body: 'Hello from process B', showId: show.id });
    expect(sent.status).toBe(200);
    const { id } = (await sent.json()) as { id: number };
    await next(1);
    expect(events[0]).toMatchObject({
      channel: `show.${show.id}`,
      event: 'NewMessage',
      payload: { message: { id, body: 'Hello from process B', admin: true } },
    });

    const heart = await postB('/live-chat/toggle-heart', { show_id: show.id, message_id: id });
    expect(await heart.json()).toEqual({ hearted: true, hearts: 1 });
    await next(2);
    expect(events[1]).toMatchObject({ event: 'HeartAdded', payload: { messageId: id } });

    expect((await postB('/live-chat/set-topic', { body: 'Across processes', showId: show.id })).status).toBe(200);
    await next(3);
    expect(events[2]).toMatchObject({ event: 'NewTopic', payload: { topic: 'Across processes' } });

    // and the history read through A shows what B wrote
    const page = await readA();
    expect(page.topic).toBe('Across processes');
    expect(page.messages.at(-1)).toMatchObject({ id, hearts: 1 });
  },
  60_000,
);

it.skipIf(!enabled)(
  'signing out on one process ends the session on the other, which had it in memory',
  async () => {
    const member = await session(a!.url, 'student@demo.test');
    const me = async (base: string) =>
      (
        (await (await fetch(`${base}/api/me`, { headers: { cookie: member.cookie } })).json()) as {
          user: { id: number } | null;
        }
      ).user;
    expect((await me(a!.url))?.id).toBe(member.id);
    expect((await me(b!.url))?.id).toBe(member.id);
    const out = await fetch(`${b!.url}/logout`, {
      method: 'POST',
      headers: { accept: 'application/json', cookie: member.cookie, 'x-csrf-token': member.token },
    });
    expect(out.status).toBeLessThan(400);
    expect(await me(b!.url)).toBeNull();
    // A hears the change through PostgreSQL (NOTIFY) within moments
    await until('A to see the sign-out', async () => (await me(a!.url)) === null);
  },
  60_000,
);
