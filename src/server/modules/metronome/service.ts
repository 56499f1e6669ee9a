import { and, asc, count, desc, eq } from 'drizzle-orm';
import {
  PLAYLIST,
  type playlistCreateSchema,
  type playlistUpdateSchema,
  settingsPart,
  START_UP,
  type PlaylistEntry,
} from '#shared/metronome';
import type { z } from '#shared/zod';
import type { Database } from '#server/db/client';
import { metronomeLists, metronomeSettings } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';

const entry = (row: typeof metronomeSettings.$inferSelect): PlaylistEntry => ({
  ...row.settings,
  id: row.id,
  name: row.name,
  fav: row.fav,
});

const mine = (userId: number, id: number) => and(eq(metronomeSettings.id, id), eq(metronomeSettings.userId, userId));

/**
 * A member's saved metronome settings (docs/product/metronome.md): each member sees and
 * changes only their own entries.
 */
export function createMetronomeService({ db }: { db: Database }) {
  return {
    /** the member's list, favourites first; the first read of an empty list starts it with the default entry, once */
    async list(userId: number): Promise<PlaylistEntry[]> {
      // every later read only reads
      const [started] = await db
        .select({ userId: metronomeLists.userId })
        .from(metronomeLists)
        .where(eq(metronomeLists.userId, userId))
        .limit(1);
      if (!started)
        await db.transaction(async (tx) => {
          const started = await tx
            .insert(metronomeLists)
            .values({ userId })
            .onConflictDoNothing()
            .returning({ userId: metronomeLists.userId });
          if (!started.length) return;
          const [{ n }] = (await tx
            .select({ n: count() })
            .from(metronomeSettings)
            .where(eq(metronomeSettings.userId, userId))) as [{ n: number }];
          if (Number(n) === 0)
            await tx
              .insert(metronomeSettings)
              .values({ userId, name: START_UP.name, fav: START_UP.fav, settings: settingsPart(START_UP) });
        });
      const rows = await db
        .select()
        .from(metronomeSettings)
        .where(eq(metronomeSettings.userId, userId))
        .orderBy(desc(metronomeSettings.fav), asc(metronomeSettings.name), asc(metronomeSettings.id));
      return rows.map(entry);
    },

    /** a new entry, refused once the member keeps the most a list may hold */
    async create(userId: number, input: z.infer<typeof playlistCreateSchema>): Promise<PlaylistEntry> {
      const row = await db.transaction(async (tx) => {
        const [{ n }] = (await tx
          .select({ n: count() })
          .from(metronomeSettings)
          .where(eq(metronomeSettings.userId, userId))) as [{ n: number }];
        if (n >= PLAYLIST.maxEntries)
          throw new ValidationError({
            name: [`You can keep at most ${PLAYLIST.maxEntries} saved settings. Delete one first.`],
          });
        const [created] = await tx
          .insert(metronomeSettings)
          .values({ userId, name: input.name, fav: input.fav, settings: input.settings })
          .returning();
        return created!;
      });
      return entry(row);
    },

    /** changes the given parts of one of the member's entries; another member's entry is not found */
    async update(userId: number, id: number, input: z.infer<typeof playlistUpdateSchema>): Promise<PlaylistEntry> {
      const { name, fav, settings } = input;
      const [row] = await db
        .update(metronomeSettings)
        .set({
          ...(name !== undefined ? { name } : {}),
          ...(fav !== undefined ? { fav } : {}),
          ...(settings ? { settings } : {}),
          updatedAt: new Date(),
        })
        .where(mine(userId, id))
        .returning();
      if (!row) throw notFound();
      return entry(row);
    },

    /** deletes one of the member's entries; another member's entry is not found */
    async remove(userId: number, id: number): Promise<void> {
      const deleted = await db
        .delete(metronomeSettings)
        .where(mine(userId, id))
        .returning({ id: metronomeSettings.id });
      if (!deleted.length) throw notFound();
    },
  };
}

export type MetronomeService = ReturnType<typeof createMetronomeService>;
