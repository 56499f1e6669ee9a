import { alias } from 'drizzle-orm/pg-core';
import { and, asc, desc, eq, gt, ilike, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import {
  HISTORY_LABELS,
  MEMBER_TEXT,
  type AdminEntitlement,
  type AdminLeadRow,
  type AdminMemberDetail,
  type AdminMemberRow,
  type AdminMentorsOverview,
  type AdminMentorStudent,
  type AdminReviewRow,
  type HistoryFact,
  type HistoryKey,
  type MemberListQuery,
} from '#shared/admin-members';
import type { Database } from '#server/db/client';
import {
  chatMessages,
  contactMessages,
  diagnosticLeads,
  entitlements,
  forumTopics,
  journalEntries,
  lessonCompletions,
  mentorships,
  orders,
  posts,
  quizAttempts,
  reports,
  stages,
  subscriptions,
  users,
  wallComments,
} from '#server/db/schema/index';
import { AppError, notFound, ValidationError } from '#server/lib/errors';
import type { SessionStore } from '#server/lib/session-store';
import type { Realtime } from '#server/modules/realtime/index';
import type { UserRow, UserService } from '#server/modules/users/index';
import { recordAudit, type Actor, type AuditInput } from '#server/modules/admin/index';
import { countAll, escapeLike, pageOfSelect, sortOf } from '#server/modules/admin/index';

const activeEntitlementSql = (userId: SQL | number, kind?: string) =>
  sql`exists (select 1 from ${entitlements} e where e.user_id = ${userId} ${kind ? sql`and e.kind = ${kind}` : sql``} and e.revoked_at is null and (e.ends_at is null or e.ends_at > now()))`;

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

  async function memberOr404(id: number): Promise<UserRow> {
    const row = await deps.users.findById(id);
    if (!row) throw notFound('That member does not exist.');
    return row;
  }

  const entitlementRow = (r: typeof entitlements.$inferSelect): AdminEntitlement => ({
    id: r.id,
    kind: r.kind,
    source: r.source,
    starts_at: r.startsAt.toISOString(),
    ends_at: r.endsAt?.toISOString() ?? null,
    revoked_at: r.revokedAt?.toISOString() ?? null,
    active: !r.revokedAt && (!r.endsAt || r.endsAt > new Date()),
  });

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

  async function history(userId: number): Promise<Record<HistoryKey, HistoryFact>> {
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
        const like = `%${escapeLike(query.q)}%`;
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
        history: await history(id),
        entitlement_rows: ents.map(entitlementRow),
      };
    },

    async grant(actor: Actor, id: number, input: { kind: string; ends_at?: string | undefined }) {
      const u = await memberOr404(id);
      const endsAt = input.ends_at ? new Date(`${input.ends_at}T23:59:59Z`) : null;
      return db.transaction(async (tx) => {
        const before = await deps.users.activeEntitlements(id, tx);
        const [ent] = await tx
          .insert(entitlements)
          .values({ userId: id, kind: input.kind, source: 'admin', endsAt })
          .returning();
        const after = await deps.users.activeEntitlements(id, tx);
        await recordAudit(tx, actor, {
          action: 'member.entitlement.grant',
          targetType: 'member',
          targetId: id,
          summary: `Granted ${input.kind} to ${u.name}${endsAt ? ` until ${input.ends_at}` : ''}`,
          before: { entitlements: before },
          after: { entitlements: after, granted: entitlementRow(ent!) },
        });
        return { data: entitlementRow(ent!) };
      });
    },

    async revoke(actor: Actor, id: number, entitlementId: number) {
      const u = await memberOr404(id);
      return db.transaction(async (tx) => {
        const [ent] = await tx
          .select()
          .from(entitlements)
          .where(and(eq(entitlements.id, entitlementId), eq(entitlements.userId, id)))
          .limit(1);
        if (!ent) throw notFound('That entitlement does not exist.');
        if (ent.revokedAt) throw new AppError(409, MEMBER_TEXT.alreadyRevoked);
        const before = await deps.users.activeEntitlements(id, tx);
        const [updated] = await tx
          .update(entitlements)
          .set({ revokedAt: new Date() })
          .where(eq(entitlements.id, ent.id))
          .returning();
        const after = await deps.users.activeEntitlements(id, tx);
        await recordAudit(tx, actor, {
          action: 'member.entitlement.revoke',
          targetType: 'member',
          targetId: id,
          summary: `Revoked ${ent.kind} from ${u.name}`,
          before: { entitlements: before, entitlement: entitlementRow(ent) },
          after: { entitlements: after, entitlement: entitlementRow(updated!) },
        });
        return { data: entitlementRow(updated!) };
      });
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
      if (u.suspendedAt) throw new AppError(409, MEMBER_TEXT.alreadySuspended);
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
      if (!u.suspendedAt) throw new AppError(409, MEMBER_TEXT.notSuspended);
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

    /** Every admin (mentors first) with their students, and the students without a mentor. */
    async mentors(): Promise<AdminMentorsOverview> {
      const admins = await db
        .select()
        .from(users)
        .where(eq(users.role, 'admin'))
        .orderBy(desc(users.isMentor), asc(sql`lower(${users.name})`), asc(users.id));
      const student = alias(users, 'student');
      const links = await db
        .select({
          mentorId: mentorships.mentorId,
          id: student.id,
          name: student.name,
          email: student.email,
          status: mentorships.status,
        })
        .from(mentorships)
        .innerJoin(student, eq(student.id, mentorships.studentId))
        .where(isNotNull(mentorships.mentorId))
        .orderBy(asc(sql`lower(${student.name})`), asc(student.id));
      // students: a mentorship row, or the mentorship entitlement (given by hand), and no mentor
      const unassigned = await db
        .select({ id: users.id, name: users.name, email: users.email, status: mentorships.status })
        .from(users)
        .leftJoin(mentorships, eq(mentorships.studentId, users.id))
        .where(
          and(
            ne(users.role, 'admin'),
            isNull(mentorships.mentorId),
            or(isNotNull(mentorships.id), activeEntitlementSql(sql`${users.id}`, 'mentorship')),
          ),
        )
        .orderBy(asc(sql`lower(${users.name})`), asc(users.id));
      const toStudent = (r: {
        id: number;
        name: string;
        email: string;
        status: string | null;
      }): AdminMentorStudent => ({ id: r.id, name: r.name, email: r.email, status: r.status ?? null });
      return {
        mentors: admins.map((a) => ({
          id: a.id,
          name: a.name,
          email: a.email,
          avatar_url: deps.users.avatarUrl(a),
          is_mentor: a.isMentor,
          students: links.filter((l) => l.mentorId === a.id).map(toStudent),
        })),
        unassigned: unassigned.map(toStudent),
      };
    },
  };
}
export type AdminMembersService = ReturnType<typeof createAdminMembersService>;

