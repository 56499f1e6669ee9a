import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createClient } from 'redis';
import type { ServerProcess } from '#test/server';
import { startTwoProcesses, type TwoProcesses } from '#test/two-processes';
import { BrowserSession } from '#test/browser-session';

/**
 * Read your own writes on any process (docs/product/read-your-writes.md): two real app processes on
 * one PostgreSQL database and one Redis, as behind a load balancer without sticky sessions. A member
 * writes through A and at once reads through B, which keeps the page in memory (lib/hot-cache.ts)
 * and hears A's commit only when PostgreSQL's notification reaches it. A thousand times, over the
 * writes members see: a new post, a reply, a like, a chat message. Needs TEST_DATABASE_URL and
 * REDIS_URL (CI sets both).
 */
const enabled = !!process.env.TEST_DATABASE_URL && !!process.env.REDIS_URL;
const ROUNDS = 1000;
let processes: TwoProcesses | undefined;
let database: TwoProcesses['database'] | undefined;
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
let redis: ReturnType<typeof createClient> | undefined;
const namespace = `bbrw${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  if (!enabled) return;
  processes = await startTwoProcesses({ prefix: 'bb_rw', demo: true, env: { KEY_NAMESPACE: namespace } });
  ({ database, a, b } = processes);
  redis = createClient({ url: process.env.REDIS_URL! });
  await redis.connect();
}, 180_000);

afterAll(async () => {
  await redis?.quit();
  await processes?.stop();
});

/** the writes here come faster than a member's abuse limits allow: their counters are cleared */
async function clearLimits() {
  const keys = await redis!.keys(`${namespace}:rl:*`);
  if (keys.length) await redis!.del(keys);
}

interface PostDto {
  id: number;
  numLikes: number;
  authLiked: boolean;
  children: PostDto[];
}

it.skipIf(!enabled)(
  'a member who writes on one process reads their write on the other at once, every time',
  async () => {
    const member = await BrowserSession.open(a!.url);
    expect((await member.signIn('member@demo.test', 'drumsdemo1')).status).toBe(200);
    const { lessonId, showId } = await ids();
    const write = async (url: string, body: unknown) => {
      await clearLimits();
      const res = await member.send('POST', url, body, { on: a!.url });
      expect(res.status, `${url}: ${await res.clone().text()}`).toBeLessThan(300);
      return res.json();
    };
    const read = async <T>(url: string): Promise<T> => {
      const res = await member.get(url, b!.url);
      expect(res.status, url).toBe(200);
      return (await res.json()) as T;
    };
    const threadPage = `/posts?id=${lessonId}&type=lesson`;
    const chatPage = `/live-chat/get?showId=${showId}`;

    // a parent post to reply to and like; both pages read once through B, so B keeps them
    const { post: parent } = (await write('/posts', {
      type: 'lesson',
      resource_id: lessonId,
      body: 'Groove check',
    })) as { post: PostDto };
    const conversation = `/posts/thread?id=${lessonId}&type=lesson&post_id=${parent.id}`;
    await read(threadPage);
    await read(conversation);
    await read(chatPage);

    let stale = 0;
    let likes = 0;
    const seen = (ok: boolean) => {
      if (!ok) stale++;
    };
    for (let round = 0; round < ROUNDS; round++) {
      switch (round % 4) {
        case 0: {
          const { post: created } = (await write('/posts', {
            type: 'lesson',
            resource_id: lessonId,
            body: `New post ${round}`,
          })) as { post: PostDto };
          const page = await read<{ posts: PostDto[] }>(threadPage);
          seen(page.posts[0]?.id === created.id);
          break;
        }
        case 1: {
          const { post: reply } = (await write('/posts', {
            type: 'lesson',
            resource_id: lessonId,
            parent_id: parent.id,
            body: `Reply ${round}`,
          })) as { post: PostDto };
          const page = await read<{ posts: PostDto[] }>(conversation);
          seen(page.posts[0]?.children.at(-1)?.id === reply.id);
          break;
        }
        case 2: {
          const liked = (await write('/toggle-like', { type: 'post', resource_id: parent.id })) as {
            liked: boolean;
          };
          likes += liked.liked ? 1 : -1;
          const page = await read<{ posts: PostDto[] }>(conversation);
          seen(page.posts[0]?.numLikes === likes && page.posts[0]?.authLiked === liked.liked);
          break;
        }
        default: {
          const sent = (await write('/live-chat/messages', { body: `Chat ${round}`, showId })) as { id: number };
          const page = await read<{ messages: { id: number }[] }>(chatPage);
          seen(page.messages.at(-1)?.id === sent.id);
        }
      }
    }
    expect(stale, `stale reads out of ${ROUNDS}`).toBe(0);
  },
  600_000,
);

/** a lesson the demo member may discuss, and the live show with its chat open */
async function ids(): Promise<{ lessonId: number; showId: number }> {
  const client = new pg.Client({ connectionString: database!.url });
  await client.connect();
  try {
    const lesson = await client.query<{ id: number }>('select id from lessons order by id limit 1');
    const show = await client.query<{ id: number }>(
      "select id from live_shows where status = 'live' and chat_open order by id limit 1",
    );
    return { lessonId: lesson.rows[0]!.id, showId: show.rows[0]!.id };
  } finally {
    await client.end();
  }
}
