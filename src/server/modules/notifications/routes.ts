import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { adminNotificationSchema } from '#shared/admin-members';
import { idSchema } from '#shared/http';
import {
  notificationPageResponseSchema,
  notificationResponseSchema,
  readAllResponseSchema,
  recentNotificationsResponseSchema,
} from '#shared/notifications';
import { userChannel } from '#shared/realtime';
import { ValidationError } from '#server/lib/errors';
import { requireAdmin, requireUser } from '#server/lib/guards';
import { escapeHtml } from '#server/lib/html';
import { recordAudit } from '#server/modules/admin/index';

const areaQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  area: z.enum(['main', 'mentorship']).default('main'),
});

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.deps.services;

  // A user's private channel: only that user may join it.
  app.deps.realtime.addAuthorizer((channel, user) => {
    const match = /^user\.(\d+)$/.exec(channel);
    if (!match) return null;
    return !!user && userChannel(user.id) === channel;
  });

  // the header menus (docs/product/notifications.md)
  app.get(
    '/notifications/recent',
    { config: { access: 'member', hotRead: true }, schema: { response: { 200: recentNotificationsResponseSchema } } },
    async (request) => notifications.recent(requireUser(request).id, 'main'),
  );
  app.get(
    '/mentorship/notifications/recent',
    { config: { access: 'member', hotRead: true }, schema: { response: { 200: recentNotificationsResponseSchema } } },
    async (request) => notifications.recent(requireUser(request).id, 'mentorship'),
  );

  // the /notifications pages read these
  app.get(
    '/api/notifications',
    {
      config: { access: 'member' },
      schema: { querystring: areaQuery, response: { 200: notificationPageResponseSchema } },
    },
    async (request) => notifications.page(requireUser(request).id, request.query.area, request.query.page),
  );
  app.get(
    '/api/notifications/:id',
    {
      config: { access: 'member' },
      schema: { params: z.object({ id: idSchema }), response: { 200: notificationResponseSchema } },
    },
    async (request) => ({
      data: await notifications.open(requireUser(request).id, request.params.id),
    }),
  );
  app.post(
    '/api/notifications/read-all',
    {
      config: { access: 'member' },
      schema: {
        body: z.object({ area: z.enum(['main', 'mentorship']).default('main') }).default({ area: 'main' }),
        response: { 200: readAllResponseSchema },
      },
    },
    async (request) => notifications.readAll(requireUser(request).id, request.body.area),
  );

  // staff send a member (or themselves) a message; also the way announcements reach people
  app.post(
    '/api/admin/notifications',
    {
      config: { access: 'admin' },
      schema: {
        // the console's own form checks the same schema before sending
        body: adminNotificationSchema.extend({
          user_id: idSchema,
          area: z.enum(['main', 'mentorship']).default('main'),
        }),
        response: { 201: notificationResponseSchema },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      await app.deps.limiters.consume('adminNotificationsPerUser', String(admin.id));
      const target = await app.deps.services.users.findById(request.body.user_id);
      if (!target) throw new ValidationError({ user_id: ['The selected user is invalid.'] });
      const { body, url, area } = request.body;
      const data = await notifications.notify(target.id, {
        body: escapeHtml(body) /* staff type plain text: nothing in it is interpreted */,
        url: url ?? null,
        area,
      });
      // the admin console's audit log: who sent what to whom
      await recordAudit(
        app.deps.db,
        { user: admin, ip: request.ip },
        {
          action: 'notification.send',
          targetType: 'member',
          targetId: target.id,
          summary: `Sent a notification to ${target.name}`,
          before: null,
          after: { body, url: url ?? null, area },
        },
      );
      return reply.status(201).send({ data });
    },
  );
};
