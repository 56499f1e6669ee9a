import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { idSchema, pageQuerySchema } from '#shared/http';
import { WALL_HAS_MORE_HEADER, wallCommentListSchema, wallCommentSchema, wallDeletedSchema } from '#shared/wall';
import { notFound } from '#server/lib/errors';
import { requireUser } from '#server/lib/guards';
import { overridableRoute } from '#server/lib/method-override';

/**
 * Profile walls (docs/product/profile-and-wall.md). The answers are bare lists of comments; whether an
 * older page exists is told by the `X-Has-More: 1|0` header (so the list shape stays a bare list).
 * Visitors get 401 before anything else is looked at.
 */
export const wallRoutes: FastifyPluginAsyncZod = async (app) => {
  const { wall } = app.deps.services;

  app.get(
    '/profile-comments/:slug',
    {
      config: { access: 'member' },
      schema: {
        params: z.object({ slug: z.string().min(1).max(100) }),
        querystring: pageQuerySchema.extend({ id: idSchema.optional() }),
        response: { 200: wallCommentListSchema },
      },
    },
    async (request, reply) => {
      const { comments, more } = await wall.list(requireUser(request), request.params.slug, {
        page: request.query.page,
        id: request.query.id,
      });
      return reply
        .header(WALL_HAS_MORE_HEADER, more ? '1' : '0')
        .header('Cache-Control', 'no-store')
        .send(comments);
    },
  );

  app.post(
    '/profile-comments',
    { config: { access: 'member' }, schema: { body: wallCommentSchema, response: { 201: wallCommentListSchema } } },
    async (request, reply) => {
      const { comments, more } = await wall.create(requireUser(request), request.body);
      return reply
        .status(201)
        .header(WALL_HAS_MORE_HEADER, more ? '1' : '0')
        .send(comments);
    },
  );

  overridableRoute(app, '/profile-comments/:id', 'member', {
    DELETE: {
      response: { 200: wallDeletedSchema },
      handler: async (request) => {
        const user = requireUser(request);
        const id = idSchema.safeParse((request.params as { id?: string }).id);
        if (!id.success) throw notFound();
        return wall.remove(user, id.data);
      },
    },
  });
};
