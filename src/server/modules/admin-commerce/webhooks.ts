import { and, desc, eq, ilike, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import { WEBHOOK_RETRY_MESSAGES, type AdminWebhookFailureRow, type WebhookFailureKind } from '#shared/admin-commerce';
import type { Database } from '#server/db/client';
import { webhookFailures } from '#server/db/schema/index';
import { containing, pageOf, recordAudit, type Actor } from '#server/modules/admin/index';
import type { PaymentsService } from '#server/modules/payments/index';

/** The commerce area's webhook failures: newest delivery first; open ones are what needs a look. */
export function createAdminWebhookFailures(deps: { db: Database; payments: PaymentsService }) {
  const { db, payments } = deps;

  return {
    async webhookFailures(
      query: AdminListQuery & { provider?: string | undefined; kind?: string | undefined; state?: string | undefined },
    ): Promise<AdminPage<AdminWebhookFailureRow>> {
      const where: SQL[] = [];
      if (query.provider) where.push(eq(webhookFailures.provider, query.provider));
      if (query.kind) where.push(eq(webhookFailures.kind, query.kind));
      if (query.state)
        where.push(query.state === 'open' ? isNull(webhookFailures.resolvedAt) : isNotNull(webhookFailures.resolvedAt));
      if (query.q) {
        const l = containing(query.q);
        where.push(
          or(ilike(webhookFailures.eventId, l), ilike(webhookFailures.eventType, l), ilike(webhookFailures.reason, l))!,
        );
      }
      return pageOf(db, {
        table: webhookFailures,
        where: where.length ? and(...where) : undefined,
        query,
        sorts: { last_at: webhookFailures.lastAt, deliveries: webhookFailures.deliveries },
        defaultSort: 'last_at',
        defaultDir: 'desc',
        tiebreak: desc(webhookFailures.id),
        map: (r): AdminWebhookFailureRow => ({
          id: r.id,
          provider: r.provider,
          event_id: r.eventId,
          event_type: r.eventType,
          kind: r.kind as WebhookFailureKind,
          reason: r.reason,
          outline: r.outline,
          deliveries: r.deliveries,
          first_at: r.firstAt.toISOString(),
          last_at: r.lastAt.toISOString(),
          resolved_at: r.resolvedAt?.toISOString() ?? null,
        }),
      });
    },

    /**
     * an admin applies a failed delivery's event again, read from its provider; a retry that fails
     * is counted on the failure's own row, one that succeeds goes to the audit log
     */
    async retryWebhookFailure(
      actor: Actor,
      id: number,
    ): Promise<{ message: string; outcome: 'applied' | 'duplicate' | 'ignored' }> {
      const { outcome } = await payments.retryWebhookFailure(id);
      await db.transaction(async (tx) =>
        recordAudit(tx, actor, {
          action: 'webhook.retry',
          targetType: 'webhook_failure',
          targetId: id,
          summary: `Retried webhook failure #${id}: ${outcome}`,
          before: null,
          after: { outcome },
        }),
      );
      const message =
        outcome === 'applied'
          ? WEBHOOK_RETRY_MESSAGES.applied
          : outcome === 'duplicate'
            ? WEBHOOK_RETRY_MESSAGES.appliedBefore
            : WEBHOOK_RETRY_MESSAGES.ignored;
      return { message, outcome };
    },
  };
}
