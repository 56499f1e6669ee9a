import { desc, eq, ilike, or, sql, and } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import type { AdminBarrierRow } from '#shared/accessibility';
import type { Database } from '#server/db/client';
import { contactMessages, users } from '#server/db/schema/index';
import { escapeHtml } from '#server/lib/html';
import { containing, countAll, pageOfSelect, sortOf } from '#server/modules/admin/index';
import type { NotificationService } from '#server/modules/notifications/index';
import type { AuthUser } from '#server/types';

/** where an admin reads the reports */
export const BARRIER_INBOX_URL = '/admin/accessibility-reports';

/**
 * A report of an accessibility barrier (docs/product/accessibility.md): kept with the contact
 * messages as kind "barrier", and every admin is notified with a link to the console's list. The
 * address to answer is the one the reporter gave, else the member's own.
 */
export async function reportBarrier(
  deps: { db: Database; notifications: Pick<NotificationService, 'notify'> },
  user: AuthUser | null,
  input: { page: string; description: string; email: string },
) {
  const { db, notifications } = deps;
  await db.insert(contactMessages).values({
    userId: user?.id ?? null,
    kind: 'barrier',
    subject: 'Accessibility barrier',
    body: input.description,
    page: input.page,
    email: input.email || null,
  });
  const admins = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
  const where = input.page ? ` on <strong>${escapeHtml(input.page.slice(0, 80))}</strong>` : '';
  const who = user ? escapeHtml(user.name) : 'A visitor';
  for (const admin of admins)
    await notifications.notify(admin.id, {
      body: `${who} reported an accessibility barrier${where}`,
      url: BARRIER_INBOX_URL,
    });
}

/** the admins' list: newest first (or by email), searched in the page, text, name and addresses */
export async function barrierReportsPage(db: Database, query: AdminListQuery): Promise<AdminPage<AdminBarrierRow>> {
  const like = query.q ? containing(query.q) : null;
  const where = and(
    eq(contactMessages.kind, 'barrier'),
    like
      ? or(
          ilike(contactMessages.page, like),
          ilike(contactMessages.body, like),
          ilike(contactMessages.email, like),
          ilike(users.name, like),
          ilike(users.email, like),
        )
      : undefined,
  );
  const email = sql<string | null>`coalesce(${contactMessages.email}, ${users.email})`;
  const sort = sortOf(
    query,
    { created_at: contactMessages.createdAt, email: sql`lower(${email})` },
    'created_at',
    'desc',
  );
  return pageOfSelect({
    query,
    sort,
    count: db
      .select({ n: countAll })
      .from(contactMessages)
      .leftJoin(users, eq(users.id, contactMessages.userId))
      .where(where),
    rows: db
      .select({
        id: contactMessages.id,
        page: contactMessages.page,
        body: contactMessages.body,
        email,
        name: users.name,
        user_id: contactMessages.userId,
        created_at: contactMessages.createdAt,
      })
      .from(contactMessages)
      .leftJoin(users, eq(users.id, contactMessages.userId))
      .where(where)
      .orderBy(sort.order, desc(contactMessages.id)),
    map: (r): AdminBarrierRow => ({ ...r, page: r.page ?? '', created_at: r.created_at.toISOString() }),
  });
}
