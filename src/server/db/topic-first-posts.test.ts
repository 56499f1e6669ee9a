import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER } from './client.ts';
import { forumCategories, forumTopics, posts, users } from './schema/index.ts';
import { databaseForThisFile } from '#test/api-harness';

// Migration 0009 turns topics written before first_post_id existed (replies filed under the body
// post) into the current shape: the body post is the topic's first post, replies are top level.
const handle = databaseForThisFile();

it('moves replies filed under a topic body to the top level, replies to them under them, and recounts comments', async () => {
  const { db } = handle;
  const [user] = await db
    .insert(users)
    .values({ name: 'Old Timer', email: 'old@test.test', passwordHash: 'x', slug: 'old-timer' })
    .returning();
  const [cat] = await db.insert(forumCategories).values({ slug: 'old', title: 'Old' }).returning();
  const [topic] = await db
    .insert(forumTopics)
    .values({ categoryId: cat!.id, userId: user!.id, title: 'Legacy' })
    .returning();
  const base = { type: 'forumtopic', resourceId: topic!.id, userId: user!.id };
  const [body] = await db
    .insert(posts)
    .values({ ...base, body: 'the body' })
    .returning();
  const [reply] = await db
    .insert(posts)
    .values({ ...base, parentId: body!.id, replyingToId: body!.id, body: 'a reply' })
    .returning();
  await db.insert(posts).values({ ...base, parentId: body!.id, replyingToId: reply!.id, body: 'a reply to the reply' });
  await db
    .insert(posts)
    .values({ ...base, parentId: body!.id, replyingToId: body!.id, body: 'trashed', trashedAt: new Date() });

  const migration = readFileSync(path.join(MIGRATIONS_FOLDER, '0009_topic_first_posts.sql'), 'utf8');
  for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

  const [after] = await db.select().from(forumTopics).where(eq(forumTopics.id, topic!.id));
  expect(after!.firstPostId).toBe(body!.id);
  expect(after!.commentsCount).toBe(2);
  const rows = await db
    .select({ body: posts.body, parentId: posts.parentId, replyingToId: posts.replyingToId })
    .from(posts)
    .where(eq(posts.resourceId, topic!.id))
    .orderBy(asc(posts.id));
  expect(rows).toEqual([
    { body: 'the body', parentId: null, replyingToId: null },
    { body: 'a reply', parentId: null, replyingToId: null },
    { body: 'a reply to the reply', parentId: reply!.id, replyingToId: reply!.id },
    { body: 'trashed', parentId: null, replyingToId: null },
  ]);
});
