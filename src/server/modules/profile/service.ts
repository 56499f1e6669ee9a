import { and, eq, or } from 'drizzle-orm';
import { MESSAGES } from '#shared/constants';
import type { FriendStatus, ProfileDto } from '#shared/profile';
import type { Database } from '#server/db/client';
import { friendships, stages, users } from '#server/db/schema/index';
import { AppError, notFound, ValidationError } from '#server/lib/errors';
import type { NotificationService } from '#server/modules/notifications/index';
import type { UserService } from '#server/modules/users/index';
import type { AuthUser } from '#server/types';
import { escapeHtml } from '#server/lib/html';

export function createProfileService(deps: { db: Database; users: UserService; notifications: NotificationService }) {
  const { db } = deps;

  async function relation(a: number, b: number) {
    const [row] = await db
      .select()
      .from(friendships)
      .where(
        or(
          and(eq(friendships.requesterId, a), eq(friendships.addresseeId, b)),
          and(eq(friendships.requesterId, b), eq(friendships.addresseeId, a)),
        ),
      )
      .limit(1);
    return row ?? null;
  }

  function statusFor(viewerId: number, row: typeof friendships.$inferSelect | null): FriendStatus {
    if (!row) return 'notfriends';
    if (row.status === 'accepted') return 'friends';
    return row.requesterId === viewerId ? 'pending' : 'incoming';
  }

  return {
    async profile(viewer: AuthUser | null, slug: string): Promise<ProfileDto> {
      const [row] = await db.select().from(users).where(eq(users.slug, slug)).limit(1);
      if (!row || row.suspendedAt) throw notFound();
      const [stage] = row.stageId ? await db.select().from(stages).where(eq(stages.id, row.stageId)) : [];
      const rel = viewer && viewer.id !== row.id ? await relation(viewer.id, row.id) : null;
      return {
        id: row.id,
        name: row.name,
        slug: row.slug,
        avatar_url: deps.users.avatarUrl(row),
        admin: row.role === 'admin',
        stage: stage ? { id: stage.id, title: stage.title } : null,
        status: row.status,
        status_updated_at: row.statusUpdatedAt?.toISOString() ?? null,
        is_owner: viewer?.id === row.id,
        member_since: row.createdAt.toISOString(),
        friendship:
          viewer && viewer.id !== row.id
            ? { status: statusFor(viewer.id, rel), relationship_id: rel?.id ?? null }
            : null,
      };
    },

    /** POST /friends: ask to be friends (accepts at once when the other member already asked). */
    async request(viewer: AuthUser, userId: number) {
      if (userId === viewer.id) throw new ValidationError({ user_id: ['You cannot add yourself as a friend.'] });
      const other = await deps.users.findById(userId);
      if (!other) throw new ValidationError({ user_id: ['The selected user is invalid.'] });
      const existing = await relation(viewer.id, userId);
      if (existing) {
        if (existing.status === 'pending' && existing.addresseeId === viewer.id)
          return this.respond(viewer, existing.id, 1);
        return { relationship_id: existing.id, status: statusFor(viewer.id, existing) };
      }
      const [row] = await db
        .insert(friendships)
        .values({ requesterId: viewer.id, addresseeId: userId })
        .onConflictDoNothing()
        .returning();
      if (!row) {
        // a request between the two landed first: theirs to me is accepted, as if it had come before
        const again = await relation(viewer.id, userId);
        if (again!.status === 'pending' && again!.addresseeId === viewer.id) return this.respond(viewer, again!.id, 1);
        return { relationship_id: again!.id, status: statusFor(viewer.id, again) };
      }
      await deps.notifications.notify(userId, {
        body: `<strong>${escapeHtml(viewer.name)}</strong> sent you a friend request.`,
        url: '/friends',
        mail: {
          kind: 'community.friend-request',
          data: { from: viewer.name, profile: deps.users.profileUrl(viewer) },
          key: `friendship-${row.id}`,
        },
      });
      return { relationship_id: row.id, status: 'pending' as FriendStatus };
    },

    /**
     * POST /friends/{id}/request: action 0 cancels (the requester) or declines (the other member);
     * action 1 accepts (the other member only).
     */
    async respond(viewer: AuthUser, relationshipId: number, action: 0 | 1) {
      const [row] = await db.select().from(friendships).where(eq(friendships.id, relationshipId)).limit(1);
      if (!row || (row.requesterId !== viewer.id && row.addresseeId !== viewer.id)) throw notFound();
      if (row.status !== 'pending') throw new AppError('conflict', MESSAGES.requestFailed);
      if (action === 0) {
        await db.delete(friendships).where(eq(friendships.id, row.id));
        return { relationship_id: null, status: 'notfriends' as FriendStatus };
      }
      if (row.addresseeId !== viewer.id) throw new AppError('forbidden', MESSAGES.forbidden);
      // only a still-pending request: two accepts at once notify the requester once, the other hears 409
      const accepted = await db
        .update(friendships)
        .set({ status: 'accepted', acceptedAt: new Date() })
        .where(and(eq(friendships.id, row.id), eq(friendships.status, 'pending')))
        .returning({ id: friendships.id });
      if (!accepted.length) throw new AppError('conflict', MESSAGES.requestFailed);
      await deps.notifications.notify(row.requesterId, {
        body: `<strong>${escapeHtml(viewer.name)}</strong> accepted your friend request.`,
        url: deps.users.profileUrl(viewer),
        topic: 'friend-requests',
      });
      return { relationship_id: row.id, status: 'friends' as FriendStatus };
    },

    async unfriend(viewer: AuthUser, userId: number) {
      const rel = await relation(viewer.id, userId);
      if (rel?.status === 'accepted') await db.delete(friendships).where(eq(friendships.id, rel.id));
      return { relationship_id: null, status: 'notfriends' as FriendStatus };
    },

    async friends(viewer: AuthUser) {
      const rows = await db
        .select({ rel: friendships, user: users })
        .from(friendships)
        .innerJoin(
          users,
          or(
            and(eq(friendships.requesterId, users.id), eq(friendships.addresseeId, viewer.id)),
            and(eq(friendships.addresseeId, users.id), eq(friendships.requesterId, viewer.id)),
          ),
        )
        .where(or(eq(friendships.requesterId, viewer.id), eq(friendships.addresseeId, viewer.id)));
      const item = (r: (typeof rows)[number]) => ({
        relationship_id: r.rel.id,
        id: r.user.id,
        name: r.user.name,
        profile_url: deps.users.profileUrl(r.user),
        avatar_url: deps.users.avatarUrl(r.user),
      });
      return {
        friends: rows.filter((r) => r.rel.status === 'accepted').map(item),
        incoming: rows.filter((r) => r.rel.status === 'pending' && r.rel.addresseeId === viewer.id).map(item),
        outgoing: rows.filter((r) => r.rel.status === 'pending' && r.rel.requesterId === viewer.id).map(item),
      };
    },

    async setAvatar(userId: number, avatarPath: string | null) {
      const [before] = await db.select({ avatarPath: users.avatarPath }).from(users).where(eq(users.id, userId));
      await db.update(users).set({ avatarPath, updatedAt: new Date() }).where(eq(users.id, userId));
      return before?.avatarPath ?? null;
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