// ---- leads & reviews (the routes live in modules/diagnostic and modules/contact) ----

function leadsWhere(query: AdminListQuery) {
  const like = query.q ? `%${escapeLike(query.q)}%` : null;
  const where = like
    ? or(
        ilike(diagnosticLeads.name, like),
        ilike(diagnosticLeads.email, like),
        ilike(diagnosticLeads.skill, like),
        ilike(diagnosticLeads.pedal, like),
        ilike(diagnosticLeads.primaryKiller, like),
      )
    : undefined;
  const sort = sortOf(
    query,
    {
      created_at: diagnosticLeads.createdAt,
      name: sql`lower(${diagnosticLeads.name})`,
      email: sql`lower(${diagnosticLeads.email})`,
      skill: diagnosticLeads.skill,
      pedal: diagnosticLeads.pedal,
      primary: diagnosticLeads.primaryKiller,
    },
    'created_at',
    'desc',
  );
  return { where, sort };
}

/** GET /api/admin/diagnostic-leads (and, with `all`, the CSV of the same search and sort). */
export async function leadsPage(db: Database, query: AdminListQuery, all = false): Promise<AdminPage<AdminLeadRow>> {
  const { where, sort } = leadsWhere(query);
  return pageOfSelect({
    query,
    sort,
    all,
    count: db.select({ n: countAll }).from(diagnosticLeads).where(where),
    rows: db.select().from(diagnosticLeads).where(where).orderBy(sort.order, desc(diagnosticLeads.id)),
    map: (r): AdminLeadRow => ({
      id: r.id,
      name: r.name,
      email: r.email,
      skill: r.skill,
      pedal: r.pedal,
      tempo: r.tempo,
      scores: r.scores,
      primary: r.primaryKiller,
      answers: r.answersText,
      created_at: r.createdAt.toISOString(),
    }),
  });
}

/** GET /api/admin/reviews (and, with `all`, the CSV of the same search and sort). */
export async function reviewsPage(
  db: Database,
  query: AdminListQuery,
  all = false,
): Promise<AdminPage<AdminReviewRow>> {
  const like = query.q ? `%${escapeLike(query.q)}%` : null;
  const where = and(
    eq(contactMessages.kind, 'review'),
    like
      ? or(
          ilike(contactMessages.subject, like),
          ilike(contactMessages.body, like),
          ilike(users.name, like),
          ilike(users.email, like),
        )
      : undefined,
  );
  const sort = sortOf(
    query,
    { created_at: contactMessages.createdAt, name: sql`lower(${users.name})`, email: sql`lower(${users.email})` },
    'created_at',
    'desc',
  );
  return pageOfSelect({
    query,
    sort,
    all,
    count: db
      .select({ n: countAll })
      .from(contactMessages)
      .leftJoin(users, eq(users.id, contactMessages.userId))
      .where(where),
    rows: db
      .select({
        id: contactMessages.id,
        subject: contactMessages.subject,
        body: contactMessages.body,
        created_at: contactMessages.createdAt,
        name: users.name,
        email: users.email,
        user_id: contactMessages.userId,
      })
      .from(contactMessages)
      .leftJoin(users, eq(users.id, contactMessages.userId))
      .where(where)
      .orderBy(sort.order, desc(contactMessages.id)),
    map: (r): AdminReviewRow => ({ ...r, created_at: r.created_at.toISOString() }),
  });
}
