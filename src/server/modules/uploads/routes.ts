import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import {
  chunkAbortBodySchema,
  chunkFinishBodySchema,
  chunkStartBodySchema,
  chunkedUploadAnswerSchema,
  chunkedUploadConflictSchema,
  chunkUploadFieldsSchema,
  simpleUploadAnswerSchema,
  UPLOAD_EXTRA_MESSAGES,
  UPLOAD_MESSAGES,
  UPLOAD_TARGETS,
  uploadPurposeSchema,
  uploadSessionAnswerSchema,
  uploadSessionIdSchema,
} from '#shared/upload';
import { requireUser } from '#server/lib/guards';
import { notFound } from '#server/lib/errors';
import { asUploadedFile, type UploadedFile } from '#server/lib/images';

/** A multipart file part (see app.ts onFile): `{filename, mimetype, data}`. */
const filePart = (message: string) => z.custom<UploadedFile>((v) => asUploadedFile(v) !== null, message);

/** One target, the phase in the body (JSON for start/finish/abort, multipart for upload). */
const chunkedBodySchema = z.discriminatedUnion('phase', [
  chunkStartBodySchema,
  chunkUploadFieldsSchema.extend({ chunk: filePart(UPLOAD_MESSAGES.badChunk) }),
  chunkFinishBodySchema.extend({ session_id: uploadSessionIdSchema }),
  chunkAbortBodySchema,
]);

const simpleBodySchema = z.object({
  file: filePart(UPLOAD_EXTRA_MESSAGES.fileRequired),
  purpose: uploadPurposeSchema.default('practice-video'),
});

/** abandoned upload sessions and their files: a recurring background job, hourly */
export const UPLOAD_CLEANUP_JOB = 'uploads.cleanup';
export const UPLOAD_CLEANUP_CRON = '41 * * * *';

/**
 * The generic upload component's targets (docs/product/uploads.md): POST /uploads/chunked
 * (start, upload, finish, abort), GET /uploads/chunked/{id} to resume, POST /uploads for small files.
 * Answers are `{status: 'success', data}`; failures `{status: 'error', message}` with a 4xx.
 */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const { limiters } = app.deps;
  const uploads = app.deps.services.uploads;

  // every failure of these calls reads {status: 'error', message} (the component checks `status`)
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').includes('application/json')) return payload;
    try {
      const body = JSON.parse(payload) as unknown;
      if (body && typeof body === 'object' && !Array.isArray(body) && !('status' in body))
        return JSON.stringify({ status: 'error', ...body });
    } catch {
      // not JSON after all: leave it
    }
    return payload;
  });

  // abandoned sessions: once an hour across all app processes
  app.deps.jobs.define(
    UPLOAD_CLEANUP_JOB,
    z.object({}),
    async () => {
      const r = await uploads.cleanup();
      if (r.sessions || r.files) app.log.info(r, 'upload cleanup');
      return r;
    },
    { label: 'Uploads: remove abandoned upload sessions' },
  );
  app.deps.jobs.schedule(UPLOAD_CLEANUP_JOB, UPLOAD_CLEANUP_CRON);

  app.post(
    UPLOAD_TARGETS.chunked,
    {
      config: { access: 'member' },
      schema: {
        body: chunkedBodySchema,
        response: { 200: chunkedUploadAnswerSchema, 409: chunkedUploadConflictSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      switch (body.phase) {
        case 'start': {
          await limiters.consume('uploadSessionsPerUser', String(user.id));
          return { status: 'success' as const, data: await uploads.start(user, body) };
        }
        case 'upload': {
          await limiters.consume('uploadChunksPerUser', String(user.id));
          return {
            status: 'success' as const,
            data: await uploads.chunk(user, {
              session_id: body.session_id,
              start_offset: body.start_offset,
              data: body.chunk.data,
            }),
          };
        }
        case 'finish': {
          const result = await uploads.finish(user, body.session_id);
          if (!result.ok)
            return reply
              .status(409)
              .send({ status: 'error' as const, message: UPLOAD_MESSAGES.incomplete, missing: result.missing });
          return { status: 'success' as const, data: { session_id: result.sessionId } };
        }
        case 'abort':
          return { status: 'success' as const, data: await uploads.abort(user, body.session_id) };
      }
    },
  );

  app.get(
    `${UPLOAD_TARGETS.chunked}/:id`,
    { config: { access: 'member' }, schema: { response: { 200: uploadSessionAnswerSchema } } },
    async (request) => {
      const user = requireUser(request);
      const id = uploadSessionIdSchema.safeParse((request.params as { id?: string }).id);
      if (!id.success) throw notFound(UPLOAD_MESSAGES.sessionNotFound);
      return { status: 'success' as const, data: await uploads.status(user, id.data) };
    },
  );

  app.post(
    UPLOAD_TARGETS.simple,
    { config: { access: 'member' }, schema: { body: simpleBodySchema, response: { 200: simpleUploadAnswerSchema } } },
    async (request) => {
      const user = requireUser(request);
      await limiters.consume('uploadsPerUser', String(user.id));
      const { file, purpose } = request.body;
      return {
        status: 'success' as const,
        data: await uploads.simple(user, { purpose, name: file.filename, data: file.data }),
      };
    },
  );
};
