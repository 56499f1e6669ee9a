import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { idSchema } from '#shared/http';
import {
  accountabilityLinkAddedSchema,
  accountabilityLinksAnswerSchema,
  accountabilityQuerySchema,
  addAccountabilityLinkBodySchema,
  assignMentorAnswerSchema,
  assignMentorBodySchema,
  mentorsAnswerSchema,
  mentorshipLessonAnswerSchema,
  mentorshipLessonCompletionAnswerSchema,
  mentorshipLessonCompletionBodySchema,
  mentorshipLessonsAnswerSchema,
  mentorshipOverviewSchema,
  mentorshipStudentDetailSchema,
  mentorshipStudentsAnswerSchema,
  mentorshipStudentsQuerySchema,
  saveAccountabilityLabelsBodySchema,
} from '#shared/mentorship';
import { notFound } from '#server/lib/errors';
import { requireAdmin, requireMentorship, requireMentorshipRecord } from '#server/lib/guards';
import { wantsHtml } from '#server/lib/http';
import { overridableRoute } from '#server/lib/method-override';
import { renderPage } from '#server/plugins/pages';
import type { AuthUser } from '#server/types';

const idParams = z.object({ id: idSchema });

/**
 * The mentorship area (docs/product/mentorship.md): dashboard overview, mentorship lessons and their completions,
 * accountability links and the mentors' (admins') student views.
 */
export const mentorshipRoutes: FastifyPluginAsyncZod = async (app) => {
  const { limiters } = app.deps;
  const mentorship = app.deps.services.mentorship;

  /**
   * One student's links: the student themself, or any admin (requireMentorshipRecord: another
   * student is 403). An admin naming someone who is not a mentorship student gets 404.
   */
  async function recordOwner(request: FastifyRequest, studentId: number): Promise<AuthUser> {
    const user = requireMentorshipRecord(request, studentId);
    if (user.isAdmin) await mentorship.assertStudent(studentId);
    return user;
  }

  app.get(
    '/api/mentorship/overview',
    { config: { access: 'mentorship' }, schema: { response: { 200: mentorshipOverviewSchema } } },
    async (request) => mentorship.overview(requireMentorship(request)),
  );

  // ---- lessons (no quiz call for mentorship lessons) ----

  app.get(
    '/api/mentorship/lessons',
    { config: { access: 'mentorship' }, schema: { response: { 200: mentorshipLessonsAnswerSchema } } },
    async (request) => ({ courses: await mentorship.courses(requireMentorship(request)) }),
  );

  app.get(
    '/api/mentorship/lessons/:id',
    { config: { access: 'mentorship' }, schema: { params: idParams, response: { 200: mentorshipLessonAnswerSchema } } },
    async (request) => ({
      lesson: await mentorship.lesson(requireMentorship(request), request.params.id),
    }),
  );

  app.post(
    '/mentorship/lesson-completions',
    {
      config: { access: 'mentorship' },
      schema: { body: mentorshipLessonCompletionBodySchema, response: { 200: mentorshipLessonCompletionAnswerSchema } },
    },
    async (request) =>
      mentorship.setLessonComplete(requireMentorship(request), request.body.lesson_id, request.body.complete),
  );

  // ---- accountability links ----

  // the call shares its address with the page: a browser navigation gets the page (whose own access rule applies)
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (wantsHtml(request)) return renderPage(app, request, reply);
  };
  app.get(
    '/mentorship/accountability',
    {
      config: { access: 'mentorship' },
      preValidation: page,
      // a browser navigation is answered the page's HTML (written as it is, not through the schema)
      schema: { querystring: accountabilityQuerySchema, response: { 200: accountabilityLinksAnswerSchema } },
    },
    async (request, reply) => {
      const studentId = request.query.student_id ?? requireMentorship(request).id;
      await recordOwner(request, studentId);
      return reply
        .header('Cache-Control', 'no-store')
        .header('Vary', 'Accept')
        .send({ links: await mentorship.links(studentId) });
    },
  );

  app.post(
    '/mentorship/accountability/links',
    {
      config: { access: 'mentorship' },
      schema: { body: addAccountabilityLinkBodySchema, response: { 201: accountabilityLinkAddedSchema } },
    },
    async (request, reply) => {
      const { student_id, url, label } = request.body;
      const user = await recordOwner(request, student_id);
      await limiters.consume('accountabilityLinksPerUser', String(user.id));
      const result = await mentorship.addLink(user, student_id, { url, label });
      return reply.status(201).send(result);
    },
  );

  overridableRoute(app, '/mentorship/accountability/links/:id', 'mentorship', {
    DELETE: {
      response: { 200: accountabilityLinksAnswerSchema },
      handler: async (request) => {
        requireMentorship(request);
        const id = idSchema.safeParse((request.params as { id?: string }).id);
        if (!id.success) throw notFound();
        const studentId = await mentorship.linkOwner(id.data);
        await recordOwner(request, studentId);
        return mentorship.deleteLink(id.data, studentId);
      },
    },
  });

  // debounced on the page; only labels, only of this student's links
  app.post(
    '/mentorship/accountability/save-label',
    {
      config: { access: 'mentorship' },
      schema: { body: saveAccountabilityLabelsBodySchema, response: { 200: accountabilityLinksAnswerSchema } },
    },
    async (request) => {
      await recordOwner(request, request.body.student_id);
      return mentorship.saveLabels(request.body.student_id, request.body.links);
    },
  );

  // ---- mentors (admins) ----

  app.get(
    '/api/mentorship/students',
    {
      config: { access: 'admin' },
      schema: { querystring: mentorshipStudentsQuerySchema, response: { 200: mentorshipStudentsAnswerSchema } },
    },
    async (request) => mentorship.students(requireAdmin(request), request.query),
  );

  app.get(
    '/api/mentorship/students/:id',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: mentorshipStudentDetailSchema } } },
    async (request) => {
      requireAdmin(request);
      return mentorship.student(request.params.id);
    },
  );

  app.post(
    '/api/mentorship/students/:id/mentor',
    {
      config: { access: 'admin' },
      schema: { params: idParams, body: assignMentorBodySchema, response: { 200: assignMentorAnswerSchema } },
    },
    async (request) =>
      mentorship.assignMentor(requireAdmin(request), request.params.id, request.body.mentor_id, request.ip),
  );

  app.get(
    '/api/mentorship/mentors',
    { config: { access: 'admin' }, schema: { response: { 200: mentorsAnswerSchema } } },
    async (request) => {
      requireAdmin(request);
      return { mentors: await mentorship.mentors() };
    },
  );
};
