import { and, eq, gt, isNull, or, sql, type Placeholder } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { DEFAULT_AVATAR_URL } from '#shared/constants';
import { preparedQuery, type Database, type Executor } from '#server/db/client';
import { entitlements, sessions, users } from '#server/db/schema/index';
import type { AuthUser } from '#server/types';
import { isUniqueViolation, violatedConstraint } from '#server/lib/db-errors';

export type UserRow = typeof users.$inferSelect;

export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return base || 'drummer';
}

/** the member's active entitlement kinds at `now` (an ISO time) as one sorted jsonb list, beside their row */
const activeKinds = (now: string | Placeholder) =>
  sql<
    string[]
  >`coalesce((select jsonb_agg(k.kind order by k.kind collate "C") from (select distinct e.kind from ${entitlements} as e where e.user_id = ${users}.id and e.revoked_at is null and (e.ends_at is null or e.ends_at > ${now}::timestamptz)) k), '[]'::jsonb)`;

/** a stored session's member (`idHash`) with their active entitlements and the session's end, at `now` */
const sessionUser = preparedQuery('session_user', (db) => {
  const now = sql.placeholder('now');
  return db
    .select({ row: users, kinds: activeKinds(now), expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), sql`${sessions.expiresAt} > ${now}::timestamptz`))
    .limit(1);
});

export function createUserService(deps: { db: Database; fileBaseUrl: string }) {
  const { db } = deps;
  const avatarUrl = (row: Pick<UserRow, 'avatarPath'>) =>
    row.avatarPath ? `${deps.fileBaseUrl}/${row.avatarPath}` : DEFAULT_AVATAR_URL;
  const profileUrl = (row: Pick<UserRow, 'slug'>) => `/profile/${row.slug}`;

  const authUser = (row: UserRow, kinds: string[]): AuthUser => ({
    id: row.id,
    name: row.name,
    email: row.email,
    slug: row.slug,
    role: row.role,
    isAdmin: row.role === 'admin',
    isMentor: row.isMentor,
    avatarUrl: avatarUrl(row),
    profileUrl: profileUrl(row),
    entitlements: kinds,
  });

  async function activeEntitlements(userId: number, tx: Executor = db): Promise<string[]> {
    const now = new Date();
    const rows = await tx
      .selectDistinct({ kind: entitlements.kind })
      .from(entitlements)
      .where(
        and(
          eq(entitlements.userId, userId),
          isNull(entitlements.revokedAt),
          or(isNull(entitlements.endsAt), gt(entitlements.endsAt, now)),
        ),
      );
    return rows.map((r) => r.kind).sort();
  }

  return {
    avatarUrl,
    profileUrl,
    activeEntitlements,
    async findById(id: number, tx: Executor = db) {
      const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
      return row ?? null;
    },
    async findByEmail(email: string, tx: Executor = db) {
      const [row] = await tx
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
        .limit(1);
      return row ?? null;
    },
    /** A unique profile slug from the name: "jane-doe", then "jane-doe-2"... */
    async uniqueSlug(name: string, tx: Executor = db) {
      const base = slugify(name);
      const taken = await tx
        .select({ slug: users.slug })
        .from(users)
        .where(sql`${users.slug} = ${base} or ${users.slug} like ${base + '-%'}`);
      const set = new Set(taken.map((r) => r.slug));
      if (!set.has(base)) return base;
      for (let n = 2; ; n++) if (!set.has(`${base}-${n}`)) return `${base}-${n}`;
    },
    async create(
      input: {
        name: string;
        email: string;
        passwordHash: string;
        role?: 'member' | 'admin';
        isMentor?: boolean;
        signupSource?: string | null;
      },
      tx: Executor = db,
    ) {
      // two members of one name signing up at once pick the same free slug: the unique index refuses
      // the later one, which picks again (inside a savepoint, so a caller's transaction survives)
      for (let attempt = 1; ; attempt++) {
        const free = await this.uniqueSlug(input.name, tx);
        const slug = attempt <= 3 ? free : `${free}-${randomBytes(3).toString('hex')}`;
        try {
          const [row] = await tx.transaction((sp) =>
            sp
              .insert(users)
              .values({
                name: input.name,
                email: input.email.trim(),
                passwordHash: input.passwordHash,
                role: input.role ?? 'member',
                isMentor: input.isMentor ?? false,
                signupSource: input.signupSource ?? null,
                slug,
              })
              .returning(),
          );
          return row!;
        } catch (err) {
          if (attempt < 5 && isUniqueViolation(err) && violatedConstraint(err) === 'users_slug_unique') continue;
          throw err;
        }
      }
    },
    /** The account's new sign-in address, kept as typed (less the spaces around it), as registration keeps it. */
    async setEmail(id: number, email: string, tx: Executor = db) {
      const [row] = await tx
        .update(users)
        .set({ email: email.trim(), updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row ?? null;
    },
    async grantEntitlement(
      userId: number,
      kind: string,
      source: string,
      endsAt: Date | null = null,
      tx: Executor = db,
    ) {
      await tx.insert(entitlements).values({ userId, kind, source, endsAt });
    },
    async toAuthUser(row: UserRow, tx: Executor = db): Promise<AuthUser> {
      return authUser(row, await activeEntitlements(row.id, tx));
    },
    /**
     * A signed-in member as every request sees them: their row and their active entitlements in one
     * statement (sign-in, and a session read from Redis, which misses the hot cache, runs it).
     */
    async findAuthUser(id: number): Promise<{ user: AuthUser; suspended: boolean } | null> {
      const [found] = await db
        .select({ row: users, kinds: activeKinds(new Date().toISOString()) })
        .from(users)
        .where(eq(users.id, id))
        .limit(1);
      return found ? { user: authUser(found.row, found.kinds), suspended: found.row.suspendedAt !== null } : null;
    },
    /**
     * The member a stored session belongs to, with their active entitlements and the session's end,
     * in one statement (`idHash`: the session store's key, lib/session-store.ts): a signed-in read that
     * misses the hot cache runs it on every request. Null for an unknown or expired session.
     */
    async findSessionUser(idHash: string): Promise<{ user: AuthUser; suspended: boolean; expiresAt: number } | null> {
      const [found] = await sessionUser(db, { idHash, now: new Date().toISOString() });
      return found
        ? {
            user: authUser(found.row, found.kinds),
            suspended: found.row.suspendedAt !== null,
            expiresAt: found.expiresAt.getTime(),
          }
        : null;
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
