import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { COMMUNITY, COMMUNITY_MESSAGES, likeAnswerSchema, okAnswerSchema, postDtoSchema } from '#shared/community';
import {
  attachmentAnswerSchema,
  conversationAnswerSchema,
  inlineAnswerSchema,
  inlineSortSchema,
  LIKE_TYPES,
  newPostAnswerSchema,
  POST_TYPES,
  postBodySchema,
  postLocationSchema,
  revisionsAnswerSchema,
  threadAnswerSchema,
} from '#shared/discussion';
import { idSchema } from '#shared/http';
import { notFound, ValidationError } from '#server/lib/errors';
import { requireUser } from '#server/lib/guards';
import { asUploadedFile, processImage } from '#server/lib/images';
import { overridableRoute } from '#server/lib/method-override';

const typeSchema = z.enum(POST_TYPES, { error: 'The selected type is invalid.' });
const optionalId = z.preprocess((v) => (v === '' || v === 'null' || v === undefined ? null : v), idSchema.nullable());
/** stored attachment names look like attachments/<random>.png */
const filenameSchema = z
  .string()
  .trim()
  .max(200)
  .transform((v) => v.replace(/^.*\/files\//, ''));

function paramId(params: unknown): number {
  const parsed = idSchema.safeParse((params as { id?: string } | null)?.id);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

/** The threaded discussion calls (forum topics and lessons: docs/product/discussion.md). */
export const postRoutes: FastifyPluginAsyncZod = async (app) => {
  const { posts } = app.deps.services;
  const { limiters } = app.deps;

  app.get(
    '/posts',
    {
      config: { access: 'public', hotRead: true },
      schema: {
        querystring: z.object({ id: idSchema, type: typeSchema, from: optionalId.optional() }),
        response: { 200: threadAnswerSchema },
      },
    },
    async (request) => posts.thread(request.user, request.query.type, request.query.id, request.query.from ?? null),
  );

  app.get(
    '/posts/thread',
    {
      config: { access: 'public', hotRead: true },
      schema: {
        querystring: z.object({ id: idSchema, type: typeSchema, post_id: idSchema }),
        response: { 200: conversationAnswerSchema },
      },
    },
    async (request) =>
      posts.individualThread(request.user, request.query.type, request.query.id, request.query.post_id),
  );

  app.get(
    '/inline-posts',
    {
      config: { access: 'public', hotRead: true },
      schema: {
        querystring: z.object({
          id: idSchema,
          type: typeSchema.default('lesson'),
          sort: inlineSortSchema.default('upvoted'),
          page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
          to: optionalId.optional(),
        }),
        response: { 200: inlineAnswerSchema },
      },
    },
    async (request) => {
      const q = request.query;
      return posts.inline(request.user, q.type, q.id, q.sort, q.page, q.to ?? null);
    },
  );

  app.get(
    '/api/posts/:id',
    {
      config: { access: 'public' },
      schema: { params: z.object({ id: idSchema }), response: { 200: postLocationSchema } },
    },
    async (request) => posts.show(request.user, request.params.id),
  );
  app.get(
    '/api/posts/:id/revisions',
    {
      config: { access: 'public' },
      schema: { params: z.object({ id: idSchema }), response: { 200: revisionsAnswerSchema } },
    },
    async (request) => ({
      data: await posts.revisions(request.user, request.params.id),
    }),
  );

  app.post(
    '/posts',
    {
      config: { access: 'member' },
      schema: {
        body: z.object({
          type: typeSchema,
          resource_id: idSchema,
          parent_id: optionalId.optional(),
          replying_to: optionalId.optional(),
          body: postBodySchema,
          attachment: z.preprocess((v) => (v === '' ? null : v), filenameSchema.nullable()).optional(),
        }),
        response: { 201: newPostAnswerSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await limiters.consume('postsPerUser', String(user.id));
      const b = request.body;
      const answer = await posts.create(user, {
        type: b.type,
        resource_id: b.resource_id,
        parent_id: b.parent_id ?? null,
        replying_to: b.replying_to ?? null,
        body: b.body,
        attachment: b.attachment || null,
      });
      return reply.status(201).send(answer);
    },
  );

  overridableRoute(app, '/posts/:id', 'member', {
    PATCH: {
      body: z.object({ body: postBodySchema }),
      response: { 200: postDtoSchema },
      handler: async (request, _reply, body) => {
        const user = requireUser(request);
        const id = paramId(request.params);
        return posts.update(user, id, (body as { body: string }).body);
      },
    },
    DELETE: {
      response: { 200: okAnswerSchema },
      handler: async (request) => {
        const user = requireUser(request);
        const id = paramId(request.params);
        return posts.remove(user, id);
      },
    },
  });

  app.post(
    '/toggle-like',
    {
      config: { access: 'member' },
      schema: {
        body: z.object({ type: z.enum(LIKE_TYPES).default('forumtopic'), resource_id: idSchema }),
        response: { 200: likeAnswerSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await limiters.consume('likesPerUser', String(user.id));
      const { type, resource_id } = request.body;
      return type === 'post' ? posts.togglePostLike(user, resource_id) : posts.toggleTopicLike(user, resource_id);
    },
  );

  // one image, checked by its content and size; the first message shows in red under the reply box
  app.post(
    '/attachments',
    { config: { access: 'member' }, schema: { response: { 200: attachmentAnswerSchema } } },
    async (request) => {
      const user = requireUser(request);
      await limiters.consume('uploadsPerUser', String(user.id));
      const file = asUploadedFile((request.body as Record<string, unknown> | null)?.file);
      if (!file) throw new ValidationError({ file: [COMMUNITY_MESSAGES.attachmentInvalid] });
      const image = await processImage(file, {
        field: 'file',
        maxBytes: COMMUNITY.attachmentMaxBytes,
        maxSide: 2000,
        message: COMMUNITY_MESSAGES.attachmentInvalid,
        tooBig: COMMUNITY_MESSAGES.attachmentTooBig,
      });
      return posts.addAttachment(user, image);
    },
  );

  app.post(
    '/attachments/delete',
    {
      config: { access: 'member' },
      schema: {
        body: z.object({ filename: filenameSchema.pipe(z.string().min(1, 'The filename field is required.')) }),
        response: { 200: okAnswerSchema },
      },
    },
    async (request) => posts.deleteAttachment(requireUser(request), request.body.filename),
  );
};
