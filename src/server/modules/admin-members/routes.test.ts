import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_TEXT } from '#shared/admin-members';
import {
  auditLog,
  contactMessages,
  courses,
  diagnosticLeads,
  journalEntries,
  lessons,
  mentorships,
  reports,
  wallComments,
} from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

let t: TestApp;
let admin: { user: { id: number; name: string }; client: TestClient };
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn({ role: 'admin', name: 'Ada Admin' });
});
afterAll(async () => t.close());

const audits = (targetId: number) =>
  t.app.deps.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'member'), eq(auditLog.targetId, String(targetId))))
    .orderBy(auditLog.id);

describe('members list', () => {
  it('searches name, email and slug, filters, sorts and pages on the server', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const a = await t.createUser({ name: `Alpha ${tag}`, email: `alpha-${tag}@x.test` });
    const b = await t.createUser({ name: `Bravo ${tag}`, email: `bravo-${tag}@x.test`, entitlements: ['membership'] });
    const c = await t.createUser({ name: `Charlie ${tag}`, email: `c-${tag}@x.test`, role: 'admin' });
    const list = async (qs: string) => (await admin.client.get(`/api/admin/members?${qs}`)).json();

    const all = await list(`q=${tag}&sort=name&dir=asc`);
    expect(all.data.map((r: { id: number }) => r.id)).toEqual([a.id, b.id, c.id]);
    expect(all).toMatchObject({ total: 3, page: 1, sort: 'name', dir: 'asc' });
    expect((await list(`q=${tag}&sort=name&dir=desc`)).data[0].id).toBe(c.id);
    expect((await list(`q=bravo-${tag}`)).data.map((r: { id: number }) => r.id)).toEqual([b.id]);
    expect((await list(`q=charlie-${tag}`)).data.map((r: { id: number }) => r.id)).toEqual([c.id]); // the slug
    expect((await list(`q=${tag}&role=admin`)).data.map((r: { id: number }) => r.id)).toEqual([c.id]);
    const members = await list(`q=${tag}&entitlement=membership`);
    expect(members.data.map((r: { id: number }) => r.id)).toEqual([b.id]);
    expect(members.data[0].entitlements).toEqual(['membership']);
    const paged = await list(`q=${tag}&sort=email&dir=asc&per_page=2&page=2`);
    expect(paged).toMatchObject({ total: 3, pages: 2, page: 2 });
    expect(paged.data.map((r: { id: number }) => r.id)).toEqual([c.id]);
    expect((await list(`q=%25${tag}`)).total).toBe(0); // % is literal
  });

  it('refuses members and rejects a bad filter', async () => {
    const { client } = await t.signedIn({ entitlements: ['membership'] });
    expect((await client.get('/api/admin/members')).statusCode).toBe(403);
    const res = await admin.client.get('/api/admin/members?role=owner');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.role).toBeDefined();
  });

  it('shows a member with their history at a glance', async () => {
    const m = await t.signedIn({ name: 'Hist Ory' });
    await m.client.post('/contact/send', { body: 'Great', studentReview: '1' });
    const res = await admin.client.get(`/api/admin/members/${m.user.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.member).toMatchObject({ id: m.user.id, name: 'Hist Ory', role: 'member', suspended_at: null });
    expect(body.history.orders).toEqual({ count: 0, latest: null });
    expect(body.history.reports_against).toEqual({ count: 0, latest: null });

    // a wall comment they wrote, reported by someone else; a journal entry
    const other = await t.createUser();
    const [comment] = await t.app.deps.db
      .insert(wallComments)
      .values({ toId: other.id, userId: m.user.id, body: 'hey' })
      .returning();
    await t.app.deps.db
      .insert(reports)
      .values({ kind: 'wall', targetId: comment!.id, reporterId: other.id, reason: 'rude' });
    await t.app.deps.db.insert(journalEntries).values({ userId: m.user.id, exercises: [] });
    const after = (await admin.client.get(`/api/admin/members/${m.user.id}`)).json().history;
    expect(after.wall_comments.count).toBe(1);
    expect(after.journal_entries.count).toBe(1);
    expect(after.reports_against.count).toBe(1);
    expect(after.reports_against.latest).toMatch(/^\d{4}-/);
    expect(after.reports_made.count).toBe(0);
    expect((await admin.client.get(`/api/admin/members/${other.id}`)).json().history.reports_made.count).toBe(1);
    expect((await admin.client.get('/api/admin/members/999999')).statusCode).toBe(404);
  });
});

describe('entitlements', () => {
  it('grant opens a members-only lesson, revoke closes it; both audited with before/after', async () => {
    const [course] = await t.app.deps.db
      .insert(courses)
      .values({ slug: `paid-${Date.now()}`, title: 'Paid course', membersOnly: true })
      .returning();
    const [lesson] = await t.app.deps.db
      .insert(lessons)
      .values({ courseId: course!.id, slug: 'one', title: 'One', membersOnly: true })
      .returning();
    const m = await t.signedIn();
    const locked = async () => (await m.client.get(`/api/lessons/${lesson!.id}`)).json().data.locked as boolean;
    expect(await locked()).toBe(true);

    const bad = await admin.client.post(`/api/admin/members/${m.user.id}/entitlements`, {
      kind: 'gold',
      ends_at: '2001-01-01',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ kind: [MEMBER_TEXT.kindInvalid], ends_at: [MEMBER_TEXT.endsInvalid] });

    const granted = await admin.client.post(`/api/admin/members/${m.user.id}/entitlements`, { kind: 'membership' });
    expect(granted.statusCode).toBe(201);
    expect(await locked()).toBe(false);

    const revoked = await admin.client.post(
      `/api/admin/members/${m.user.id}/entitlements/${granted.json().data.id}/revoke`,
    );
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.active).toBe(false);
    expect(await locked()).toBe(true);
    expect(
      (await admin.client.post(`/api/admin/members/${m.user.id}/entitlements/${granted.json().data.id}/revoke`))
        .statusCode,
    ).toBe(409);

    const log = await audits(m.user.id);
    expect(log.map((e) => e.action)).toEqual(['member.entitlement.grant', 'member.entitlement.revoke']);
    expect(log[0]).toMatchObject({
      actorId: admin.user.id,
      before: { entitlements: [] },
      after: { entitlements: ['membership'] },
    });
    expect(log[1]).toMatchObject({ before: { entitlements: ['membership'] }, after: { entitlements: [] } });
  });

  it('a course entitlement with an end date', async () => {
    const m = await t.createUser();
    const future = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const res = await admin.client.post(`/api/admin/members/${m.id}/entitlements`, {
      kind: 'course:12',
      ends_at: future,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ kind: 'course:12', ends_at: `${future}T23:59:59.000Z`, active: true });
  });
});

describe('role and mentor flag', () => {
  it('changes the role and mentor flag, audited', async () => {
    const m = await t.signedIn();
    const res = await admin.client.post(`/api/admin/members/${m.user.id}/role`, { role: 'admin', is_mentor: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ role: 'admin', is_mentor: true });
    expect((await m.client.get('/api/admin/members')).statusCode).toBe(200); // the member side sees it at once
    const [entry] = await audits(m.user.id);
    expect(entry).toMatchObject({
      action: 'member.role',
      before: { role: 'member', is_mentor: false },
      after: { role: 'admin', is_mentor: true },
    });
  });

  it('an admin cannot remove their own admin role', async () => {
    const res = await admin.client.post(`/api/admin/members/${admin.user.id}/role`, { role: 'member' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ role: [MEMBER_TEXT.ownAdmin] });
    expect(
      (await admin.client.post(`/api/admin/members/${admin.user.id}/role`, { role: 'nobody' })).json().errors.role,
    ).toBeDefined();
  });
});

describe('suspension', () => {
  it('needs a reason', async () => {
    const m = await t.createUser();
    const res = await admin.client.post(`/api/admin/members/${m.id}/suspend`, { reason: '  ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ reason: [MEMBER_TEXT.reasonRequired] });
    expect(
      (await admin.client.post(`/api/admin/members/${admin.user.id}/suspend`, { reason: 'x' })).json().errors,
    ).toEqual({ reason: [MEMBER_TEXT.ownSuspend] });
  });

  it('signs the member out everywhere, disconnects their socket, refuses sign-in and posting; unsuspend lets them back', async () => {
    const m = await t.signedIn({ entitlements: ['membership'] });
    const socket = await t.socket(m.client);
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    expect((await m.client.get('/api/notifications')).statusCode).toBe(200);

    const res = await admin.client.post(`/api/admin/members/${m.user.id}/suspend`, { reason: 'Spamming the forum' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.suspended_at).not.toBeNull();
    await disconnected;
    expect((await m.client.get('/api/notifications')).statusCode).toBe(401);
    expect((await m.client.post('/profile-comments', { to_id: admin.user.id, body: 'hi' })).statusCode).toBe(401);

    const again = await t.client();
    const login = await again.post('/login', { email: m.user.email, password: m.user.password });
    expect(login.statusCode).toBe(422);
    expect(login.json().errors.email).toEqual(['This account has been suspended.']);
    expect((await admin.client.get(`/api/admin/members/${m.user.id}`)).json().member.suspended_reason).toBe(
      'Spamming the forum',
    );
    expect(
      (await admin.client.get('/api/admin/members?suspended=yes')).json().data.map((r: { id: number }) => r.id),
    ).toContain(m.user.id);

    expect((await admin.client.post(`/api/admin/members/${m.user.id}/unsuspend`)).statusCode).toBe(200);
    expect((await again.post('/login', { email: m.user.email, password: m.user.password })).statusCode).toBe(200);

    const log = await audits(m.user.id);
    expect(log.map((e) => e.action)).toEqual(['member.suspend', 'member.unsuspend']);
    expect(log[0]).toMatchObject({ before: { suspended_at: null }, after: { suspended_reason: 'Spamming the forum' } });
    expect(log[1]).toMatchObject({
      before: { suspended_reason: 'Spamming the forum' },
      after: { suspended_at: null, suspended_reason: null },
    });
  });
});

describe('notifications and mentors', () => {
  it('sending a notification is audited', async () => {
    const m = await t.createUser();
    expect(
      (await admin.client.post('/api/admin/notifications', { user_id: m.id, body: 'Welcome aboard' })).statusCode,
    ).toBe(201);
    const [entry] = await audits(m.id);
    expect(entry).toMatchObject({ action: 'notification.send', after: { body: 'Welcome aboard' } });
  });

  it('lists mentors with students and the students without a mentor; assigning is audited', async () => {
    const s = await t.createUser({ name: 'Stu Dent', entitlements: ['mentorship'] });
    let overview = (await admin.client.get('/api/admin/mentors')).json();
    expect(overview.unassigned.map((r: { id: number }) => r.id)).toContain(s.id);
    const assign = await admin.client.post(`/api/mentorship/students/${s.id}/mentor`, { mentor_id: admin.user.id });
    expect(assign.statusCode).toBe(200);
    overview = (await admin.client.get('/api/admin/mentors')).json();
    expect(overview.unassigned.map((r: { id: number }) => r.id)).not.toContain(s.id);
    expect(
      overview.mentors.find((m: { id: number }) => m.id === admin.user.id).students.map((r: { id: number }) => r.id),
    ).toContain(s.id);
    const [row] = await t.app.deps.db.select().from(mentorships).where(eq(mentorships.studentId, s.id));
    expect(row?.mentorId).toBe(admin.user.id);
    const [entry] = await audits(s.id);
    expect(entry).toMatchObject({
      action: 'mentorship.assign',
      before: { mentor: null },
      after: { mentor: { id: admin.user.id, name: 'Ada Admin' } },
    });
  });
});

describe('leads and reviews', () => {
  it('leads: search, sort, paging; the CSV is the same search, spreadsheet-safe', async () => {
    const base = {
      skill: 'Beginner',
      pedal: 'Single Pedal',
      tempo: 100,
      scores: { technique: 1, control: 2, coordination: 0, independence: 0 },
      primaryKiller: 'control',
      answers: [],
      answersText: 'Q? A',
    };
    await t.app.deps.db.insert(diagnosticLeads).values([
      { ...base, name: 'Zed Lead', email: 'zed@lead.test' },
      { ...base, name: '=cmd()', email: 'evil@lead.test', answersText: '@SUM(1)' },
      { ...base, name: 'Amy Lead', email: 'amy@lead.test' },
    ]);
    const res = (await admin.client.get('/api/admin/diagnostic-leads?q=lead.test&sort=name&dir=asc&per_page=2')).json();
    expect(res).toMatchObject({ total: 3, pages: 2, sort: 'name', dir: 'asc' });
    expect(res.data.map((r: { name: string }) => r.name)).toEqual(['=cmd()', 'Amy Lead']);
    const csv = await admin.client.get('/api/admin/diagnostic-leads.csv?q=lead.test&sort=name&dir=desc');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'created_at,name,email,skill,pedal,tempo,technique,control,coordination,independence,primary,answers',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('Zed Lead');
    expect(csv.body).toContain("'=cmd()");
    expect(csv.body).toContain("'@SUM(1)");
  });

  it('reviews: search, sort, paging and CSV', async () => {
    const m = await t.createUser({ name: 'Rita Review' });
    await t.app.deps.db.insert(contactMessages).values([
      { userId: m.id, kind: 'review', subject: 'Student review', body: '+1 brilliant, "really"' },
      { userId: m.id, kind: 'review', subject: 'Student review', body: 'Solid lessons' },
      { userId: m.id, kind: 'contact', subject: 'Hi', body: 'not a review' },
    ]);
    const res = (await admin.client.get('/api/admin/reviews?q=Rita&sort=created_at&dir=asc&per_page=1')).json();
    expect(res).toMatchObject({ total: 2, pages: 2 });
    expect(res.data[0]).toMatchObject({ name: 'Rita Review', subject: 'Student review' });
    const csv = await admin.client.get('/api/admin/reviews.csv?q=rita');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('created_at,name,email,subject,body');
    expect(lines).toHaveLength(3);
    expect(csv.body).toContain(`"'+1 brilliant, ""really"""`);
    expect(csv.body).not.toContain('not a review');
    const member = await t.signedIn();
    expect((await member.client.get('/api/admin/reviews.csv')).statusCode).toBe(403);
  });
});
