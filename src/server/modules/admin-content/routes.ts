import { z } from '#shared/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminListQuerySchema } from '#shared/admin';
import {
  achievementBodySchema,
  adminAchievementAnswerSchema,
  adminAchievementPageSchema,
  adminContentDeletedSchema,
  adminCourseAnswerSchema,
  adminCoursePageSchema,
  adminLessonAnswerSchema,
  adminLessonDeletedSchema,
  adminPlacementAnswerSchema,
  adminPlanLinksAnswerSchema,
  adminStageAnswerSchema,
  adminStagePageSchema,
  courseBodySchema,
  courseListQuerySchema,
  lessonBodySchema,
  lessonMoveSchema,
  pathsBodySchema,
  placementBodySchema,
  PLACEMENT_SETTING,
  planLinksBodySchema,
  PLAN_LINKS_SETTING,
  quizBodySchema,
  stageBodySchema,
} from '#shared/admin-content';
import { idSchema } from '#shared/http';
import { adminActor } from '#server/lib/guards';
import { placementQuestions, PLACEMENT_QUESTIONS_SCHEMA } from '#server/modules/learning/index';
import { planLinks, PLAN_LINKS_SCHEMA } from '#server/modules/diagnostic/index';

const params = { params: z.object({ id: idSchema }) };

