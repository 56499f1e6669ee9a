import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { songLength, SONG, type Song, type SongSummary, type SongTemplate } from '#shared/songmapper';
import type { Database } from '#server/db/client';
import { songs, songTemplates } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';

/** 128 random bits as base64url: 22 characters, never guessable, never sequential. */
export const newSongId = () => randomBytes(16).toString('base64url');

const summary = (row: typeof songs.$inferSelect): SongSummary => ({
  id: row.id,
  title: row.title,
  bpm: row.song.bpm,
  sections: row.song.sections.length,
  measures: songLength(row.song).measures,
  updated_at: row.updatedAt.toISOString(),
});

/**
 * The song mapper (docs/product/song-mapper.md). Songs are private to their owner: every read and write is scoped by
 * the owner's id, and another member's id answers "not found" (the id itself is the only secret
 * the share link carries).
 */
export function createSongService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async list(userId: number): Promise<SongSummary[]> {
      const rows = await db
        .select()
        .from(songs)
        .where(eq(songs.userId, userId))
        .orderBy(desc(songs.updatedAt))
        .limit(500);
      return rows.map(summary);
    },
    async get(userId: number, id: string) {
      const [row] = await db
        .select()
        .from(songs)
        .where(and(eq(songs.id, id), eq(songs.userId, userId)));
      if (!row) throw notFound();
      return { id: row.id, song: row.song, updated_at: row.updatedAt.toISOString() };
    },
    /** the share link: anyone holding the id */
    async shared(id: string) {
      const [row] = await db.select().from(songs).where(eq(songs.id, id));
      if (!row) throw notFound();
      return row;
    },
    /** first save (no id) creates the song and answers its id; later saves update the owner's song */
    async save(userId: number, id: string | null | undefined, song: Song): Promise<{ id: string }> {
      const title = song.title.trim();
      if (id) {
        const updated = await db
          .update(songs)
          .set({ song, title, updatedAt: new Date() })
          .where(and(eq(songs.id, id), eq(songs.userId, userId)))
          .returning({ id: songs.id });
        if (!updated.length) throw notFound();
        return { id };
      }
      const [row] = await db.insert(songs).values({ id: newSongId(), userId, title, song }).returning({ id: songs.id });
      return { id: row!.id };
    },
    async remove(userId: number, id: string) {
      const deleted = await db
        .delete(songs)
        .where(and(eq(songs.id, id), eq(songs.userId, userId)))
        .returning({ id: songs.id });
      if (!deleted.length) throw notFound();
    },
    async templates(userId: number): Promise<SongTemplate[]> {
      const rows = await db
        .select()
        .from(songTemplates)
        .where(eq(songTemplates.userId, userId))
        .orderBy(asc(songTemplates.title));
      return rows.map((r) => ({ id: r.id, title: r.title, song: r.song }));
    },
    /** saving under a title the member already used replaces that template */
    async saveTemplate(userId: number, title: string, song: Song): Promise<SongTemplate[]> {
      await db.transaction(async (tx) => {
        const [existing] = await tx
          .select({ id: songTemplates.id })
          .from(songTemplates)
          .where(and(eq(songTemplates.userId, userId), eq(songTemplates.title, title)));
        if (!existing) {
          const [{ n }] = (await tx
            .select({ n: count() })
            .from(songTemplates)
            .where(eq(songTemplates.userId, userId))) as [{ n: number }];
          if (n >= SONG.maxTemplates)
            throw new ValidationError({
              title: [`You can keep at most ${SONG.maxTemplates} templates. Delete one first.`],
            });
        }
        // one write for both cases; the unique (user, title) index settles a race between two saves
        await tx
          .insert(songTemplates)
          .values({ userId, title, song })
          .onConflictDoUpdate({ target: [songTemplates.userId, songTemplates.title], set: { song } });
      });
      return this.templates(userId);
    },
    async removeTemplate(userId: number, id: number): Promise<SongTemplate[]> {
      const deleted = await db
        .delete(songTemplates)
        .where(and(eq(songTemplates.id, id), eq(songTemplates.userId, userId)))
        .returning({ id: songTemplates.id });
      if (!deleted.length) throw notFound();
      return this.templates(userId);
    },
  };
}
export type SongService = ReturnType<typeof createSongService>;
