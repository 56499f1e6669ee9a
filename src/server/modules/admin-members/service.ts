import { and, desc, eq, gt, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AdminPage } from '#shared/admin';
import { MEMBER_TEXT, type AdminMemberDetail, type AdminMemberRow, type MemberListQuery } from '#shared/admin-members';
import type { Database } from '#server/db/client';
import { entitlements, stages, users } from '#server/db/schema/index';
import { AppError, ValidationError } from '#server/lib/errors';
import type { SessionStore } from '#server/lib/session-store';
import type { Realtime } from '#server/modules/realtime/index';
import type { UserRow, UserService } from '#server/modules/users/index';
import { recordAudit, type Actor, type AuditInput } from '#server/modules/admin/index';
import { containing, countAll, pageOfSelect, sortOf } from '#server/modules/admin/index';
import { createMemberEntitlements } from './entitlements.ts';
import { activeEntitlementSql, entitlementRow, memberHistory, memberOr404 as memberOr404Of } from './member-facts.ts';
import { mentorsOverview } from './mentors.ts';

/** What the audit log stores about a member: the facts an admin changes. */
const memberFacts = (u: UserRow) => ({
  role: u.role,
  is_mentor: u.isMentor,
  suspended_at: u.suspendedAt?.toISOString() ?? null,
  suspended_reason: u.suspendedReason,
});

