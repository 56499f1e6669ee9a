import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER } from './client.ts';
import { forumCategories, forumTopics } from './schema/index.ts';
import { databaseForThisFile } from '#test/api-harness';

// A category's topic counts are kept by the database (migration 0023's triggers) whoever writes
// forum_topics: here plain SQL, in bulk, as an import or psql would.
const handle = databaseForThisFile();

/** every category's kept counts, and the same counted from its topics */
async function keptAndCounted() {
  const { db } = handle;
  const kept = await db
    .select({ id: forumCategories.id, all: forumCategories.topicsCount, visible: forumCategories.visibleTopicsCount })
    .from(forumCategories)
    .orderBy(asc(forumCategories.id));
  const ofCategory = sql`${forumTopics.categoryId} = ${forumCategories.id}`;
  const counted = await db
    .select({
      id: forumCategories.id,
      all: sql<number>`(select count(*)::int from ${forumTopics} where ${ofCategory})`,
      visible: sql<number>`(select count(*)::int from ${forumTopics} where ${ofCategory} and ${forumTopics.hiddenAt} is null)`,
    })
    .from(forumCategories)
    .orderBy(asc(forumCategories.id));
  return { kept, counted };
}

async function expectExact() {
  const { kept, counted } = await keptAndCounted();
  expect(kept).toEqual(counted);
  return kept;
}

it('keeps every category’s counts exact through bulk inserts, moves, hiding, deletes and truncation', async () => {
  const { db } = handle;
  const cats = await db
    .insert(forumCategories)
    .values(['a', 'b', 'c'].map((slug) => ({ slug, title: slug.toUpperCase() })))
    .returning();
  const [a, b, c] = cats.map((x) => x.id) as [number, number, number];
  // 3,000 topics in one statement, spread over the three, every fifth hidden
  await db.execute(sql`
    insert into forum_topics (category_id, title, hidden_at)
    select (array[${a}::int, ${b}::int, ${c}::int])[1 + i % 3], 'Topic ' || i, case when i % 5 = 0 then now() end
    from generate_series(1, 3000) as i`);
  expect(await expectExact()).toEqual([
    { id: a, all: 1000, visible: 800 },
    { id: b, all: 1000, visible: 800 },
    { id: c, all: 1000, visible: 800 },
  ]);

  // a bulk move, one that stays in its category, hiding and showing again, and an update that changes neither
  await db.execute(sql`update forum_topics set category_id = ${b} where category_id = ${a} and id % 2 = 0`);
  await db.execute(sql`update forum_topics set category_id = ${c} where category_id = ${c} and id % 7 = 0`);
  await db.execute(sql`update forum_topics set hidden_at = now() where category_id = ${b} and id % 3 = 0`);
  await db.execute(sql`update forum_topics set hidden_at = null where category_id = ${c} and id % 4 = 0`);
  await db.execute(sql`update forum_topics set hidden_at = now() where hidden_at is not null and id % 11 = 0`);
  await db.update(forumTopics).set({ title: 'Renamed', pinned: true }).where(eq(forumTopics.categoryId, a));
  await expectExact();

  await db.execute(sql`delete from forum_topics where category_id = ${b} and id % 3 <> 0`);
  await db.delete(forumCategories).where(eq(forumCategories.id, c));
  const left = await expectExact();
  expect(left.map((x) => x.id)).toEqual([a, b]);

  await db.execute(sql`truncate forum_topics cascade`);
  expect(await expectExact()).toEqual([
    { id: a, all: 0, visible: 0 },
    { id: b, all: 0, visible: 0 },
  ]);
});

it('counts the topics written before the counts existed', async () => {
  const { db } = handle;
  const [d] = await db.insert(forumCategories).values({ slug: 'd', title: 'D' }).returning();
  await db.execute(sql`
    insert into forum_topics (category_id, title, hidden_at)
    select ${d!.id}, 'Old ' || i, case when i <= 4 then now() end from generate_series(1, 10) as i`);
  // as before the migration: topics, and categories with no counts
  await db.update(forumCategories).set({ topicsCount: 0, visibleTopicsCount: 0 });
  const migration = readFileSync(path.join(MIGRATIONS_FOLDER, '0023_forum_category_topic_counts.sql'), 'utf8');
  const backfill = migration.split('--> statement-breakpoint').at(-1)!;
  expect(backfill).toMatch(/^\s*UPDATE "forum_categories"/);
  await db.execute(sql.raw(backfill));
  const kept = await expectExact();
  expect(kept.find((x) => x.id === d!.id)).toEqual({ id: d!.id, all: 10, visible: 6 });
});
