import { eq, sql, type SQL } from 'drizzle-orm';
import { HISTORY_LABELS, type AdminEntitlement, type HistoryFact, type HistoryKey } from '#shared/admin-members';
import type { Database } from '#server/db/client';
import {
  chatMessages,
  entitlements,
  forumTopics,
  journalEntries,
  lessonCompletions,
  orders,
  posts,
  quizAttempts,
  reports,
  subscriptions,
  users,
  wallComments,
} from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import type { UserRow, UserService } from '#server/modules/users/index';

/** an active entitlement of the member (of `kind` when given): not revoked, not ended */
export const activeEntitlementSql = (userId: SQL | number, kind?: string) =>
  sql`exists (select 1 from ${entitlements} e where e.user_id = ${userId} ${kind ? sql`and e.kind = ${kind}` : sql``} and e.revoked_at is null and (e.ends_at is null or e.ends_at > now()))`;

export async function memberOr404(users: UserService, id: number): Promise<UserRow> {
  const row = await users.findById(id);
  if (!row) throw notFound('That member does not exist.');
  return row;
}

export const entitlementRow = (r: typeof entitlements.$inferSelect): AdminEntitlement => ({
  id: r.id,
  kind: r.kind,
  source: r.source,
  starts_at: r.startsAt.toISOString(),
  ends_at: r.endsAt?.toISOString() ?? null,
  revoked_at: r.revokedAt?.toISOString() ?? null,
  active: !r.revokedAt && (!r.endsAt || r.endsAt > new Date()),
});

/** how much of each kind the member has done, and when last (the member page's history) */
export async function memberHistory(db: Database, userId: number): Promise<Record<HistoryKey, HistoryFact>> {
  const fact = (table: SQL, column: SQL, at: SQL = sql`created_at`) =>
    sql`(select json_build_object('count', count(*)::int, 'latest', max(${at})) from ${table} where ${column} = ${userId})`;
  const against = (kind: string, table: SQL) =>
    sql`select r.created_at from ${reports} r join ${table} x on x.id = r.target_id where r.kind = ${kind} and x.user_id = ${userId}`;
  const json = (q: SQL) => sql<HistoryFact | string | null>`${q}`;
  const [r] = await db
    .select({
      orders: json(fact(sql`${orders}`, sql`user_id`)),
      subscriptions: json(fact(sql`${subscriptions}`, sql`user_id`)),
      lessons_completed: json(fact(sql`${lessonCompletions}`, sql`user_id`)),
      quiz_attempts: json(fact(sql`${quizAttempts}`, sql`user_id`)),
      journal_entries: json(fact(sql`${journalEntries}`, sql`user_id`)),
      forum_topics: json(fact(sql`${forumTopics}`, sql`user_id`)),
      forum_posts: json(fact(sql`${posts}`, sql`user_id`)),
      chat_messages: json(fact(sql`${chatMessages}`, sql`user_id`)),
      wall_comments: json(fact(sql`${wallComments}`, sql`user_id`)),
      reports_made: json(fact(sql`${reports}`, sql`reporter_id`)),
      reports_against: json(
        sql`(select json_build_object('count', count(*)::int, 'latest', max(a.created_at)) from (${against('post', sql`${posts}`)} union all ${against('chat', sql`${chatMessages}`)} union all ${against('wall', sql`${wallComments}`)}) a)`,
      ),
    })
    .from(users)
    .where(eq(users.id, userId));
  const out = {} as Record<HistoryKey, HistoryFact>;
  for (const key of Object.keys(HISTORY_LABELS) as HistoryKey[]) {
    const raw = r?.[key] ?? { count: 0, latest: null };
    const v = typeof raw === 'string' ? (JSON.parse(raw) as HistoryFact) : raw;
    out[key] = { count: Number(v.count ?? 0), latest: v.latest ? new Date(v.latest).toISOString() : null };
  }
  return out;
}
