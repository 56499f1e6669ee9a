import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { adminListQuerySchema } from '#shared/admin';
import {
  categoryMoveSchema,
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
    { config: { access: 'admin' }, schema: { querystring: moderationQuerySchema } },
    async (request) => svc.moderation(request.query),
  );
  app.post(
    '/api/admin/moderation/:kind/:id',
    { config: { access: 'admin' }, schema: { params: moderationParamsSchema, body: moderationActionSchema } },
    async (request) => ({
      data: await svc.act(adminActor(request), request.params.kind, request.params.id, request.body.action),
    }),
  );
  app.get('/api/admin/members/:id/community', { config: { access: 'admin' }, schema: { params } }, async (request) => ({
    data: await svc.memberCommunity(request.params.id),
  }));

  // forum categories
  app.get(
    '/api/admin/categories',
    { config: { access: 'admin' }, schema: { querystring: adminListQuerySchema } },
    async (request) => svc.categories(request.query),
  );
  app.post(
    '/api/admin/categories',
    { config: { access: 'admin' }, schema: { body: categorySchema } },
    async (request, reply) =>
      reply.status(201).send({ data: await svc.createCategory(adminActor(request), request.body) }),
  );
  app.get('/api/admin/categories/:id', { config: { access: 'admin' }, schema: { params } }, async (request) => ({
    data: await svc.category(request.params.id),
  }));
  app.post(
    '/api/admin/categories/:id',
    { config: { access: 'admin' }, schema: { params, body: categorySchema } },
    async (request) => ({
      data: await svc.updateCategory(adminActor(request), request.params.id, request.body),
    }),
  );
  app.post(
    '/api/admin/categories/:id/move',
    { config: { access: 'admin' }, schema: { params, body: categoryMoveSchema } },
    async (request) => ({
      data: await svc.moveCategory(adminActor(request), request.params.id, request.body.direction),
    }),
  );
  app.delete('/api/admin/categories/:id', { config: { access: 'admin' }, schema: { params } }, async (request) =>
    svc.deleteCategory(adminActor(request), request.params.id),
  );

  // live shows
  app.get(
    '/api/admin/live-shows',
    { config: { access: 'admin' }, schema: { querystring: liveShowQuerySchema } },
    async (request) => svc.liveShows(request.query),
  );
  app.post(
    '/api/admin/live-shows',
    { config: { access: 'admin' }, schema: { body: liveShowSchema } },
    async (request, reply) => reply.status(201).send({ data: await svc.createShow(adminActor(request), request.body) }),
  );
  app.get('/api/admin/live-shows/:id', { config: { access: 'admin' }, schema: { params } }, async (request) => ({
    data: await svc.show(request.params.id),
  }));
  app.post(
    '/api/admin/live-shows/:id',
    { config: { access: 'admin' }, schema: { params, body: liveShowSchema } },
    async (request) => ({
      data: await svc.updateShow(adminActor(request), request.params.id, request.body),
    }),
  );
  app.post(
    '/api/admin/live-shows/:id/status',
    { config: { access: 'admin' }, schema: { params, body: liveShowStatusSchema } },
    async (request) => ({
      data: await svc.setShowStatus(adminActor(request), request.params.id, request.body.status),
    }),
  );
  app.post(
    '/api/admin/live-shows/:id/chat',
    { config: { access: 'admin' }, schema: { params, body: liveShowChatSchema } },
    async (request) => ({
      data: await svc.setShowChat(adminActor(request), request.params.id, request.body.open),
    }),
  );
  app.post(
    '/api/admin/live-shows/:id/topic',
    { config: { access: 'admin' }, schema: { params, body: liveShowTopicSchema } },
    async (request) => ({
      data: await svc.setShowTopic(adminActor(request), request.params.id, request.body.topic),
    }),
  );
  app.delete('/api/admin/live-shows/:id', { config: { access: 'admin' }, schema: { params } }, async (request) =>
    svc.deleteShow(adminActor(request), request.params.id),
  );
};
