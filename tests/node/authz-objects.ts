import { eq } from 'drizzle-orm';
import { settingsPart, START_UP } from '#shared/metronome';
import { DEFAULT_TEMPLATE } from '#shared/songmapper';
import { forumCategories, forumTopics, mentorships, posts, wallComments } from '#server/db/schema/index';
import type { TestApp, TestClient } from '#server/test/harness';

type Member = Awaited<ReturnType<TestApp['signedIn']>>;
export interface ObjectContext {
  app: TestApp;
  owner: Member;
  other: Member;
  admin: TestClient;
}
export interface ObjectCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: Record<string, unknown>;
}
export interface ObjectCase {
  name: string;
  /** the owner's and the other member's entitlements (default membership) */
  ownerEntitlements?: string[];
  /** makes the owner's thing and answers the call another member tries on it */
  setup: (ctx: ObjectContext) => Promise<ObjectCall>;
  /** what the owner's thing looks like now (must not change when another member is refused) */
  observe?: (ctx: ObjectContext, call: ObjectCall) => Promise<unknown>;
  /** admins may do it (moderation, mentoring), may not (private to the member), or not asserted */
  admin?: 'allowed' | 'refused';
}

const json = async (client: TestClient, url: string) => (await client.get(url)).json() as Record<string, unknown>;

async function ownersPost(ctx: ObjectContext) {
  const db = ctx.app.app.deps.db;
  const [cat] = await db.insert(forumCategories).values({ slug: `authz-${Math.random().toString(36).slice(2, 8)}`, title: 'Authz' }).returning();
  const [topic] = await db.insert(forumTopics).values({ categoryId: cat!.id, userId: ctx.owner.user.id, title: 'Owner topic' }).returning();
  const res = await ctx.owner.client.post('/posts', { type: 'forumtopic', resource_id: topic!.id, parent_id: null, body: 'The owner wrote this.' });
  return (res.json() as { post: { id: number } }).post.id;
}
const postRow = async (ctx: ObjectContext, id: number) => (await ctx.app.app.deps.db.select({ body: posts.body, trashed: posts.trashedAt }).from(posts).where(eq(posts.id, id)))[0];

/** Issue 9's object-level cases: another member's post, wall comment, song, settings, practice plan, links, upload, video, notification. */
export const OBJECT_CASES: ObjectCase[] = [
  {
    name: "another member's post cannot be edited (admins may)",
    setup: async (ctx) => ({ method: 'PATCH', url: `/posts/${await ownersPost(ctx)}`, body: { body: 'Hijacked.' } }),
    observe: (ctx, call) => postRow(ctx, Number(call.url.split('/')[2])),
    admin: 'allowed',
  },
  {
    name: "another member's post cannot be deleted (admins may)",
    setup: async (ctx) => ({ method: 'DELETE', url: `/posts/${await ownersPost(ctx)}` }),
    observe: (ctx, call) => postRow(ctx, Number(call.url.split('/')[2])),
    admin: 'allowed',
  },
  {
    name: "another member's wall comment cannot be deleted by a third member (admins may)",
    setup: async (ctx) => {
      // the answer is the wall's first page, newest first
      const res = await ctx.owner.client.post('/profile-comments', { body: 'On my own wall.', to_id: ctx.owner.user.id });
      const id = (res.json() as Array<{ id: number }>)[0]!.id;
      return { method: 'DELETE', url: `/profile-comments/${id}` };
    },
    observe: async (ctx, call) => (await ctx.app.app.deps.db.select().from(wallComments).where(eq(wallComments.id, Number(call.url.split('/')[2])))).length,
    admin: 'allowed',
  },
  {
    name: "another member's song cannot be read",
    setup: async (ctx) => {
      const res = await ctx.owner.client.post('/songmapper', { song: { ...DEFAULT_TEMPLATE, title: 'Private song', bpm: '90' }, id: null });
      return { method: 'GET', url: `/api/songmapper/${(res.json() as { id: number }).id}` };
    },
  },
  {
    name: "another member's song cannot be deleted",
    setup: async (ctx) => {
      const res = await ctx.owner.client.post('/songmapper', { song: { ...DEFAULT_TEMPLATE, title: 'Private song', bpm: '90' }, id: null });
      return { method: 'DELETE', url: `/songmapper/${(res.json() as { id: number }).id}` };
    },
    observe: async (ctx, call) => (await ctx.owner.client.get(`/api/songmapper/${call.url.split('/')[2]}`)).statusCode,
  },
  {
    name: "another member's saved metronome settings cannot be changed",
    setup: async (ctx) => {
      const res = await ctx.owner.client.post('/api/metronome_settings', { name: 'Mine', settings: { ...settingsPart(START_UP), bpm: 90 } });
      return { method: 'PATCH', url: `/api/metronome_settings/${(res.json() as { data: { id: number } }).data.id}`, body: { name: 'Theirs' } };
    },
    observe: async (ctx) => json(ctx.owner.client, '/api/metronome_settings'),
  },
  {
    name: "another student's practice plan cannot be read (their mentor, an admin, may)",
    ownerEntitlements: ['mentorship'],
    setup: async (ctx) => {
      await ctx.app.app.deps.db.insert(mentorships).values({ studentId: ctx.owner.user.id, option: 'onetime' });
      return { method: 'GET', url: `/mentorship/practice-plan?student_id=${ctx.owner.user.id}` };
    },
    admin: 'allowed',
  },
  {
    name: "another student's accountability link cannot be deleted (admins may)",
    ownerEntitlements: ['mentorship'],
    setup: async (ctx) => {
      await ctx.app.app.deps.db.insert(mentorships).values({ studentId: ctx.owner.user.id, option: 'onetime' });
      const res = await ctx.owner.client.post('/mentorship/accountability/links', { student_id: ctx.owner.user.id, url: 'https://www.youtube.com/watch?v=abc', label: 'Week 1' });
      return { method: 'DELETE', url: `/mentorship/accountability/links/${(res.json() as { link: { id: number } }).link.id}` };
    },
    observe: async (ctx) => (await ctx.owner.client.get(`/mentorship/accountability?student_id=${ctx.owner.user.id}`)).body,
    admin: 'allowed',
  },
  {
    name: "another member's upload session cannot be looked at",
    ownerEntitlements: ['mentorship'],
    setup: async (ctx) => {
      const res = await ctx.owner.client.post('/uploads/chunked', { phase: 'start', mime_type: 'video/mp4', size: 1000, name: 'groove.mp4' });
      return { method: 'GET', url: `/uploads/chunked/${(res.json() as { data: { session_id: string } }).data.session_id}` };
    },
  },
  {
    name: "another member's notification cannot be opened",
    setup: async (ctx) => {
      await ctx.app.app.deps.services.notifications.notify(ctx.owner.user.id, { body: 'Private note', url: '/dashboard' });
      const list = (await json(ctx.owner.client, '/api/notifications')) as { data: Array<{ id: number }> };
      return { method: 'GET', url: `/api/notifications/${list.data[0]!.id}` };
    },
    admin: 'refused',
  },
];