/** Admin console: content — courses, lessons, paths, quizzes, stages, achievements, placement, foot-speed plans. */
export const adminContentRoutes: FastifyPluginAsyncZod = async (app) => {
  const content = app.deps.services.adminContent;
  const { settings } = app.deps.services;

  // ---- courses ----
  app.get(
    '/api/admin/courses',
    {
      config: { access: 'admin' },
      schema: { querystring: courseListQuerySchema, response: { 200: adminCoursePageSchema } },
    },
    async (request) => content.listCourses(request.query),
  );
  app.post(
    '/api/admin/courses',
    { config: { access: 'admin' }, schema: { body: courseBodySchema, response: { 201: adminCourseAnswerSchema } } },
    async (request, reply) =>
      reply.status(201).send({ data: await content.createCourse(adminActor(request), request.body) }),
  );
  app.get(
    '/api/admin/courses/:id',
    { config: { access: 'admin' }, schema: { ...params, response: { 200: adminCourseAnswerSchema } } },
    async (request) => ({
      data: await content.course(request.params.id),
    }),
  );
  app.put(
    '/api/admin/courses/:id',
    {
      config: { access: 'admin' },
      schema: { ...params, body: courseBodySchema, response: { 200: adminCourseAnswerSchema } },
    },
    async (request) => ({ data: await content.updateCourse(adminActor(request), request.params.id, request.body) }),
  );
  app.delete(
    '/api/admin/courses/:id',
    { config: { access: 'admin' }, schema: { ...params, response: { 200: adminContentDeletedSchema } } },
    async (request) => content.deleteCourse(adminActor(request), request.params.id),
  );
  app.post(
    '/api/admin/courses/:id/lessons',
    {
      config: { access: 'admin' },
      schema: { ...params, body: lessonBodySchema, response: { 201: adminLessonAnswerSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await content.createLesson(adminActor(request), request.params.id, request.body) }),
  );

  // ---- lessons ----
  app.get(
    '/api/admin/lessons/:id',
    { config: { access: 'admin' }, schema: { ...params, response: { 200: adminLessonAnswerSchema } } },
    async (request) => ({
      data: await content.lesson(request.params.id),
    }),
  );
  app.put(
    '/api/admin/lessons/:id',
    {
      config: { access: 'admin' },
      schema: { ...params, body: lessonBodySchema, response: { 200: adminLessonAnswerSchema } },
    },
    async (request) => ({ data: await content.updateLesson(adminActor(request), request.params.id, request.body) }),
  );
  app.delete(
    '/api/admin/lessons/:id',
    { config: { access: 'admin' }, schema: { ...params, response: { 200: adminLessonDeletedSchema } } },
    async (request) => content.deleteLesson(adminActor(request), request.params.id),
  );
  app.post(
    '/api/admin/lessons/:id/move',
    {
      config: { access: 'admin' },
      schema: { ...params, body: lessonMoveSchema, response: { 200: adminCourseAnswerSchema } },
    },
    async (request) => ({
      data: await content.moveLesson(adminActor(request), request.params.id, request.body.direction),
    }),
  );
  app.put(
    '/api/admin/lessons/:id/paths',
    {
      config: { access: 'admin' },
      schema: { ...params, body: pathsBodySchema, response: { 200: adminLessonAnswerSchema } },
    },
    async (request) => ({ data: await content.setPaths(adminActor(request), request.params.id, request.body) }),
  );
  app.put(
    '/api/admin/lessons/:id/quiz',
    {
      config: { access: 'admin' },
      schema: { ...params, body: quizBodySchema, response: { 200: adminLessonAnswerSchema } },
    },
    async (request) => ({ data: await content.setQuiz(adminActor(request), request.params.id, request.body) }),
  );

  // ---- stages ----
  app.get(
    '/api/admin/stages',
    {
      config: { access: 'admin' },
      schema: { querystring: adminListQuerySchema, response: { 200: adminStagePageSchema } },
    },
    async (request) => content.listStages(request.query),
  );
  app.post(
    '/api/admin/stages',
    { config: { access: 'admin' }, schema: { body: stageBodySchema, response: { 201: adminStageAnswerSchema } } },
    async (request, reply) =>
      reply.status(201).send({ data: await content.createStage(adminActor(request), request.body) }),
  );
  app.get(
    '/api/admin/stages/:id',
    { config: { access: 'admin' }, schema: { ...params, response: { 200: adminStageAnswerSchema } } },
    async (request) => ({
      data: await content.stage(request.params.id),
    }),
  );
  app.put(
    '/api/admin/stages/:id',
    {
      config: { access: 'admin' },
      schema: { ...params, body: stageBodySchema, response: { 200: adminStageAnswerSchema } },
    },
    async (request) => ({
      data: await content.updateStage(adminActor(request), request.params.id, request.body),
    }),
  );
  app.delete(
    '/api/admin/stages/:id',
    { config: { access: 'admin' }, schema: { ...params, response: { 200: adminContentDeletedSchema } } },
    async (request) => content.deleteStage(adminActor(request), request.params.id),
  );

  // ---- achievements ----
  app.get(
    '/api/admin/achievements',
    {
      config: { access: 'admin' },
      schema: { querystring: adminListQuerySchema, response: { 200: adminAchievementPageSchema } },
    },
    async (request) => content.listAchievements(request.query),
  );
  app.post(
    '/api/admin/achievements',
    {
      config: { access: 'admin' },
      schema: { body: achievementBodySchema, response: { 201: adminAchievementAnswerSchema } },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await content.saveAchievement(adminActor(request), null, request.body) }),
  );
  app.get(
    '/api/admin/achievements/:id',
    { config: { access: 'admin' }, schema: { ...params, response: { 200: adminAchievementAnswerSchema } } },
    async (request) => ({
      data: await content.achievement(request.params.id),
    }),
  );
  app.put(
    '/api/admin/achievements/:id',
    {
      config: { access: 'admin' },
      schema: { ...params, body: achievementBodySchema, response: { 200: adminAchievementAnswerSchema } },
    },
    async (request) => ({
      data: await content.saveAchievement(adminActor(request), request.params.id, request.body),
    }),
  );
  app.delete(
    '/api/admin/achievements/:id',
    { config: { access: 'admin' }, schema: { ...params, response: { 200: adminContentDeletedSchema } } },
    async (request) => content.deleteAchievement(adminActor(request), request.params.id),
  );

  // ---- settings: placement questions and foot-speed plan links (settings.set writes the audit entry) ----
  app.get(
    '/api/admin/placement',
    { config: { access: 'admin' }, schema: { response: { 200: adminPlacementAnswerSchema } } },
    async () => ({
      data: { questions: await placementQuestions(app.deps) },
    }),
  );
  app.put(
    '/api/admin/placement',
    {
      config: { access: 'admin' },
      schema: { body: placementBodySchema, response: { 200: adminPlacementAnswerSchema } },
    },
    async (request) => {
      const fallback = await placementQuestions(app.deps);
      return {
        data: {
          questions: await settings.set(
            adminActor(request),
            PLACEMENT_SETTING,
            PLACEMENT_QUESTIONS_SCHEMA,
            fallback,
            request.body.questions,
          ),
        },
      };
    },
  );
  app.get(
    '/api/admin/foot-speed',
    { config: { access: 'admin' }, schema: { response: { 200: adminPlanLinksAnswerSchema } } },
    async () => ({
      data: { links: await planLinks(app.deps) },
    }),
  );
  app.put(
    '/api/admin/foot-speed',
    {
      config: { access: 'admin' },
      schema: { body: planLinksBodySchema, response: { 200: adminPlanLinksAnswerSchema } },
    },
    async (request) => {
      const fallback = await planLinks(app.deps);
      return {
        data: {
          links: await settings.set(
            adminActor(request),
            PLAN_LINKS_SETTING,
            PLAN_LINKS_SCHEMA,
            fallback,
            request.body.links,
          ),
        },
      };
    },
  );
};
