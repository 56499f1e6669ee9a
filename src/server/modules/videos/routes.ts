import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idSchema } from '#shared/http';
import {
  CAPTION_MESSAGES,
  captionLangSchema,
  VIDEO_CAPTIONS,
  VIDEO_MESSAGES,
  videoCaptionsAnswerSchema,
  videoDeletedSchema,
  videoFeedbackBodySchema,
  videoListQuerySchema,
  videoSubmissionAnswerSchema,
  videoSubmissionBodySchema,
  videoSubmissionPageSchema,
} from '#shared/upload';
import { notFound, ValidationError } from '#server/lib/errors';
import { asUploadedFile } from '#server/lib/images';
import { requireAdmin, requireMentorship } from '#server/lib/guards';
import { overridableRoute } from '#server/lib/method-override';
import { fileResponse } from '#server/lib/responses';
import { parseRange } from './range.ts';

function paramId(request: FastifyRequest): number {
  const parsed = idSchema.safeParse((request.params as { id?: string } | null)?.id);
  if (!parsed.success) throw notFound(VIDEO_MESSAGES.notFound);
  return parsed.data;
}

/**
 * Practice video submissions (docs/product/mentorship.md). The list and one submission are read at /api/... (their
 * /mentorship/videos addresses are pages); the file streams from /mentorship/videos/{id}/file for
 * its student and admins only, never from the public /files.
 */
export const videoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { limiters } = app.deps;
  const videos = app.deps.services.videos;

  app.post(
    '/mentorship/videos',
    {
      config: { access: 'mentorship' },
      schema: { body: videoSubmissionBodySchema, response: { 201: videoSubmissionAnswerSchema } },
    },
    async (request, reply) => {
      const user = requireMentorship(request);
      await limiters.consume('videoSubmissionsPerUser', String(user.id));
      return reply.status(201).send({ data: await videos.create(user, request.body) });
    },
  );

  app.get(
    '/api/mentorship/videos',
    {
      config: { access: 'mentorship' },
      schema: { querystring: videoListQuerySchema, response: { 200: videoSubmissionPageSchema } },
    },
    async (request) => videos.list(requireMentorship(request), request.query),
  );

  app.get(
    '/api/mentorship/videos/:id',
    { config: { access: 'mentorship' }, schema: { response: { 200: videoSubmissionAnswerSchema } } },
    async (request) => ({ data: await videos.show(requireMentorship(request), paramId(request)) }),
  );

  app.post(
    '/mentorship/videos/:id/feedback',
    {
      config: { access: 'admin' },
      schema: { body: videoFeedbackBodySchema, response: { 200: videoSubmissionAnswerSchema } },
    },
    async (request) => {
      const admin = requireAdmin(request);
      await limiters.consume('videoFeedbackPerUser', String(admin.id));
      return { data: await videos.feedback(admin, paramId(request), request.body.feedback) };
    },
  );

  overridableRoute(app as unknown as FastifyInstance, '/mentorship/videos/:id', 'mentorship', {
    DELETE: {
      response: { 200: videoDeletedSchema },
      handler: async (request) => videos.remove(requireMentorship(request), paramId(request)),
    },
  });

  // captions (docs/product/accessibility.md): an admin attaches a WebVTT file, multipart `captions` and `lang`
  app.post(
    '/mentorship/videos/:id/captions',
    { config: { access: 'admin' }, schema: { response: { 200: videoCaptionsAnswerSchema } } },
    async (request) => {
      const admin = requireAdmin(request);
      const id = paramId(request);
      await limiters.consume('uploadsPerUser', String(admin.id));
      const body = (request.body as Record<string, unknown> | null) ?? {};
      const lang = captionLangSchema.safeParse(body[VIDEO_CAPTIONS.langField] ?? undefined);
      if (!lang.success) throw new ValidationError({ [VIDEO_CAPTIONS.langField]: [CAPTION_MESSAGES.lang] });
      const file = asUploadedFile(body[VIDEO_CAPTIONS.field]);
      return {
        message: CAPTION_MESSAGES.attached,
        data: await videos.attachCaptions(admin, id, file, lang.data),
      };
    },
  );

  app.delete(
    '/mentorship/videos/:id/captions',
    { config: { access: 'admin' }, schema: { response: { 200: videoCaptionsAnswerSchema } } },
    async (request) => ({
      message: CAPTION_MESSAGES.removed,
      data: await videos.removeCaptions(requireAdmin(request), paramId(request)),
    }),
  );

  app.get(
    '/mentorship/videos/:id/captions',
    { config: { access: 'mentorship' }, schema: { response: fileResponse('The WebVTT captions file') } },
    async (request, reply) => {
      const file = await videos.captions(requireMentorship(request), paramId(request));
      return reply
        .header('Content-Type', 'text/vtt; charset=utf-8')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .send(createReadStream(file));
    },
  );

  app.get(
    '/mentorship/videos/:id/file',
    {
      config: { access: 'mentorship' },
      // 206: the byte range a player asked for
      schema: { response: fileResponse('The video file, or the requested byte range of it', 200, 206) },
    },
    async (request, reply) => {
      const user = requireMentorship(request);
      const video = await videos.file(user, paramId(request));
      const info = await stat(video.file).catch(() => null);
      if (!info?.isFile()) throw notFound(VIDEO_MESSAGES.notFound);
      const size = info.size;
      reply
        .header('Accept-Ranges', 'bytes')
        .header('Content-Type', video.mimeType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', 'inline')
        .header('Cache-Control', 'private, no-store')
        .header('Content-Security-Policy', "default-src 'none'; media-src 'self'; sandbox");
      const range = parseRange(request.headers.range, size);
      // no body: the Content-Range header says what the file holds
      if (range === 'unsatisfiable') return reply.status(416).header('Content-Range', `bytes */${size}`).send('');
      if (!range) return reply.header('Content-Length', String(size)).send(createReadStream(video.file));
      return reply
        .status(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
        .header('Content-Length', String(range.end - range.start + 1))
        .send(createReadStream(video.file, { start: range.start, end: range.end }));
    },
  );
};
