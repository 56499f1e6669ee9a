import { and, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { AdminListQuery, AdminPage, AuditEntry } from '#shared/admin';
import type { Database, Executor } from '#server/db/client';
import { auditLog } from '#server/db/schema/index';
import type { Actor } from '#server/lib/guards';
import { countAll, containing, pageOf } from './list.ts';

export interface AuditInput {
  /** dotted verb: "course.update", "member.suspend", "order.refund"... */
  action: string;
  targetType: string;
  targetId?: string | number | null;
  summary?: string;
  before?: unknown;
  after?: unknown;
}

export type { Actor };

/** JSON-safe copy (Dates become ISO strings) so the log stores exactly what the answer showed. */
const plain = (v: unknown): unknown => (v === undefined ? null : JSON.parse(JSON.stringify(v)));

/**
 * Records one admin change. Call it with the transaction that makes the change, so the log and the
 * change are written together or not at all.
 */
export async function recordAudit(tx: Executor, actor: Actor, entry: AuditInput): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor.user.id,
    actorName: actor.user.name,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId == null ? null : String(entry.targetId),
    summary: (entry.summary ?? '').slice(0, 300),
    before: plain(entry.before),
    after: plain(entry.after),
    ip: actor.ip ?? null,
  });
}

export const toAuditEntry = (r: typeof auditLog.$inferSelect): AuditEntry => ({
  id: r.id,
  actor: { id: r.actorId, name: r.actorName },
  action: r.action,
  target_type: r.targetType,
  target_id: r.targetId,
  summary: r.summary,
  before: r.before ?? null,
  after: r.after ?? null,
  ip: r.ip,
  created_at: r.createdAt.toISOString(),
});

export function createAuditService({ db }: { db: Database }) {
  return {
    /** GET /api/admin/audit-log: newest first; search in action, summary and actor name. */
    async list(
      query: AdminListQuery & {
        target_type?: string | undefined;
        target_id?: string | undefined;
        actor_id?: number | undefined;
      },
    ): Promise<AdminPage<AuditEntry>> {
      const where: SQL[] = [];
      if (query.target_type) where.push(eq(auditLog.targetType, query.target_type));
      if (query.target_id) where.push(eq(auditLog.targetId, query.target_id));
      if (query.actor_id) where.push(eq(auditLog.actorId, query.actor_id));
      if (query.q) {
        const like = containing(query.q);
        where.push(or(ilike(auditLog.action, like), ilike(auditLog.summary, like), ilike(auditLog.actorName, like))!);
      }
      return pageOf(db, {
        table: auditLog,
        where: where.length ? and(...where) : undefined,
        query,
        sorts: { created_at: auditLog.createdAt, action: auditLog.action, actor: auditLog.actorName },
        defaultSort: 'created_at',
        defaultDir: 'desc',
        tiebreak: desc(auditLog.id),
        map: toAuditEntry,
      });
    },
    /** the count of entries (the overview's tile) */
    async count(): Promise<number> {
      const [row] = await db.select({ n: countAll }).from(auditLog);
      return row?.n ?? 0;
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
