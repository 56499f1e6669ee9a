import { PLACEMENT_QUESTIONS } from '#shared/placement';
import { DEFAULT_PLAN_LINKS } from '#shared/diagnostic';
import type { MatrixContext, MatrixRow } from './matrix.ts';

let seq = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${++seq}`;

const courseBody = () => ({
  title: 'Matrix course',
  slug: unique('matrix-course'),
  description: '',
  members_only: true,
  area: 'main',
  is_welcome: false,
  position: 0,
});
const lessonBody = () => ({
  title: 'Matrix lesson',
  slug: unique('matrix-lesson'),
  video_url: 'https://www.youtube-nocookie.com/embed/abc',
  members_only: false,
  position: 0,
});
const stageBody = () => ({ title: unique('Matrix stage'), description: '', steps: ['One step'] });
const achievementBody = () => ({
  name: 'Matrix badge',
  slug: unique('matrix-badge'),
  description: '',
  image_url: '/images/achievements/first-lesson.svg',
  rule: 'lessons',
  threshold: 3,
  position: 99,
});

async function created(ctx: MatrixContext, url: string, body: Record<string, unknown>): Promise<number> {
  const res = await ctx.admin.post(url, body);
  if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: { id: number } }).data.id;
}
const course = (ctx: MatrixContext) => created(ctx, '/api/admin/courses', courseBody());
const lesson = async (ctx: MatrixContext) =>
  created(ctx, `/api/admin/courses/${await course(ctx)}/lessons`, lessonBody());
const stage = (ctx: MatrixContext) => created(ctx, '/api/admin/stages', stageBody());
const achievement = (ctx: MatrixContext) => created(ctx, '/api/admin/achievements', achievementBody());

/** Every admin call of this module, for the authorisation matrix (src/server/modules/admin/matrix.test.ts). */
export const rows: MatrixRow[] = [
  {
    method: 'GET',
    route: '/api/admin/courses',
    call: () => ({ url: '/api/admin/courses?q=matrix&sort=title&dir=asc&area=main' }),
  },
  {
    method: 'POST',
    route: '/api/admin/courses',
    call: () => ({ url: '/api/admin/courses', body: courseBody() }),
    admin: 201,
  },
  {
    method: 'GET',
    route: '/api/admin/courses/:id',
    call: async (ctx) => ({ url: `/api/admin/courses/${await course(ctx)}` }),
  },
  {
    method: 'PUT',
    route: '/api/admin/courses/:id',
    call: async (ctx) => ({ url: `/api/admin/courses/${await course(ctx)}`, body: courseBody() }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/courses/:id',
    call: async (ctx) => ({ url: `/api/admin/courses/${await course(ctx)}` }),
  },
  {
    method: 'POST',
    route: '/api/admin/courses/:id/lessons',
    call: async (ctx) => ({ url: `/api/admin/courses/${await course(ctx)}/lessons`, body: lessonBody() }),
    admin: 201,
  },
  {
    method: 'GET',
    route: '/api/admin/lessons/:id',
    call: async (ctx) => ({ url: `/api/admin/lessons/${await lesson(ctx)}` }),
  },
  {
    method: 'PUT',
    route: '/api/admin/lessons/:id',
    call: async (ctx) => ({ url: `/api/admin/lessons/${await lesson(ctx)}`, body: lessonBody() }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/lessons/:id',
    call: async (ctx) => ({ url: `/api/admin/lessons/${await lesson(ctx)}` }),
  },
  {
    method: 'POST',
    route: '/api/admin/lessons/:id/move',
    call: async (ctx) => ({ url: `/api/admin/lessons/${await lesson(ctx)}/move`, body: { direction: 'down' } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/lessons/:id/paths',
    call: async (ctx) => ({
      url: `/api/admin/lessons/${await lesson(ctx)}/paths`,
      body: { paths: [{ title: 'Groove', url: 'https://www.soundslice.com/slices/abc/' }] },
    }),
  },
  {
    method: 'PUT',
    route: '/api/admin/lessons/:id/quiz',
    call: async (ctx) => ({
      url: `/api/admin/lessons/${await lesson(ctx)}/quiz`,
      body: { questions: [{ title: 'Which?', options: ['A', 'B'], correct: 1 }] },
    }),
  },
  { method: 'GET', route: '/api/admin/stages', call: () => ({ url: '/api/admin/stages?sort=title&dir=desc' }) },
  {
    method: 'POST',
    route: '/api/admin/stages',
    call: () => ({ url: '/api/admin/stages', body: stageBody() }),
    admin: 201,
  },
  {
    method: 'GET',
    route: '/api/admin/stages/:id',
    call: async (ctx) => ({ url: `/api/admin/stages/${await stage(ctx)}` }),
  },
  {
    method: 'PUT',
    route: '/api/admin/stages/:id',
    call: async (ctx) => ({ url: `/api/admin/stages/${await stage(ctx)}`, body: stageBody() }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/stages/:id',
    call: async (ctx) => ({ url: `/api/admin/stages/${await stage(ctx)}` }),
  },
  {
    method: 'GET',
    route: '/api/admin/achievements',
    call: () => ({ url: '/api/admin/achievements?sort=threshold&dir=asc&q=badge' }),
  },
  {
    method: 'POST',
    route: '/api/admin/achievements',
    call: () => ({ url: '/api/admin/achievements', body: achievementBody() }),
    admin: 201,
  },
  {
    method: 'GET',
    route: '/api/admin/achievements/:id',
    call: async (ctx) => ({ url: `/api/admin/achievements/${await achievement(ctx)}` }),
  },
  {
    method: 'PUT',
    route: '/api/admin/achievements/:id',
    call: async (ctx) => ({ url: `/api/admin/achievements/${await achievement(ctx)}`, body: achievementBody() }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/achievements/:id',
    call: async (ctx) => ({ url: `/api/admin/achievements/${await achievement(ctx)}` }),
  },
  { method: 'GET', route: '/api/admin/placement', call: () => ({ url: '/api/admin/placement' }) },
  {
    method: 'PUT',
    route: '/api/admin/placement',
    call: () => ({ url: '/api/admin/placement', body: { questions: PLACEMENT_QUESTIONS } }),
  },
  { method: 'GET', route: '/api/admin/foot-speed', call: () => ({ url: '/api/admin/foot-speed' }) },
  {
    method: 'PUT',
    route: '/api/admin/foot-speed',
    call: () => ({ url: '/api/admin/foot-speed', body: { links: DEFAULT_PLAN_LINKS } }),
  },
];
