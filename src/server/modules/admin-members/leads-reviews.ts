import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import type { AdminLeadRow, AdminReviewRow } from '#shared/admin-members';
import type { Database } from '#server/db/client';
import { contactMessages, diagnosticLeads, users } from '#server/db/schema/index';
import { containing, countAll, pageOfSelect, sortOf } from '#server/modules/admin/index';

// The admin console's lists of leads and reviews; their routes live in modules/diagnostic and modules/contact.

function leadsWhere(query: AdminListQuery) {
  const like = query.q ? containing(query.q) : null;
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
  const like = query.q ? containing(query.q) : null;
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
