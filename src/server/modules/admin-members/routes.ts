import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { idSchema } from '#shared/http';
import {
  adminEntitlementAnswerSchema,
  adminMemberAnswerSchema,
  adminMemberDetailSchema,
  adminMemberPageSchema,
  adminMentorsOverviewSchema,
  grantEntitlementSchema,
  memberListQuerySchema,
  memberRoleSchema,
  suspendSchema,
} from '#shared/admin-members';
import { adminActor } from '#server/lib/guards';

const idParams = z.object({ id: idSchema });

/** Admin console: members and mentors. Leads and reviews live in modules/diagnostic and modules/contact. */
export const adminMembersRoutes: FastifyPluginAsyncZod = async (app) => {
  const members = app.deps.services.adminMembers;

  app.get(
    '/api/admin/members',
    {
      config: { access: 'admin' },
      schema: { querystring: memberListQuerySchema, response: { 200: adminMemberPageSchema } },
    },
    async (request) => members.list(request.query),
  );

  app.get(
    '/api/admin/members/:id',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: adminMemberDetailSchema } } },
    async (request) => members.detail(request.params.id),
  );

  app.post(
    '/api/admin/members/:id/entitlements',
    {
      config: { access: 'admin' },
      schema: { params: idParams, body: grantEntitlementSchema, response: { 201: adminEntitlementAnswerSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await members.grant(adminActor(request), request.params.id, request.body)),
  );

  app.post(
    '/api/admin/members/:id/entitlements/:entitlementId/revoke',
    {
      config: { access: 'admin' },
      schema: {
        params: z.object({ id: idSchema, entitlementId: idSchema }),
        response: { 200: adminEntitlementAnswerSchema },
      },
    },
    async (request) => members.revoke(adminActor(request), request.params.id, request.params.entitlementId),
  );

  app.post(
    '/api/admin/members/:id/role',
    {
      config: { access: 'admin' },
      schema: { params: idParams, body: memberRoleSchema, response: { 200: adminMemberAnswerSchema } },
    },
    async (request) => members.setRole(adminActor(request), request.params.id, request.body),
  );

  app.post(
    '/api/admin/members/:id/suspend',
    {
      config: { access: 'admin' },
      schema: { params: idParams, body: suspendSchema, response: { 200: adminMemberAnswerSchema } },
    },
    async (request) => members.suspend(adminActor(request), request.params.id, request.body.reason),
  );

  app.post(
    '/api/admin/members/:id/unsuspend',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: adminMemberAnswerSchema } } },
    async (request) => members.unsuspend(adminActor(request), request.params.id),
  );

  app.get(
    '/api/admin/mentors',
    { config: { access: 'admin' }, schema: { response: { 200: adminMentorsOverviewSchema } } },
    async () => members.mentors(),
  );
};
