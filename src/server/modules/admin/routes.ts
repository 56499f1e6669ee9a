import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ADMIN_IMAGE,
  adminImageResponseSchema,
  adminOverviewSchema,
  adminPageSchema,
  auditEntrySchema,
  auditListQuerySchema,
  type AdminImageResponse,
  type AdminOverview,
} from '#shared/admin';
import { adminMailResponseSchema, type AdminMailResponse } from '#shared/mail';
import {
  adminJobRetryResponseSchema,
  adminJobsResponseSchema,
  JOB_MESSAGES,
  type AdminJobsResponse,
} from '#shared/jobs';
import { z } from '#shared/zod';
import { adminActor, requireAdmin } from '#server/lib/guards';
import { notFound, ValidationError } from '#server/lib/errors';
import { asUploadedFile, processImage } from '#server/lib/images';
import { recordAudit } from './audit.ts';
import { adminOverview } from './overview.ts';

/** The console's own calls: the audit log and the image upload every content form uses. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { audit } = app.deps.services;
  const { storage, limiters, fileBaseUrl } = app.deps;

  app.get(
    '/api/admin/overview',
    { config: { access: 'admin' }, schema: { response: { 200: adminOverviewSchema } } },
    async (): Promise<AdminOverview> => adminOverview(app.deps.db),
  );

  app.get(
    '/api/admin/audit-log',
    {
      config: { access: 'admin' },
      schema: { querystring: auditListQuerySchema, response: { 200: adminPageSchema(auditEntrySchema) } },
    },
    async (request) => audit.list(request.query),
  );

  // Mail the server kept instead of sending (no SMTP_URL): readable by admins only, as it holds
  // password-reset links (docs/security.md).
  app.get(
    '/api/admin/mail',
    { config: { access: 'admin' }, schema: { response: { 200: adminMailResponseSchema } } },
    async (): Promise<AdminMailResponse> => ({
      delivery: app.deps.config.smtpUrl ? 'smtp' : 'kept',
      messages: await app.deps.mailer.outbox(),
    }),
  );

  // Background jobs (docs/product/background-jobs.md): how many wait, run, finished and failed per
  // job, the recent failures with their error, and a retry for one of them.
  app.get(
    '/api/admin/jobs',
    { config: { access: 'admin' }, schema: { response: { 200: adminJobsResponseSchema } } },
    async (): Promise<AdminJobsResponse> => app.deps.jobs.overview(),
  );

  app.post(
    '/api/admin/jobs/:id/retry',
    {
      config: { access: 'admin' },
      schema: {
        params: z.object({ id: z.uuid({ message: JOB_MESSAGES.notFailed }) }),
        response: { 200: adminJobRetryResponseSchema },
      },
    },
    async (request) => {
      const actor = adminActor(request);
      if (!(await app.deps.jobs.retry(request.params.id))) throw notFound(JOB_MESSAGES.notFailed);
      await recordAudit(app.deps.db, actor, {
        action: 'job.retry',
        targetType: 'job',
        targetId: request.params.id,
        summary: 'Queued a failed background job to run again',
      });
      return { status: 'success' as const, message: JOB_MESSAGES.retried };
    },
  );

  // An image for a course, stage, achievement or quiz option: checked by its content and re-encoded
  // exactly like members' uploads (lib/images), stored under a random name, answered as its address.
  app.post(
    '/api/admin/images',
    { config: { access: 'admin' }, schema: { response: { 200: adminImageResponseSchema } } },
    async (request): Promise<AdminImageResponse> => {
      const user = requireAdmin(request);
      await limiters.consume('uploadsPerUser', String(user.id));
      const body = (request.body as Record<string, unknown> | null) ?? {};
      const file = asUploadedFile(body[ADMIN_IMAGE.field]);
      if (!file) throw new ValidationError({ [ADMIN_IMAGE.field]: [ADMIN_IMAGE.invalid] });
      const image = await processImage(file, {
        field: ADMIN_IMAGE.field,
        maxBytes: ADMIN_IMAGE.maxBytes,
        maxSide: ADMIN_IMAGE.maxSide,
        message: ADMIN_IMAGE.invalid,
        tooBig: ADMIN_IMAGE.tooBig,
      });
      const stored = await storage.save('images', image.ext, image.data);
      return { url: `${fileBaseUrl}/${stored}` };
    },
  );
};
