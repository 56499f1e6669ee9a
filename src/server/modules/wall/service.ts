import { and, desc, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { DEFAULT_AVATAR_URL } from '#shared/constants';
import { WALL_TEXT, type WallCommentDto, type WallCommentInput } from '#shared/wall';
import { users, wallComments } from '#server/db/schema/index';
import { forbidden, notFound, ValidationError } from '#server/lib/errors';
import type { CommunityDeps } from '#server/modules/community-deps';
import type { AuthUser } from '#server/types';
import { mailExcerpt } from '#server/modules/mail/index';
import { escapeHtml } from '#server/lib/html';

/** a comment row with its author joined in (null when the author is gone) */
const columns = {
  id: wallComments.id,
  body: wallComments.body,
  toId: wallComments.toId,
  userId: wallComments.userId,
  parentId: wallComments.parentId,
  createdAt: wallComments.createdAt,
  authorName: users.name,
  authorSlug: users.slug,
  authorAvatar: users.avatarPath,
  authorRole: users.role,
};
type Row = {
  id: number;
  body: string;
  toId: number;
  userId: number | null;
  parentId: number | null;
  createdAt: Date;
  authorName: string | null;
  authorSlug: string | null;
  authorAvatar: string | null;
  authorRole: 'member' | 'admin' | null;
};

export interface WallPage {
  comments: WallCommentDto[];
  more: boolean;
}

/**
 * Profile walls (docs/product/profile-and-wall.md): any signed-in member writes on a member's wall and replies to a
 * top-level comment there. A page is always three queries (the owner, the page of top-level
 * comments with their authors, all their replies with their authors), whatever its size. Comments an
 * admin hid after a report (hidden_at) are left out, with their replies.
 */
export function createWallService(deps: CommunityDeps) {
  const { db } = deps;

  function toDto(viewer: AuthUser, r: Row, children: WallCommentDto[] = []): WallCommentDto {
    const gone = r.userId === null || r.authorName === null;
    return {
      id: r.id,
      body: r.body,
      author: gone ? COMMUNITY_MESSAGES.deleted : r.authorName!,
      created_at: r.createdAt.toISOString(),
      permalink: gone ? null : deps.users.profileUrl({ slug: r.authorSlug! }),
      avatar_url: gone ? DEFAULT_AVATAR_URL : deps.users.avatarUrl({ avatarPath: r.authorAvatar }),
      user_id: r.userId,
      to_id: r.toId,
      parent_id: r.parentId,
      admin: r.authorRole === 'admin',
      can_delete: viewer.isAdmin || (r.userId !== null && r.userId === viewer.id) || r.toId === viewer.id,
      children,
    };
  }

  async function owner(slug: string) {
    const [row] = await db
      .select({ id: users.id, name: users.name, slug: users.slug, suspendedAt: users.suspendedAt })
      .from(users)
      .where(eq(users.slug, slug))
      .limit(1);
    if (!row || row.suspendedAt) throw notFound();
    return row;
  }

  /** parents (already ordered) plus all their visible replies in one query, oldest first */
  async function withChildren(viewer: AuthUser, parents: Row[]) {
    const ids = parents.map((p) => p.id);
    const replies = ids.length
      ? await db
          .select(columns)
          .from(wallComments)
          .leftJoin(users, eq(users.id, wallComments.userId))
          .where(and(inArray(wallComments.parentId, ids), isNull(wallComments.hiddenAt)))
          .orderBy(asc(wallComments.id))
      : [];
    const byParent = new Map<number, WallCommentDto[]>();
    for (const r of replies) {
      const list = byParent.get(r.parentId!) ?? [];
      list.push(toDto(viewer, r));
      byParent.set(r.parentId!, list);
    }
    return parents.map((p) => toDto(viewer, p, byParent.get(p.id) ?? []));
  }

  /** one page of a wall's top-level comments, newest first */
  async function page(viewer: AuthUser, toId: number, pageNo: number): Promise<WallPage> {
    const per = COMMUNITY.wallCommentsPerPage;
    const rows = await db
      .select(columns)
      .from(wallComments)
      .leftJoin(users, eq(users.id, wallComments.userId))
      .where(and(eq(wallComments.toId, toId), isNull(wallComments.parentId), isNull(wallComments.hiddenAt)))
      .orderBy(desc(wallComments.id))
      .limit(per + 1)
      .offset((pageNo - 1) * per);
    return { comments: await withChildren(viewer, rows.slice(0, per)), more: rows.length > per };
  }

  /** a visible top-level comment on this wall, or null */
  async function topLevel(toId: number, id: number) {
    const [row] = await db
      .select(columns)
      .from(wallComments)
      .leftJoin(users, eq(users.id, wallComments.userId))
      .where(
        and(
          eq(wallComments.id, id),
          eq(wallComments.toId, toId),
          isNull(wallComments.parentId),
          isNull(wallComments.hiddenAt),
        ),
      )
      .limit(1);
    return row ?? null;
  }

  return {
    /** GET /profile-comments/{slug}: a page of the wall, or (`id`) the one thread holding that comment */
    async list(viewer: AuthUser, slug: string, opts: { page: number; id?: number | undefined }): Promise<WallPage> {
      const wall = await owner(slug);
      if (opts.id === undefined) return page(viewer, wall.id, opts.page);
      const [hit] = await db
        .select({ id: wallComments.id, parentId: wallComments.parentId })
        .from(wallComments)
        .where(and(eq(wallComments.id, opts.id), eq(wallComments.toId, wall.id), isNull(wallComments.hiddenAt)))
        .limit(1);
      const parent = hit ? await topLevel(wall.id, hit.parentId ?? hit.id) : null;
      if (!parent) throw notFound();
      return { comments: await withChildren(viewer, [parent]), more: false };
    },

    /**
     * POST /profile-comments: answers page 1 of the wall with the new comment first; a reply sits in
     * its parent's children and the parent comes first.
     */
    async create(viewer: AuthUser, input: WallCommentInput): Promise<WallPage> {
      const wall = await deps.users.findById(input.to_id);
      if (!wall || wall.suspendedAt) throw new ValidationError({ to_id: [WALL_TEXT.toIdInvalid] });
      const parent = input.parent_id ? await topLevel(wall.id, input.parent_id) : null;
      if (input.parent_id && !parent) throw new ValidationError({ parent_id: [WALL_TEXT.parentInvalid] });
      await deps.limiters.consume('wallCommentsPerUser', String(viewer.id));
      const [row] = await db
        .insert(wallComments)
        .values({ toId: wall.id, userId: viewer.id, parentId: parent?.id ?? null, body: input.body })
        .returning();

      const who = `<strong>${escapeHtml(viewer.name)}</strong>`;
      const url = deps.users.profileUrl(wall);
      const said = { from: viewer.name, reply: !!parent, excerpt: mailExcerpt(input.body), url };
      if (wall.id !== viewer.id) {
        await deps.notifications.notify(wall.id, {
          body: parent ? `${who} replied to a comment on your wall.` : `${who} wrote on your wall.`,
          url,
          mail: { kind: 'community.wall-comment', data: { ...said, wall: 'yours' }, key: `wall-${row!.id}-${wall.id}` },
        });
      }
      if (parent && parent.userId && parent.userId !== viewer.id && parent.userId !== wall.id) {
        await deps.notifications.notify(parent.userId, {
          body: `${who} replied to your comment on <strong>${escapeHtml(wall.name)}</strong>'s wall.`,
          url,
          mail: {
            kind: 'community.wall-comment',
            data: { ...said, wall: wall.name },
            key: `wall-${row!.id}-${parent.userId}`,
          },
        });
      }

      const first = await page(viewer, wall.id, 1);
      const headId = parent?.id ?? row!.id;
      const head =
        first.comments.find((c) => c.id === headId) ??
        (await withChildren(viewer, [(await topLevel(wall.id, headId))!]))[0]!;
      return { comments: [head, ...first.comments.filter((c) => c.id !== headId)], more: first.more };
    },

    /** POST /profile-comments/{id} with _method delete: an admin, the author or the wall's owner; replies go with it */
    async remove(viewer: AuthUser, id: number) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: wallComments.id, userId: wallComments.userId, toId: wallComments.toId })
          .from(wallComments)
          .where(eq(wallComments.id, id))
          .limit(1)
          .for('update');
        if (!row) throw notFound();
        if (!viewer.isAdmin && row.userId !== viewer.id && row.toId !== viewer.id) throw forbidden();
        const gone = await tx
          .delete(wallComments)
          .where(or(eq(wallComments.id, id), eq(wallComments.parentId, id)))
          .returning({ id: wallComments.id });
        return { deleted: gone.length };
      });
    },
  };
}
export type WallService = ReturnType<typeof createWallService>;
