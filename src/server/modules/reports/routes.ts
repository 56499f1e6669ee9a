import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { COMMUNITY, COMMUNITY_MESSAGES, reportSchema } from '#shared/community';
import { idSchema, pageQuerySchema } from '#shared/http';
import { adminReportsPageSchema, REPORT_ACTIONS, REPORT_STATUSES, reportAnswerSchema } from '#shared/reports';
import { requireAdmin, requireUser } from '#server/lib/guards';

/** a report needs a reason (the dialog asks for one) */
const reportBody = reportSchema.extend({
  reason: z
    .string({ error: COMMUNITY_MESSAGES.reportReasonRequired })
    .trim()
    .min(1, COMMUNITY_MESSAGES.reportReasonRequired)
    .max(COMMUNITY.reportReasonMax, `The reason may not be greater than ${COMMUNITY.reportReasonMax} characters.`),
});

/** Members report a post, chat message or wall comment; admins work through the queue. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reports } = app.deps.services;

  app.post(
    '/api/reports',
    {
      config: { access: 'member' },
      schema: { body: reportBody, response: { 200: reportAnswerSchema, 201: reportAnswerSchema } },
    },
    async (request, reply) => {
      const { created, report } = await reports.report(requireUser(request), request.body);
      return reply.status(created ? 201 : 200).send({ data: report });
    },
  );

  app.get(
    '/api/admin/reports',
    {
      config: { access: 'admin' },
      schema: {
        querystring: pageQuerySchema.extend({ status: z.enum(REPORT_STATUSES).default('open') }),
        response: { 200: adminReportsPageSchema },
      },
    },
    async (request) => reports.list(request.query.status, request.query.page),
  );

  app.post(
    '/api/admin/reports/:id',
    {
      config: { access: 'admin' },
      schema: {
        params: z.object({ id: idSchema }),
        body: z.object({ action: z.enum(REPORT_ACTIONS) }),
        response: { 200: reportAnswerSchema },
      },
    },
    async (request) => ({
      data: await reports.act(requireAdmin(request), request.params.id, request.body.action, request.ip),
    }),
  );
};
