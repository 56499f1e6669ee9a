import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { desc, eq } from 'drizzle-orm';
import { pageQuerySchema } from '#shared/http';
import { contactBodySchema } from '#shared/learning';
import { contactMessages, users } from '#server/db/schema/index';
import { requireAdmin, requireUser } from '#server/lib/guards';

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, limiters } = app.deps;

  // spec 000 §7: the student review modal (and the contact form) post here
  app.post('/contact/send', { schema: { body: contactBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    await limiters.consume('contactPerUser', String(user.id));
    const review = request.body.studentReview === '1' || request.body.studentReview === 1 || request.body.studentReview === true;
    await db.insert(contactMessages).values({ userId: user.id, kind: review ? 'review' : 'contact', subject: request.body.subject || (review ? 'Student review' : ''), body: request.body.body });
    return reply.status(201).send({ message: 'Thank you! Your message has been sent.' });
  });

  // staff read the reviews
  app.get('/api/admin/reviews', { schema: { querystring: pageQuerySchema } }, async (request) => {
    requireAdmin(request);
    const per = 50;
    const rows = await db
      .select({ id: contactMessages.id, subject: contactMessages.subject, body: contactMessages.body, created_at: contactMessages.createdAt, name: users.name, email: users.email })
      .from(contactMessages)
      .leftJoin(users, eq(users.id, contactMessages.userId))
      .where(eq(contactMessages.kind, 'review'))
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(per)
      .offset((request.query.page - 1) * per);
    return { data: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })) };
  });
};
