import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { SOCKET_ID_HEADER } from '#shared/constants';
import { idSchema } from '#shared/http';
import {
  bookmarkAnswerSchema,
  bookmarkBodySchema,
  bookmarksAnswerSchema,
  checkmarkAnswerSchema,
  continueAnswerSchema,
  courseAnswerSchema,
  coursesAnswerSchema,
  lessonAnswerSchema,
  lessonCompletionAnswerSchema,
  pathCompletionAnswerSchema,
  POINTS,
  quizResultSchema,
  setStageAnswerSchema,
  stageAnswerSchema,
  stagesAnswerSchema,
  statusAnswerSchema,
  timezoneAnswerSchema,
  quizBodySchema,
  lessonCompletionBodySchema,
  pathCompletionBodySchema,
  setStageBodySchema,
  stageCheckmarkBodySchema,
  statusBodySchema,
  timezoneBodySchema,
} from '#shared/learning';
import { placementQuestionsAnswerSchema } from '#shared/placement';
import { userChannel } from '#shared/realtime';
import { placementQuestions } from './placement.ts';
import { requireUser } from '#server/lib/guards';

export const learningRoutes: FastifyPluginAsyncZod = async (app) => {
  const { learning } = app.deps.services;
  const socketId = (headers: Record<string, unknown>) => {
    const v = headers[SOCKET_ID_HEADER.toLowerCase()];
    return typeof v === 'string' && v.length < 100 ? v : undefined;
  };

  // pages read these
  app.get(
    '/api/courses',
    { config: { access: 'public' }, schema: { response: { 200: coursesAnswerSchema } } },
    async (request) => ({ data: await learning.listCourses(request.user) }),
  );
  app.get(
    '/api/courses/:slug',
    {
      config: { access: 'public' },
      schema: { params: z.object({ slug: z.string().max(100) }), response: { 200: courseAnswerSchema } },
    },
    async (request) => ({
      data: await learning.course(request.user, request.params.slug),
    }),
  );
  app.get(
    '/api/lessons/:id',
    {
      config: { access: 'public' },
      schema: { params: z.object({ id: idSchema }), response: { 200: lessonAnswerSchema } },
    },
    async (request) => ({
      data: await learning.lesson(request.user, request.params.id),
    }),
  );
  app.get(
    '/api/my-practice',
    { config: { access: 'member' }, schema: { response: { 200: bookmarksAnswerSchema } } },
    async (request) => ({ data: await learning.bookmarks(requireUser(request)) }),
  );
  app.get(
    '/api/continue',
    { config: { access: 'member' }, schema: { response: { 200: continueAnswerSchema } } },
    async (request) => ({ data: await learning.continueLesson(requireUser(request)) }),
  );
  app.get(
    '/api/stages',
    { config: { access: 'member' }, schema: { response: { 200: stagesAnswerSchema } } },
    async (request) => ({ data: await learning.listStages(requireUser(request)) }),
  );
  app.get(
    '/api/stages/:id',
    {
      config: { access: 'member' },
      schema: { params: z.object({ id: idSchema }), response: { 200: stageAnswerSchema } },
    },
    async (request) => ({
      data: await learning.stage(requireUser(request), request.params.id),
    }),
  );

  // bookmarks and completion toggles (docs/product/learning.md)
  app.post(
    '/lesson-bookmarks',
    { config: { access: 'member' }, schema: { body: bookmarkBodySchema, response: { 200: bookmarkAnswerSchema } } },
    async (request) => learning.setBookmark(requireUser(request), request.body.lesson_id, request.body.bookmarked),
  );

  app.post(
    '/lesson-completions',
    {
      config: { access: 'member' },
      schema: { body: lessonCompletionBodySchema, response: { 200: lessonCompletionAnswerSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const { complete, newly, progress } = await learning.setLessonComplete(
        user,
        request.body.lesson_id,
        request.body.complete,
      );
      if (newly)
        await app.deps.services.rewards.award(user.id, `lesson:${request.body.lesson_id}`, POINTS.lessonComplete);
      // the member's other open tabs follow, as for a path; the sender's own tab already changed
      app.deps.realtime.publish(
        userChannel(user.id),
        'LessonStatus',
        { lesson_id: request.body.lesson_id, complete, progress },
        { exceptSocketId: socketId(request.headers) },
      );
      return { complete, progress };
    },
  );

  app.post(
    '/soundslice-path-completions',
    {
      config: { access: 'member' },
      schema: { body: pathCompletionBodySchema, response: { 200: pathCompletionAnswerSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const { soundslice_path_id, complete } = request.body;
      const result = await learning.setPathComplete(user, soundslice_path_id, complete);
      // the user's other open tabs follow, the sender's own tab already changed
      app.deps.realtime.publish(
        userChannel(user.id),
        'SoundslicePathStatus',
        { soundslice_path_id, complete },
        { exceptSocketId: socketId(request.headers) },
      );
      return result;
    },
  );

  app.post(
    '/stages/toggle-checkmark',
    {
      config: { access: 'member' },
      schema: { body: stageCheckmarkBodySchema, response: { 200: checkmarkAnswerSchema } },
    },
    async (request) =>
      learning.toggleCheckmark(
        requireUser(request),
        request.body.stage_id,
        request.body.hash_id,
        request.body.completed,
      ),
  );

  // POST /{resourceType}/quiz (id, score); lessons are the resource with quizzes
  app.post(
    '/lessons/quiz',
    { config: { access: 'member' }, schema: { body: quizBodySchema, response: { 200: quizResultSchema } } },
    async (request) => {
      const user = requireUser(request);
      const result = await learning.submitQuiz(user, request.body.id, request.body.answers);
      if (result.passed) await app.deps.services.rewards.award(user.id, `quiz:${request.body.id}`, POINTS.quizPassed);
      return result;
    },
  );

  app.get(
    '/api/placement/questions',
    { config: { access: 'member' }, schema: { response: { 200: placementQuestionsAnswerSchema } } },
    async (request) => {
      requireUser(request);
      return { data: await placementQuestions(app.deps) };
    },
  );
  app.post(
    '/placement/set-stage',
    { config: { access: 'member' }, schema: { body: setStageBodySchema, response: { 200: setStageAnswerSchema } } },
    async (request) => learning.setStage(requireUser(request), request.body.stage),
  );

  // the signed-in member's own status: nobody can set another member's
  app.post(
    '/status',
    { config: { access: 'member' }, schema: { body: statusBodySchema, response: { 200: statusAnswerSchema } } },
    async (request) => {
      const user = requireUser(request);
      const now = await learning.setStatus(user.id, request.body.status);
      return { status: request.body.status, status_updated_at: now.toISOString() };
    },
  );

  app.post(
    '/dashboard/update-timezone',
    { config: { access: 'member' }, schema: { body: timezoneBodySchema, response: { 200: timezoneAnswerSchema } } },
    async (request) => {
      const user = requireUser(request);
      await learning.setTimezone(user.id, request.body.timezone);
      return { timezone: request.body.timezone };
    },
  );
};
