import { and, asc, desc, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AdminMentorsOverview, AdminMentorStudent } from '#shared/admin-members';
import type { Database } from '#server/db/client';
import { mentorships, users } from '#server/db/schema/index';
import type { UserService } from '#server/modules/users/index';
import { activeEntitlementSql } from './member-facts.ts';

/** Every admin (mentors first) with their students, and the students without a mentor. */
export async function mentorsOverview(deps: { db: Database; users: UserService }): Promise<AdminMentorsOverview> {
  const { db } = deps;
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
  const toStudent = (r: { id: number; name: string; email: string; status: string | null }): AdminMentorStudent => ({
    id: r.id,
    name: r.name,
    email: r.email,
    status: r.status ?? null,
  });
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
}
