import { and, desc, eq, gte, inArray, isNull, or, gt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMIN_IMAGE, auditListQuerySchema, type AdminImageResponse, type AdminOverview } from '#shared/admin';
import type { AdminMailResponse } from '#shared/mail';
import { JOB_MESSAGES, type AdminJobsResponse } from '#shared/jobs';
import { z } from '#shared/zod';
import {
  auditLog,
  diagnosticLeads,
  entitlements,
  orders,
  reports,
  subscriptions,
  users,
} from '#server/db/schema/index';
import { adminActor, requireAdmin } from '#server/lib/guards';
import { notFound, ValidationError } from '#server/lib/errors';
import { asUploadedFile, processImage } from '#server/lib/images';
import { recordAudit, toAuditEntry } from './audit.ts';
import { countAll as count } from './list.ts';

/** The console's own calls: the audit log and the image upload every content form uses. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { audit } = app.deps.services;
  const { storage, limiters, fileBaseUrl } = app.deps;

  app.get('/api/admin/overview', { config: { access: 'admin' } }, async (): Promise<AdminOverview> => {
    const { db } = app.deps;
    const since = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
    const [m] = await db
      .select({ n: count, recent: sql<number>`(count(*) filter (where ${users.createdAt} >= ${since}))::int` })
      .from(users);
    const [subs] = await db
      .select({ n: count })
      .from(subscriptions)
      .where(inArray(subscriptions.status, ['trialing', 'active', 'past_due']));
    const [ment] = await db
      .select({ n: sql<number>`count(distinct ${entitlements.userId})::int` })
      .from(entitlements)
      .where(
        and(
          eq(entitlements.kind, 'mentorship'),
          isNull(entitlements.revokedAt),
          or(isNull(entitlements.endsAt), gt(entitlements.endsAt, new Date())),
        ),
      );
    const [rep] = await db.select({ n: count }).from(reports).where(eq(reports.status, 'open'));
    const [ord] = await db
      .select({ n: count, cents: sql<number>`coalesce(sum(${orders.amountCents}), 0)::int` })
      .from(orders)
      .where(and(eq(orders.status, 'paid'), gte(orders.paidAt, since)));
    const [leads] = await db.select({ n: count }).from(diagnosticLeads).where(gte(diagnosticLeads.createdAt, since));
    const recent = await db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(8);
    return {
      members: m?.n ?? 0,
      new_members_30d: m?.recent ?? 0,
      active_subscriptions: subs?.n ?? 0,
      mentorship_students: ment?.n ?? 0,
      open_reports: rep?.n ?? 0,
      paid_orders_30d: ord?.n ?? 0,
      revenue_30d_cents: ord?.cents ?? 0,
      leads_30d: leads?.n ?? 0,
      recent_changes: recent.map(toAuditEntry),
    };
  });

  app.get(
    '/api/admin/audit-log',
    { config: { access: 'admin' }, schema: { querystring: auditListQuerySchema } },
    async (request) => audit.list(request.query),
  );

  // Mail the server kept instead of sending (no SMTP_URL): readable by admins only, as it holds
  // password-reset links (docs/security.md).
  app.get('/api/admin/mail', { config: { access: 'admin' } }, async (): Promise<AdminMailResponse> => ({
    delivery: app.deps.config.smtpUrl ? 'smtp' : 'kept',
    messages: await app.deps.mailer.outbox(),
  }));

  // Background jobs (docs/product/background-jobs.md): how many wait, run, finished and failed per
  // job, the recent failures with their error, and a retry for one of them.
  app.get('/api/admin/jobs', { config: { access: 'admin' } }, async (): Promise<AdminJobsResponse> =>
    app.deps.jobs.overview(),
  );

  app.post(
    '/api/admin/jobs/:id/retry',
    { config: { access: 'admin' }, schema: { params: z.object({ id: z.uuid({ message: JOB_MESSAGES.notFailed }) }) } },
    async (request) => {
      const actor = adminActor(request);
      if (!(await app.deps.jobs.retry(request.params.id))) throw notFound(JOB_MESSAGES.notFailed);
      await recordAudit(app.deps.db, actor, {
        action: 'job.retry',
        targetType: 'job',
        targetId: request.params.id,
        summary: 'Queued a failed background job to run again',
      });
      return { status: 'success', message: JOB_MESSAGES.retried };
    },
  );

  // An image for a course, stage, achievement or quiz option: checked by its content and re-encoded
  // exactly like members' uploads (lib/images), stored under a random name, answered as its address.
  app.post('/api/admin/images', { config: { access: 'admin' } }, async (request): Promise<AdminImageResponse> => {
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
  });
};
