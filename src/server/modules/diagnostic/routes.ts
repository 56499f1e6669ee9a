import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminListQuerySchema, adminPageSchema } from '#shared/admin';
import { adminLeadRowSchema } from '#shared/admin-members';
import { footSpeedResultSchema, footSpeedSaveSchema } from '#shared/diagnostic';
import { fileResponse } from '#server/lib/responses';
import { leadsPage } from '#server/modules/admin-members/index';
import { csvCell } from '#server/lib/csv';
import { saveFootSpeed } from './service.ts';

export const diagnosticRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, limiters } = app.deps;

  // public; the server replays the answers to score them
  app.post(
    '/placement/foot-speed/save',
    { config: { access: 'public' }, schema: { body: footSpeedSaveSchema, response: { 201: footSpeedResultSchema } } },
    async (request, reply) => {
      await limiters.consume('diagnosticPerIp', request.ip);
      return reply.status(201).send(await saveFootSpeed(app.deps, request.user?.id ?? null, request.body));
    },
  );

  // the admin console: paged, sorted and searched on the server; the CSV is the same search, every page
  app.get(
    '/api/admin/diagnostic-leads',
    {
      config: { access: 'admin' },
      schema: { querystring: adminListQuerySchema, response: { 200: adminPageSchema(adminLeadRowSchema) } },
    },
    async (request) => leadsPage(db, request.query),
  );

  app.get(
    '/api/admin/diagnostic-leads.csv',
    {
      config: { access: 'admin' },
      schema: { querystring: adminListQuerySchema, response: fileResponse('The leads of the search as CSV') },
    },
    async (request, reply) => {
      const { data } = await leadsPage(db, request.query, true);
      const header = [
        'created_at',
        'name',
        'email',
        'skill',
        'pedal',
        'tempo',
        'technique',
        'control',
        'coordination',
        'independence',
        'primary',
        'answers',
      ];
      const lines = data.map((r) =>
        [
          r.created_at,
          r.name,
          r.email,
          r.skill,
          r.pedal,
          r.tempo,
          r.scores.technique,
          r.scores.control,
          r.scores.coordination,
          r.scores.independence,
          r.primary,
          r.answers,
        ]
          .map(csvCell)
          .join(','),
      );
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="diagnostic-leads.csv"')
        .send([header.join(','), ...lines].join('\r\n') + '\r\n');
    },
  );
};
