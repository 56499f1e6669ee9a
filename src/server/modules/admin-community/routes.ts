import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { adminDeletedSchema, adminListQuerySchema } from '#shared/admin';
import {
  adminCategoryAnswerSchema,
  adminCategoryPageSchema,
  adminLiveShowAnswerSchema,
  adminLiveShowPageSchema,
  categoryMoveSchema,
  memberCommunityAnswerSchema,
  moderationPageSchema,
  moderationResultSchema,
  categorySchema,
  liveShowChatSchema,
  liveShowQuerySchema,
  liveShowSchema,
  liveShowStatusSchema,
  liveShowTopicSchema,
  moderationActionSchema,
  moderationParamsSchema,
  moderationQuerySchema,
} from '#shared/admin-community';
import { idSchema } from '#shared/http';
import { adminActor } from '#server/lib/guards';

const params = z.object({ id: idSchema });

/** Admin console: community — moderation, forum categories, live shows, a member's history. */
export const adminCommunityRoutes: FastifyPluginAsyncZod = async (app) => {
  const svc = app.deps.services.adminCommunity;

  // moderation
  app.get(
    '/api/admin/moderation',
    {
      config: { access: 'admin' },
      schema: { querystring: moderationQuerySchema, response: { 200: moderationPageSchema } },
    },
    async (request) => svc.moderation(request.query),
  );
  app.post(
    '/api/admin/moderation/:kind/:id',
    {
      config: { access: 'admin' },
      schema: {
        params: moderationParamsSchema,
        body: moderationActionSchema,
        response: { 200: moderationResultSchema },
      },
    },
    async (request) => ({
      data: await svc.act(adminActor(request), request.params.kind, request.params.id, request.body.action),
    }),
  );
  app.get(
    '/api/admin/members/:id/community',
    { config: { access: 'admin' }, schema: { params, response: { 200: memberCommunityAnswerSchema } } },
    async (request) => ({
      data: await svc.memberCommunity(request.params.id),
    }),
  );

  // forum categories
  app.get(
    '/api/admin/categories',
    {
      config: { access: 'admin' },
      schema: { querystring: adminListQuerySchema, response: { 200: adminCategoryPageSchema } },
    },
    async (request) => svc.categories(request.query),
  );
  app.post(
    '/api/admin/categories',
    { config: { access: 'admin' }, schema: { body: categorySchema, response: { 201: adminCategoryAnswerSchema } } },
    async (request, reply) =>
      reply.status(201).send({ data: await svc.createCategory(adminActor(request), request.body) }),
  );
  app.get(
    '/api/admin/categories/:id',
    { config: { access: 'admin' }, schema: { params, response: { 200: adminCategoryAnswerSchema } } },
    async (request) => ({
      data: await svc.category(request.params.id),
    }),
  );
  app.post(
    '/api/admin/categories/:id',
    {
      config: { access: 'admin' },
      schema: { params, body: categorySchema, response: { 200: adminCategoryAnswerSchema } },
    },
    async (request) => ({
      data: await svc.updateCategory(adminActor(request), request.params.id, request.body),
    }),
  );
  app.post(
    '/api/admin/categories/:id/move',
    {
      config: { access: 'admin' },
      schema: { params, body: categoryMoveSchema, response: { 200: adminCategoryAnswerSchema } },
    },
    async (request) => ({
      data: await svc.moveCategory(adminActor(request), request.params.id, request.body.direction),
    }),
  );
  app.delete(
    '/api/admin/categories/:id',
    { config: { access: 'admin' }, schema: { params, response: { 200: adminDeletedSchema } } },
    async (request) => svc.deleteCategory(adminActor(request), request.params.id),
  );

  // live shows
  app.get(
    '/api/admin/live-shows',
    {
      config: { access: 'admin' },
      schema: { querystring: liveShowQuerySchema, response: { 200: adminLiveShowPageSchema } },
    },
    async (request) => svc.liveShows(request.query),
  );
  app.post(
    '/api/admin/live-shows',
    { config: { access: 'admin' }, schema: { body: liveShowSchema, response: { 201: adminLiveShowAnswerSchema } } },
    async (request, reply) => reply.status(201).send({ data: await svc.createShow(adminActor(request), request.body) }),
  );
  app.get(
    '/api/admin/live-shows/:id',
    { config: { access: 'admin' }, schema: { params, response: { 200: adminLiveShowAnswerSchema } } },
    async (request) => ({
      data: await svc.show(request.params.id),
    }),
  );
  app.post(
    '/api/admin/live-shows/:id',
    {
      config: { access: 'admin' },
      schema: { params, body: liveShowSchema, response: { 200: adminLiveShowAnswerSchema } },
    },
    async (request) => ({
      data: await svc.updateShow(adminActor(request), request.params.id, request.body),
    }),
  );
  app.post(
    '/api/admin/live-shows/:id/status',
    {
      config: { access: 'admin' },
      schema: { params, body: liveShowStatusSchema, response: { 200: adminLiveShowAnswerSchema } },
    },
    async (request) => ({
      data: await svc.setShowStatus(adminActor(request), request.params.id, request.body.status),
    }),
  );
  app.post(
    '/api/admin/live-shows/:id/chat',
    {
      config: { access: 'admin' },
      schema: { params, body: liveShowChatSchema, response: { 200: adminLiveShowAnswerSchema } },
    },
    async (request) => ({
      data: await svc.setShowChat(adminActor(request), request.params.id, request.body.open),
    }),
  );
  app.post(
    '/api/admin/live-shows/:id/topic',
    {
      config: { access: 'admin' },
      schema: { params, body: liveShowTopicSchema, response: { 200: adminLiveShowAnswerSchema } },
    },
    async (request) => ({
      data: await svc.setShowTopic(adminActor(request), request.params.id, request.body.topic),
    }),
  );
  app.delete(
    '/api/admin/live-shows/:id',
    { config: { access: 'admin' }, schema: { params, response: { 200: adminDeletedSchema } } },
    async (request) => svc.deleteShow(adminActor(request), request.params.id),
  );
};
