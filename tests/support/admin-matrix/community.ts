import { randomBytes } from 'node:crypto';
import type { MatrixContext, MatrixRow } from './matrix.ts';
import { forumCategories, liveShows, reports, wallComments } from '#server/db/schema/index';

const db = (ctx: MatrixContext) => ctx.app.app.deps.db;
const slug = () => `matrix-${randomBytes(4).toString('hex')}`;
async function category(ctx: MatrixContext) {
  const s = slug();
  const [row] = await db(ctx)
    .insert(forumCategories)
    .values({ slug: s, title: `Matrix ${s}` })
    .returning();
  return row!;
}
async function show(ctx: MatrixContext) {
  const [row] = await db(ctx)
    .insert(liveShows)
    .values({ title: 'Matrix show', startsAt: new Date(Date.now() + 86_400_000) })
    .returning();
  return row!;
}
async function wallComment(ctx: MatrixContext) {
  const [row] = await db(ctx)
    .insert(wallComments)
    .values({ toId: ctx.adminId, userId: ctx.adminId, body: 'matrix comment' })
    .returning();
  return row!;
}
const showBody = {
  title: 'Matrix show',
  description: '',
  starts_at: new Date(Date.now() + 86_400_000).toISOString(),
  video_url: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
};

/** Every admin call of this module, for the authorisation matrix (src/server/modules/admin/matrix.test.ts). */
export const rows: MatrixRow[] = [
  // moderation
  {
    method: 'GET',
    route: '/api/admin/moderation',
    call: () => ({ url: '/api/admin/moderation?kind=wall&state=visible&q=matrix' }),
  },
  {
    method: 'POST',
    route: '/api/admin/moderation/:kind/:id',
    call: async (ctx) => ({
      url: `/api/admin/moderation/wall/${(await wallComment(ctx)).id}`,
      body: { action: 'hide' },
    }),
  },
  {
    method: 'GET',
    route: '/api/admin/members/:id/community',
    call: (ctx) => ({ url: `/api/admin/members/${ctx.adminId}/community` }),
  },
  // reports (modules/reports)
  { method: 'GET', route: '/api/admin/reports', call: () => ({ url: '/api/admin/reports?status=open' }) },
  {
    method: 'POST',
    route: '/api/admin/reports/:id',
    call: async (ctx) => {
      const reporter = await ctx.app.createUser();
      const [r] = await db(ctx)
        .insert(reports)
        .values({ kind: 'wall', targetId: (await wallComment(ctx)).id, reporterId: reporter.id, reason: 'matrix' })
        .returning();
      return { url: `/api/admin/reports/${r!.id}`, body: { action: 'dismiss' } };
    },
  },
  // forum categories
  { method: 'GET', route: '/api/admin/categories', call: () => ({ url: '/api/admin/categories?q=general' }) },
  {
    method: 'POST',
    route: '/api/admin/categories',
    admin: 201,
    call: () => ({ url: '/api/admin/categories', body: { title: 'Matrix category', slug: slug(), description: '' } }),
  },
  {
    method: 'GET',
    route: '/api/admin/categories/:id',
    call: async (ctx) => ({ url: `/api/admin/categories/${(await category(ctx)).id}` }),
  },
  {
    method: 'POST',
    route: '/api/admin/categories/:id',
    call: async (ctx) => {
      const c = await category(ctx);
      return { url: `/api/admin/categories/${c.id}`, body: { title: 'Renamed', slug: c.slug, description: 'x' } };
    },
  },
  {
    method: 'POST',
    route: '/api/admin/categories/:id/move',
    call: async (ctx) => ({ url: `/api/admin/categories/${(await category(ctx)).id}/move`, body: { direction: 'up' } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/categories/:id',
    call: async (ctx) => ({ url: `/api/admin/categories/${(await category(ctx)).id}` }),
  },
  // live shows
  {
    method: 'GET',
    route: '/api/admin/live-shows',
    call: () => ({ url: '/api/admin/live-shows?status=scheduled&q=show' }),
  },
  {
    method: 'POST',
    route: '/api/admin/live-shows',
    admin: 201,
    call: () => ({ url: '/api/admin/live-shows', body: showBody }),
  },
  {
    method: 'GET',
    route: '/api/admin/live-shows/:id',
    call: async (ctx) => ({ url: `/api/admin/live-shows/${(await show(ctx)).id}` }),
  },
  {
    method: 'POST',
    route: '/api/admin/live-shows/:id',
    call: async (ctx) => ({ url: `/api/admin/live-shows/${(await show(ctx)).id}`, body: showBody }),
  },
  {
    method: 'POST',
    route: '/api/admin/live-shows/:id/status',
    call: async (ctx) => ({ url: `/api/admin/live-shows/${(await show(ctx)).id}/status`, body: { status: 'live' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/live-shows/:id/chat',
    call: async (ctx) => ({ url: `/api/admin/live-shows/${(await show(ctx)).id}/chat`, body: { open: true } }),
  },
  {
    method: 'POST',
    route: '/api/admin/live-shows/:id/topic',
    call: async (ctx) => ({ url: `/api/admin/live-shows/${(await show(ctx)).id}/topic`, body: { topic: 'Grooves' } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/live-shows/:id',
    call: async (ctx) => ({ url: `/api/admin/live-shows/${(await show(ctx)).id}` }),
  },
];
