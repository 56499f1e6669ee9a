import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminListQuerySchema } from '#shared/admin';
import { contactBodySchema } from '#shared/learning';
import { contactMessages } from '#server/db/schema/index';
import { requireUser } from '#server/lib/guards';
import { reviewsPage } from '#server/modules/admin-members/index';
import { csvCell } from '#server/lib/csv';

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, limiters } = app.deps;

  // the student review modal (and the contact form) post here
  app.post(
    '/contact/send',
    { config: { access: 'member' }, schema: { body: contactBodySchema } },
    async (request, reply) => {
      const user = requireUser(request);
      await limiters.consume('contactPerUser', String(user.id));
      const review =
        request.body.studentReview === '1' || request.body.studentReview === 1 || request.body.studentReview === true;
      await db.insert(contactMessages).values({
        userId: user.id,
        kind: review ? 'review' : 'contact',
        subject: request.body.subject || (review ? 'Student review' : ''),
        body: request.body.body,
      });
      return reply.status(201).send({ message: 'Thank you! Your message has been sent.' });
    },
  );

  // staff read the reviews (admin console): paged, sorted and searched on the server; CSV of the same search
  app.get(
    '/api/admin/reviews',
    { config: { access: 'admin' }, schema: { querystring: adminListQuerySchema } },
    async (request) => reviewsPage(db, request.query),
  );

  app.get(
    '/api/admin/reviews.csv',
    { config: { access: 'admin' }, schema: { querystring: adminListQuerySchema } },
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