export function createAdminMembersService(deps: {
  db: Database;
  users: UserService;
  sessions: SessionStore;
  realtime: Realtime;
}) {
  const { db } = deps;
  const memberOr404 = (id: number) => memberOr404Of(deps.users, id);

  /** a member as the list shows them, with the kinds of their active entitlements */
  const memberRow = (u: UserRow, activeKinds: string[]): AdminMemberRow => ({
    id: u.id,
    name: u.name,
    email: u.email,
    slug: u.slug,
    avatar_url: deps.users.avatarUrl(u),
    role: u.role,
    is_mentor: u.isMentor,
    suspended_at: u.suspendedAt?.toISOString() ?? null,
    entitlements: activeKinds,
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
  });

  async function row(u: UserRow): Promise<AdminMemberRow> {
    return memberRow(u, await deps.users.activeEntitlements(u.id));
  }

  /** Changes the member's row and writes its audit entry (made from the changed row) in one transaction. */
  async function updateMember(
    actor: Actor,
    u: UserRow,
    set: Partial<typeof users.$inferInsert>,
    entry: (after: UserRow) => Omit<AuditInput, 'targetType' | 'targetId'>,
  ): Promise<UserRow> {
    return db.transaction(async (tx) => {
      const [after] = await tx.update(users).set(set).where(eq(users.id, u.id)).returning();
      await recordAudit(tx, actor, { ...entry(after!), targetType: 'member', targetId: u.id });
      return after!;
    });
  }

  /** Signs the member out everywhere and closes their sockets (suspension, demotion). */
  async function signOutEverywhere(userId: number) {
    await deps.sessions.destroyUser(userId);
    deps.realtime.disconnectUser(userId);
  }

  return {
    async list(query: MemberListQuery): Promise<AdminPage<AdminMemberRow>> {
      const where: SQL[] = [];
      if (query.q) {
        const like = containing(query.q);
        where.push(or(ilike(users.name, like), ilike(users.email, like), ilike(users.slug, like))!);
      }
      if (query.role) where.push(eq(users.role, query.role as 'member' | 'admin'));
      if (query.mentor) where.push(eq(users.isMentor, query.mentor === 'yes'));
      if (query.suspended)
        where.push(query.suspended === 'yes' ? isNotNull(users.suspendedAt) : isNull(users.suspendedAt));
      if (query.entitlement) where.push(activeEntitlementSql(sql`${users.id}`, query.entitlement));
      const cond = where.length ? and(...where) : undefined;
      const sort = sortOf(
        query,
        {
          name: sql`lower(${users.name})`,
          email: sql`lower(${users.email})`,
          joined: users.createdAt,
          updated: users.updatedAt,
        },
        'joined',
        'desc',
      );
      const page = await pageOfSelect({
        query,
        sort,
        count: db.select({ n: countAll }).from(users).where(cond),
        rows: db.select().from(users).where(cond).orderBy(sort.order, desc(users.id)),
        map: (u) => u,
      });
      const rows = page.data;
      const kinds = rows.length
        ? await db
            .select({ userId: entitlements.userId, kind: entitlements.kind })
            .from(entitlements)
            .where(
              and(
                sql`${entitlements.userId} in (${sql.join(
                  rows.map((r) => sql`${r.id}`),
                  sql`, `,
                )})`,
                isNull(entitlements.revokedAt),
                or(isNull(entitlements.endsAt), gt(entitlements.endsAt, new Date())),
              ),
            )
        : [];
      const byUser = new Map<number, Set<string>>();
      for (const k of kinds) (byUser.get(k.userId) ?? byUser.set(k.userId, new Set()).get(k.userId)!).add(k.kind);
      return { ...page, data: rows.map((u) => memberRow(u, [...(byUser.get(u.id) ?? [])].sort())) };
    },

    async detail(id: number): Promise<AdminMemberDetail> {
      const u = await memberOr404(id);
      const [stage] = u.stageId
        ? await db.select({ title: stages.title }).from(stages).where(eq(stages.id, u.stageId)).limit(1)
        : [];
      const ents = await db
        .select()
        .from(entitlements)
        .where(eq(entitlements.userId, id))
        .orderBy(desc(entitlements.createdAt), desc(entitlements.id));
      return {
        member: {
          ...(await row(u)),
          profile_url: deps.users.profileUrl(u),
          timezone: u.timezone,
          stage: stage?.title ?? null,
          signup_source: u.signupSource,
          suspended_reason: u.suspendedReason,
        },
        history: await memberHistory(db, id),
        entitlement_rows: ents.map(entitlementRow),
      };
    },

    async setRole(
      actor: Actor,
      id: number,
      input: { role?: 'member' | 'admin' | undefined; is_mentor?: boolean | undefined },
    ) {
      const u = await memberOr404(id);
      if (id === actor.user.id && input.role === 'member') throw new ValidationError({ role: [MEMBER_TEXT.ownAdmin] });
      const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
      if (input.role !== undefined) set.role = input.role;
      if (input.is_mentor !== undefined) set.isMentor = input.is_mentor;
      const updated = await updateMember(actor, u, set, (after) => ({
        action: 'member.role',
        summary: `Changed ${u.name}: role ${after.role}, ${after.isMentor ? 'mentor' : 'not a mentor'}`,
        before: { role: u.role, is_mentor: u.isMentor },
        after: { role: after.role, is_mentor: after.isMentor },
      }));
      return { data: await row(updated) };
    },

    async suspend(actor: Actor, id: number, reason: string) {
      const u = await memberOr404(id);
      if (id === actor.user.id) throw new ValidationError({ reason: [MEMBER_TEXT.ownSuspend] });
      if (u.suspendedAt) throw new AppError('conflict', MEMBER_TEXT.alreadySuspended);
      const updated = await updateMember(
        actor,
        u,
        { suspendedAt: new Date(), suspendedReason: reason, updatedAt: new Date() },
        (after) => ({
          action: 'member.suspend',
          summary: `Suspended ${u.name}: ${reason}`,
          before: memberFacts(u),
          after: memberFacts(after),
        }),
      );
      await signOutEverywhere(id);
      return { data: await row(updated) };
    },

    async unsuspend(actor: Actor, id: number) {
      const u = await memberOr404(id);
      if (!u.suspendedAt) throw new AppError('conflict', MEMBER_TEXT.notSuspended);
      const updated = await updateMember(
        actor,
        u,
        { suspendedAt: null, suspendedReason: null, updatedAt: new Date() },
        (after) => ({
          action: 'member.unsuspend',
          summary: `Lifted the suspension of ${u.name}`,
          before: memberFacts(u),
          after: memberFacts(after),
        }),
      );
      return { data: await row(updated) };
    },

    ...createMemberEntitlements(deps),

    mentors: () => mentorsOverview(deps),
  };
}
export type AdminMembersService = ReturnType<typeof createAdminMembersService>;
