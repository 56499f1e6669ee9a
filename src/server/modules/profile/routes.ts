import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { MESSAGES } from '#shared/constants';
import { idSchema } from '#shared/http';
import { REDIRECT_MAX, safeRedirect } from '#shared/redirect';
import { UPLOADS } from '#shared/learning';
import {
  avatarUploadResponseSchema,
  friendAnswerSchema,
  friendsResponseSchema,
  profileImageRefusedSchema,
  profileImageResponseSchema,
  profileResponseSchema,
} from '#shared/profile';
import { AppError, ValidationError } from '#server/lib/errors';
import { redirectResponse } from '#server/lib/responses';
import { requireUser } from '#server/lib/guards';
import { asUploadedFile, processImage } from '#server/lib/images';
import { overridableRoute } from '#server/lib/method-override';
import { safeEqual } from '#server/lib/crypto';

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { profile } = app.deps.services;
  const { storage, fileBaseUrl, limiters } = app.deps;

  app.get(
    '/api/profiles/:slug',
    {
      config: { access: 'member' },
      schema: { params: z.object({ slug: z.string().max(100) }), response: { 200: profileResponseSchema } },
    },
    async (request) => ({
      data: await profile.profile(requireUser(request), request.params.slug),
    }),
  );
  app.get(
    '/api/friends',
    { config: { access: 'member' }, schema: { response: { 200: friendsResponseSchema } } },
    async (request) => ({ data: await profile.friends(requireUser(request)) }),
  );

  /** Replace the member's picture with an already checked, re-encoded image; the old file goes. */
  async function storeAvatar(userId: number, image: { ext: string; data: Buffer }) {
    const rel = await storage.save('avatars', image.ext, image.data);
    const old = await profile.setAvatar(userId, rel);
    if (old) await storage.remove(old);
    return `${fileBaseUrl}/${rel}`;
  }

  // placement result avatar (field `avatar`, jpeg/png/gif by content, 1 MB: docs/product/profile-and-wall.md)
  app.post(
    '/account/avatar/upload',
    { config: { access: 'member' }, schema: { response: { 200: avatarUploadResponseSchema } } },
    async (request) => {
      const user = requireUser(request);
      await limiters.consume('uploadsPerUser', String(user.id));
      const file = asUploadedFile((request.body as Record<string, unknown> | null)?.avatar);
      if (!file) throw new ValidationError({ avatar: [UPLOADS.avatarFailed] });
      const image = await processImage(file, {
        field: 'avatar',
        maxBytes: UPLOADS.avatarMaxBytes,
        maxSide: 512,
        message: UPLOADS.avatarFailed,
        tooBig: UPLOADS.avatarFailed,
      });
      return { avatar: await storeAvatar(user.id, image) };
    },
  );

  // profile image modal (one file, 3,000,000 bytes); answers {response: "ok"}
  app.post(
    '/dashboard/upload-image',
    {
      config: { access: 'member' },
      schema: { response: { 200: profileImageResponseSchema, 422: profileImageRefusedSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await limiters.consume('uploadsPerUser', String(user.id));
      const body = (request.body as Record<string, unknown> | null) ?? {};
      const file = asUploadedFile(body.file ?? body.image ?? body.avatar);
      try {
        if (!file) throw new ValidationError({ file: [UPLOADS.imageWrongType] });
        const image = await processImage(file, {
          field: 'file',
          maxBytes: UPLOADS.imageMaxBytes,
          maxSide: 512,
          message: UPLOADS.imageWrongType,
          tooBig: UPLOADS.imageTooBig,
        });
        return { response: 'ok' as const, avatar: await storeAvatar(user.id, image) };
      } catch (err) {
        if (err instanceof ValidationError)
          return reply.status(422).send({ response: err.message, message: err.message, errors: err.errors });
        throw err;
      }
    },
  );

  // a page link. A GET that changes state, so it must carry the page's token: a link
  // on another site cannot know it.
  // `to`: the page the link was on, where the member stays (only ever an address on this site).
  app.get(
    '/dashboard/clear-image',
    {
      config: { access: 'member' },
      schema: {
        querystring: z.object({
          _token: z.string().max(200).optional(),
          to: z.string().max(REDIRECT_MAX).optional().catch(undefined),
        }),
        response: redirectResponse(303),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (!request.query._token || !safeEqual(request.query._token, request.csrfToken))
        throw new AppError('csrf', MESSAGES.csrfMismatch);
      const old = await profile.setAvatar(user.id, null);
      if (old) await storage.remove(old);
      return reply.redirect(safeRedirect(request.query.to, '/account/profile'), 303);
    },
  );

  // the friend button (docs/product/friends.md)
  overridableRoute(app, '/friends', 'member', {
    POST: {
      body: z.object({ user_id: idSchema }),
      response: { 200: friendAnswerSchema },
      handler: async (request, _reply, body) => {
        const user = requireUser(request);
        await limiters.consume('friendRequestsPerUser', String(user.id));
        return profile.request(user, (body as { user_id: number }).user_id);
      },
    },
    DELETE: {
      body: z.object({ user_id: idSchema }),
      response: { 200: friendAnswerSchema },
      handler: (request, _reply, body) => profile.unfriend(requireUser(request), (body as { user_id: number }).user_id),
    },
  });
  app.post(
    '/friends/:relationshipId/request',
    {
      config: { access: 'member' },
      schema: {
        params: z.object({ relationshipId: idSchema }),
        body: z.object({
          action: z.coerce
            .number()
            .int()
            .pipe(z.union([z.literal(0), z.literal(1)])),
        }),
        response: { 200: friendAnswerSchema },
      },
    },
    async (request) =>
      profile.respond(requireUser(request), request.params.relationshipId, request.body.action as 0 | 1),
  );
};
