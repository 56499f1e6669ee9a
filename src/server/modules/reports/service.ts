import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { chatMessages, liveShows, posts, reports, users, wallComments } from '#server/db/schema/index';
import { forbidden, notFound } from '#server/lib/errors';
import { mayUseCommunity } from '#server/lib/guards';
import type { CommunityDeps } from '#server/modules/community-deps';
import { recordAudit } from '#server/modules/admin/index';
import type { AuthUser } from '#server/types';

export type ReportKind = 'post' | 'chat' | 'wall';
export type ReportStatus = 'open' | 'resolved' | 'dismissed';
export type ReportAction = 'resolve' | 'dismiss' | 'hide';
/** reports per page of the admin queue */
export const REPORTS_PER_PAGE = 20;

type ReportRow = typeof reports.$inferSelect;

/** Where a post lives on the site: the forum topic or the lesson page, with the post id as hash. */
export function postLink(post: { id: number; type: string; resourceId: number }) {
  if (post.type === 'forumtopic') return `/forums/topic/${post.resourceId}#${post.id}`;
  if (post.type === 'lesson') return `/lessons/${post.resourceId}#${post.id}`;
  return `/posts/${post.id}`;
}

interface TargetSummary {
  text: string;
  author: { id: number; name: string; url: string } | null;
  link: string | null;
  hidden: boolean;
  exists: boolean;
}

/**
 * Members' reports (docs/product/reports-and-moderation.md): one per member per post, chat message or wall comment;
 * admins work through the queue, and "hide" takes the thing out of every list (posts: trashed; chat and
 * wall: hidden_at) and closes every open report on it, in one transaction.
 */
