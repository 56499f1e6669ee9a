import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminListQuerySchema, adminPageSchema } from '#shared/admin';
import { adminReviewRowSchema } from '#shared/admin-members';
import { messageResponseSchema } from '#shared/auth';
import { contactBodySchema } from '#shared/learning';
import { adminBarrierRowSchema, BARRIER_MESSAGES, barrierReportSchema } from '#shared/accessibility';
import { fileResponse } from '#server/lib/responses';
import { requireUser } from '#server/lib/guards';
import { reviewsPage } from '#server/modules/admin-members/index';
import { csvCell } from '#server/lib/csv';
import { barrierReportsPage, reportBarrier } from './barriers.ts';
import { sendContactMessage } from './messages.ts';

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, limiters } = app.deps;

  // the student review modal (and the contact form) post here
  app.post(
    '/contact/send',
    { config: { access: 'member' }, schema: { body: contactBodySchema, response: { 201: messageResponseSchema } } },
    async (request, reply) => {
      const user = requireUser(request);
      await limiters.consume('contactPerUser', String(user.id));
      await sendContactMessage(db, user.id, request.body);
      return reply.status(201).send({ message: 'Thank you! Your message has been sent.' });
    },
  );

  // the accessibility statement's form: anyone may report a barrier, signed in or not (a barrier may
  // be the very thing that keeps them from signing in); per address by plugins/address-limits.ts
  app.post(
    '/accessibility/barriers',
    { config: { access: 'public' }, schema: { body: barrierReportSchema, response: { 201: messageResponseSchema } } },
    async (request, reply) => {
      const user = request.user ?? null;
      if (user) await limiters.consume('contactPerUser', String(user.id));
      await reportBarrier({ db, notifications: app.deps.services.notifications }, user, request.body);
      return reply.status(201).send({ message: BARRIER_MESSAGES.sent });
    },
  );

  app.get(
    '/api/admin/barrier-reports',
    {
      config: { access: 'admin' },
      schema: { querystring: adminListQuerySchema, response: { 200: adminPageSchema(adminBarrierRowSchema) } },
    },
    async (request) => barrierReportsPage(db, request.query),
  );

  // staff read the reviews (admin console): paged, sorted and searched on the server; CSV of the same search
  app.get(
    '/api/admin/reviews',
    {
      config: { access: 'admin' },
      schema: { querystring: adminListQuerySchema, response: { 200: adminPageSchema(adminReviewRowSchema) } },
    },
    async (request) => reviewsPage(db, request.query),
  );

  app.get(
    '/api/admin/reviews.csv',
    {
      config: { access: 'admin' },
      schema: { querystring: adminListQuerySchema, response: fileResponse('The reviews of the search as CSV') },
    },
    async (request, reply) => {
      const { data } = await reviewsPage(db, request.query, true);
      const header = ['created_at', 'name', 'email', 'subject', 'body'];
      const lines = data.map((r) => [r.created_at, r.name, r.email, r.subject, r.body].map(csvCell).join(','));
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="reviews.csv"')
        .send([header.join(','), ...lines].join('\r\n') + '\r\n');
    },
  );
};
