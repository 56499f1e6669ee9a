import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '#shared/constants';
import { FORUM_MESSAGES } from '#shared/forums';
import { DEFAULT_TEMPLATE } from '#shared/songmapper';
import { courses, forumCategories, forumTopics, users } from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';

// A name or a title is stored without the characters that let it pretend (bidi controls, invisible
// characters), through the real routes, whatever the client sent.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.deps.db
    .insert(forumCategories)
    .values({ slug: 'general', title: 'General', description: 'Say hello', position: 0 });
});
afterAll(async () => t?.close());

async function register(name: string) {
  const c = await t.client();
  const email = `names-${Math.random().toString(16).slice(2)}@test.test`;
  const res = await c.post('/register', { name, email, email_confirmation: email, password: 'password123' });
  return { c, res, email };
}

describe('member names', () => {
  it.each([
    ['a right-to-left override', '\u202Eevil', 'evil'],
    ['an override in the middle and a pop', 'Ann\u202Enimda\u202C', 'Annnimda'],
    ['zero-width characters', '\u200BAl\u200Dice\uFEFF', 'Alice'],
    ['isolates and marks', '\u2067Bob\u2069\u200F', 'Bob'],
    ['a newline', 'Alice\nStaff', 'Alice Staff'],
  ])('registering with %s stores the cleaned name', async (_label, name, stored) => {
    const { c, res, email } = await register(name);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe(stored);
    const [row] = await t.app.deps.db.select({ name: users.name }).from(users).where(eq(users.email, email));
    expect(row!.name).toBe(stored);
    expect((await c.get('/api/me')).json().user.name).toBe(stored);
  });

  it('keeps what changes how a name looks: emoji sequences, a Persian non-joiner', async () => {
    for (const name of ['Zoë 👨\u200D👩\u200D👧', 'می\u200Cخواهم']) {
      const { res } = await register(name);
      expect(res.json().name).toBe(name);
    }
  });

  it("a name of invisible characters only is refused with the field's required sentence", async () => {
    for (const name of ['\u202E', '\u200B\u200D\u2060', ' \u2066 \u2069 ']) {
      const { res } = await register(name);
      expect(res.statusCode, JSON.stringify(name)).toBe(422);
      expect(res.json().errors.name).toEqual([FIELD_MESSAGES.nameRequired]);
    }
  });
});

describe('titles', () => {
  it('a forum topic title is stored cleaned; one that cleans to nothing is refused', async () => {
    const { client } = await t.signedIn({ entitlements: ['membership'] });
    const res = await client.post('/api/forums/general/topics', {
      title: '\u202EBest grooves\u202C\u200B',
      body: 'Share yours',
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.app.deps.db
      .select({ title: forumTopics.title })
      .from(forumTopics)
      .where(eq(forumTopics.id, res.json().topic.id));
    expect(row!.title).toBe('Best grooves');
    const empty = await client.post('/api/forums/general/topics', { title: '\u2066\u200B\u2069', body: 'x' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.title).toEqual([FORUM_MESSAGES.titleRequired]);
  });

  it('a song title is stored cleaned', async () => {
    const { client } = await t.signedIn();
    const { id } = (
      await client.post('/songmapper', {
        song: { ...DEFAULT_TEMPLATE, title: 'Back\u200B in \u202EBlack', bpm: '94' },
        id: null,
      })
    ).json();
    expect((await client.get(`/api/songmapper/${id}`)).json().data.song.title).toBe('Back in Black');
  });

  it("an admin's course title is stored cleaned", async () => {
    const { client: admin } = await t.signedIn({ role: 'admin' });
    const res = await admin.post('/api/admin/courses', {
      title: '\u202DOdd\u200B Meters',
      slug: 'odd-meters',
      description: '',
      members_only: true,
      area: 'main',
      is_welcome: false,
      position: 0,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.app.deps.db
      .select({ title: courses.title })
      .from(courses)
      .where(eq(courses.id, res.json().data.id));
    expect(row!.title).toBe('Odd Meters');
  });
});