export function createReportService(deps: CommunityDeps) {
  const { db } = deps;

  /** The target exists and the reporter may read it (404 otherwise; 403 for members-only areas). */
  async function assertReadable(user: AuthUser, kind: ReportKind, id: number) {
    if (kind === 'post') {
      const [row] = await db
        .select({ type: posts.type, trashedAt: posts.trashedAt })
        .from(posts)
        .where(eq(posts.id, id))
        .limit(1);
      if (!row || row.trashedAt) throw notFound();
      if (row.type === 'forumtopic' && !mayUseCommunity(user)) throw forbidden(COMMUNITY_MESSAGES.communityMembersOnly);
      return;
    }
    if (kind === 'chat') {
      const [row] = await db
        .select({ hiddenAt: chatMessages.hiddenAt })
        .from(chatMessages)
        .innerJoin(liveShows, eq(liveShows.id, chatMessages.showId))
        .where(eq(chatMessages.id, id))
        .limit(1);
      if (!row || row.hiddenAt) throw notFound();
      if (!mayUseCommunity(user)) throw forbidden(COMMUNITY_MESSAGES.communityMembersOnly);
      return;
    }
    const [row] = await db
      .select({ hiddenAt: wallComments.hiddenAt })
      .from(wallComments)
      .where(eq(wallComments.id, id))
      .limit(1);
    if (!row || row.hiddenAt) throw notFound();
  }

  const dto = (row: ReportRow) => ({
    id: row.id,
    kind: row.kind,
    target_id: row.targetId,
    reason: row.reason,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    resolved_at: row.resolvedAt?.toISOString() ?? null,
  });

  /** Summaries of many targets: one query per kind present on the page (at most three), whatever the page size. */
  async function summaries(rows: ReportRow[]) {
    const ids = (kind: ReportKind) => [...new Set(rows.filter((r) => r.kind === kind).map((r) => r.targetId))];
    const out = new Map<string, TargetSummary>();
    const author = (a: { id: number | null; name: string | null; slug: string | null }) =>
      a.id && a.name && a.slug ? { id: a.id, name: a.name, url: deps.users.profileUrl({ slug: a.slug }) } : null;
    const postIds = ids('post');
    if (postIds.length) {
      const list = await db
        .select({
          id: posts.id,
          type: posts.type,
          resourceId: posts.resourceId,
          body: posts.body,
          trashedAt: posts.trashedAt,
          uid: users.id,
          name: users.name,
          slug: users.slug,
        })
        .from(posts)
        .leftJoin(users, eq(users.id, posts.userId))
        .where(inArray(posts.id, postIds));
      for (const p of list)
        out.set(`post:${p.id}`, {
          text: p.body,
          author: author({ id: p.uid, name: p.name, slug: p.slug }),
          link: postLink(p),
          hidden: !!p.trashedAt,
          exists: true,
        });
    }
    const chatIds = ids('chat');
    if (chatIds.length) {
      const list = await db
        .select({
          id: chatMessages.id,
          showId: chatMessages.showId,
          body: chatMessages.body,
          hiddenAt: chatMessages.hiddenAt,
          uid: users.id,
          name: users.name,
          slug: users.slug,
        })
        .from(chatMessages)
        .leftJoin(users, eq(users.id, chatMessages.userId))
        .where(inArray(chatMessages.id, chatIds));
      for (const c of list)
        out.set(`chat:${c.id}`, {
          text: c.body,
          author: author({ id: c.uid, name: c.name, slug: c.slug }),
          link: `/live/${c.showId}`,
          hidden: !!c.hiddenAt,
          exists: true,
        });
    }
    const wallIds = ids('wall');
    if (wallIds.length) {
      const owner = alias(users, 'wall_owner');
      const list = await db
        .select({
          id: wallComments.id,
          body: wallComments.body,
          hiddenAt: wallComments.hiddenAt,
          uid: users.id,
          name: users.name,
          slug: users.slug,
          ownerSlug: owner.slug,
        })
        .from(wallComments)
        .leftJoin(users, eq(users.id, wallComments.userId))
        .innerJoin(owner, eq(owner.id, wallComments.toId))
        .where(inArray(wallComments.id, wallIds));
      for (const w of list)
        out.set(`wall:${w.id}`, {
          text: w.body,
          author: author({ id: w.uid, name: w.name, slug: w.slug }),
          link: deps.users.profileUrl({ slug: w.ownerSlug }),
          hidden: !!w.hiddenAt,
          exists: true,
        });
    }
    return out;
  }

  async function reportersOf(rows: ReportRow[]) {
    const ids = [...new Set(rows.map((r) => r.reporterId))];
    if (!ids.length) return new Map<number, { id: number; name: string; url: string }>();
    const list = await db
      .select({ id: users.id, name: users.name, slug: users.slug })
      .from(users)
      .where(inArray(users.id, ids));
    return new Map(list.map((u) => [u.id, { id: u.id, name: u.name, url: deps.users.profileUrl(u) }]));
  }

  return {
    /**
     * POST /api/reports: once per member and target. A second report of the same thing answers the
     * existing report (`created: false`) and changes nothing.
     */
    async report(user: AuthUser, input: { kind: ReportKind; id: number; reason: string }) {
      const existing = async () =>
        (
          await db
            .select()
            .from(reports)
            .where(and(eq(reports.reporterId, user.id), eq(reports.kind, input.kind), eq(reports.targetId, input.id)))
            .limit(1)
        )[0];
      const before = await existing();
      if (before) return { created: false, report: dto(before) };
      await assertReadable(user, input.kind, input.id);
      await deps.limiters.consume('reportsPerUser', String(user.id));
      const [row] = await db
        .insert(reports)
        .values({ kind: input.kind, targetId: input.id, reporterId: user.id, reason: input.reason })
        .onConflictDoNothing()
        .returning();
      if (row) return { created: true, report: dto(row) };
      // a concurrent report of the same thing by the same member won the race
      return { created: false, report: dto((await existing())!) };
    },

    /** GET /api/admin/reports: one page of the queue, newest first; a fixed number of queries. */
    async list(status: ReportStatus, page: number) {
      const [total] = await db.select({ n: count() }).from(reports).where(eq(reports.status, status));
      const rows = await db
        .select()
        .from(reports)
        .where(eq(reports.status, status))
        .orderBy(desc(reports.id))
        .limit(REPORTS_PER_PAGE)
        .offset((page - 1) * REPORTS_PER_PAGE);
      const [targets, reporters] = await Promise.all([summaries(rows), reportersOf(rows)]);
      const n = Number(total?.n ?? 0);
      return {
        data: rows.map((r) => {
          const t = targets.get(`${r.kind}:${r.targetId}`);
          return {
            ...dto(r),
            reporter: reporters.get(r.reporterId) ?? null,
            target: t ?? { text: '', author: null, link: null, hidden: false, exists: false },
          };
        }),
        page,
        pages: Math.max(1, Math.ceil(n / REPORTS_PER_PAGE)),
        total: n,
      };
    },

    /**
     * POST /api/admin/reports/{id}: resolve or dismiss one report; "hide" hides the target and
     * resolves every open report on it, all in one transaction.
     */
    async act(admin: AuthUser, id: number, action: ReportAction, ip: string | null = null) {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(reports).where(eq(reports.id, id)).limit(1).for('update');
        if (!row) throw notFound();
        const now = new Date();
        if (action === 'hide') {
          if (row.kind === 'post')
            await tx
              .update(posts)
              .set({ trashedAt: now })
              .where(and(eq(posts.id, row.targetId), isNull(posts.trashedAt)));
          else if (row.kind === 'chat')
            await tx
              .update(chatMessages)
              .set({ hiddenAt: now })
              .where(and(eq(chatMessages.id, row.targetId), isNull(chatMessages.hiddenAt)));
          else
            await tx
              .update(wallComments)
              .set({ hiddenAt: now })
              .where(and(eq(wallComments.id, row.targetId), isNull(wallComments.hiddenAt)));
          await tx
            .update(reports)
            .set({ status: 'resolved', resolvedById: admin.id, resolvedAt: now })
            .where(and(eq(reports.kind, row.kind), eq(reports.targetId, row.targetId), eq(reports.status, 'open')));
          // this report too, if it was already closed (hiding from the resolved tab)
          await tx
            .update(reports)
            .set({ status: 'resolved', resolvedById: admin.id, resolvedAt: now })
            .where(eq(reports.id, row.id));
        } else {
          await tx
            .update(reports)
            .set({ status: action === 'resolve' ? 'resolved' : 'dismissed', resolvedById: admin.id, resolvedAt: now })
            .where(eq(reports.id, row.id));
        }
        const [after] = await tx.select().from(reports).where(eq(reports.id, id));
        // the console's audit log: who acted on which report, and the target when hidden
        await recordAudit(
          tx,
          { user: admin, ip },
          {
            action: `report.${action}`,
            targetType: 'report',
            targetId: id,
            summary: `${action} report #${id} (${row.kind} #${row.targetId})`,
            before: { ...dto(row), target_hidden: action === 'hide' ? false : undefined },
            after: { ...dto(after!), target_hidden: action === 'hide' ? true : undefined },
          },
        );
        return dto(after!);
      });
    },
  };
}
export type ReportService = ReturnType<typeof createReportService>;
