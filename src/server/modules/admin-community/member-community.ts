import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { MemberCommunity, ModerationKind } from '#shared/admin-community';
import { chatMessages, posts, reports, users, wallComments } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import { countAll } from '#server/modules/admin/index';
import type { AdminCommunityContext } from './context.ts';
import { kinds } from './moderation-kinds.ts';

/** GET /api/admin/members/:id/community: the member's latest of each kind and the reports against them. */
export async function memberCommunity(ctx: AdminCommunityContext, userId: number): Promise<MemberCommunity> {
  const { db } = ctx;
  const [u] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw notFound();
  const latest = async (kind: ModerationKind) => {
    const k = kinds[kind];
    const where = k.where({ userId });
    const [n, rows] = await Promise.all([
      k.count(ctx, where),
      k.rows(ctx, where, [desc(k.created), desc(k.id)], 10, 0),
    ]);
    return { n, rows };
  };
  const against = or(
    and(
      eq(reports.kind, 'post'),
      sql`${reports.targetId} in (select ${posts.id} from ${posts} where ${posts.userId} = ${userId})`,
    ),
    and(
      eq(reports.kind, 'chat'),
      sql`${reports.targetId} in (select ${chatMessages.id} from ${chatMessages} where ${chatMessages.userId} = ${userId})`,
    ),
    and(
      eq(reports.kind, 'wall'),
      sql`${reports.targetId} in (select ${wallComments.id} from ${wallComments} where ${wallComments.userId} = ${userId})`,
    ),
  );
  const [p, t, c, w, rn, rs] = await Promise.all([
    latest('post'),
    latest('topic'),
    latest('chat'),
    latest('wall'),
    db.select({ n: countAll }).from(reports).where(against),
    db.select().from(reports).where(against).orderBy(desc(reports.id)).limit(10),
  ]);
  return {
    counts: { posts: p.n, topics: t.n, chat: c.n, wall: w.n, reports_against: rn[0]?.n ?? 0 },
    posts: p.rows,
    topics: t.rows,
    chat: c.rows,
    wall: w.rows,
    reports_against: rs.map((r) => ({
      id: r.id,
      kind: r.kind,
      target_id: r.targetId,
      reason: r.reason,
      status: r.status,
      created_at: r.createdAt.toISOString(),
    })),
  };
}
