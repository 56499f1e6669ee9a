import type { MatrixContext, MatrixRow } from './matrix.ts';

const member = (ctx: MatrixContext, entitlements: string[] = []) => ctx.app.createUser({ entitlements });
const json = { accept: 'application/json' };

/** a reusable practice-plan day, created through the admin call itself */
async function day(ctx: MatrixContext): Promise<number> {
  const res = await ctx.admin.post('/mentorship/practice-plan-days', { title: 'Matrix day', exercises: [] });
  return (res.json() as { id: number }).id;
}

/** Every admin call of this module, for the authorisation matrix (src/server/modules/admin/matrix.test.ts). */
export const rows: MatrixRow[] = [
  // members
  {
    method: 'GET',
    route: '/api/admin/members',
    call: () => ({ url: '/api/admin/members?q=drummer&role=member&sort=name&dir=asc' }),
  },
  {
    method: 'GET',
    route: '/api/admin/members/:id',
    call: async (ctx) => ({ url: `/api/admin/members/${(await member(ctx)).id}` }),
  },
  {
    method: 'POST',
    route: '/api/admin/members/:id/entitlements',
    call: async (ctx) => ({
      url: `/api/admin/members/${(await member(ctx)).id}/entitlements`,
      body: { kind: 'membership' },
    }),
    admin: 201,
  },
  {
    method: 'POST',
    route: '/api/admin/members/:id/entitlements/:entitlementId/revoke',
    call: async (ctx) => {
      const m = await member(ctx);
      const granted = await ctx.admin.post(`/api/admin/members/${m.id}/entitlements`, { kind: 'membership' });
      return {
        url: `/api/admin/members/${m.id}/entitlements/${(granted.json() as { data: { id: number } }).data.id}/revoke`,
      };
    },
  },
  {
    method: 'POST',
    route: '/api/admin/members/:id/role',
    call: async (ctx) => ({ url: `/api/admin/members/${(await member(ctx)).id}/role`, body: { is_mentor: true } }),
  },
  {
    method: 'POST',
    route: '/api/admin/members/:id/suspend',
    call: async (ctx) => ({ url: `/api/admin/members/${(await member(ctx)).id}/suspend`, body: { reason: 'Spam' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/members/:id/unsuspend',
    call: async (ctx) => {
      const m = await member(ctx);
      await ctx.admin.post(`/api/admin/members/${m.id}/suspend`, { reason: 'Spam' });
      return { url: `/api/admin/members/${m.id}/unsuspend` };
    },
  },
  { method: 'GET', route: '/api/admin/mentors', call: () => ({ url: '/api/admin/mentors' }) },
  {
    method: 'POST',
    route: '/api/admin/notifications',
    call: async (ctx) => ({
      url: '/api/admin/notifications',
      body: { user_id: (await member(ctx)).id, body: 'Hello from the matrix' },
    }),
    admin: 201,
  },

  // leads & reviews
  {
    method: 'GET',
    route: '/api/admin/reviews',
    call: () => ({ url: '/api/admin/reviews?q=great&sort=created_at&dir=desc' }),
  },
  { method: 'GET', route: '/api/admin/reviews.csv', call: () => ({ url: '/api/admin/reviews.csv?q=great' }) },
  {
    method: 'GET',
    route: '/api/admin/barrier-reports',
    call: () => ({ url: '/api/admin/barrier-reports?q=keyboard&sort=created_at&dir=desc' }),
  },
  {
    method: 'GET',
    route: '/api/admin/diagnostic-leads',
    call: () => ({ url: '/api/admin/diagnostic-leads?q=x&sort=name&dir=asc' }),
  },
  {
    method: 'GET',
    route: '/api/admin/diagnostic-leads.csv',
    call: () => ({ url: '/api/admin/diagnostic-leads.csv?q=x' }),
  },

  // mentorship admin calls (modules/mentorship, mentorship-checkout, practice-plan)
  { method: 'GET', route: '/api/mentorship/students', call: () => ({ url: '/api/mentorship/students' }) },
  {
    method: 'GET',
    route: '/api/mentorship/students/:id',
    call: async (ctx) => ({ url: `/api/mentorship/students/${(await member(ctx, ['mentorship'])).id}` }),
  },
  {
    method: 'POST',
    route: '/api/mentorship/students/:id/mentor',
    call: async (ctx) => ({
      url: `/api/mentorship/students/${(await member(ctx, ['mentorship'])).id}/mentor`,
      body: { mentor_id: ctx.adminId },
    }),
  },
  { method: 'GET', route: '/api/mentorship/access-rules', call: () => ({ url: '/api/mentorship/access-rules' }) },
  { method: 'GET', route: '/api/mentorship/mentors', call: () => ({ url: '/api/mentorship/mentors' }) },
  {
    method: 'GET',
    route: '/mentorship/practice-plan-days',
    call: () => ({ url: '/mentorship/practice-plan-days', headers: json }),
  },
  {
    method: 'POST',
    route: '/mentorship/practice-plan-days',
    call: () => ({ url: '/mentorship/practice-plan-days', body: { title: 'Matrix day', exercises: [] } }),
    admin: 201,
  },
  {
    method: 'GET',
    route: '/mentorship/practice-plan-days/:day',
    call: async (ctx) => ({ url: `/mentorship/practice-plan-days/${await day(ctx)}` }),
  },
  {
    method: 'POST',
    route: '/mentorship/practice-plan-days/:day',
    call: async (ctx) => ({
      url: `/mentorship/practice-plan-days/${await day(ctx)}`,
      body: { title: 'Matrix day, edited', exercises: [] },
    }),
  },
  {
    method: 'DELETE',
    route: '/mentorship/practice-plan-days/:day',
    call: async (ctx) => ({ url: `/mentorship/practice-plan-days/${await day(ctx)}` }),
  },
];
