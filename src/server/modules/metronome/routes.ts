import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { z } from '#shared/zod';
import { idSchema } from '#shared/http';
import {
  PLAYLIST,
  playlistCreateSchema,
  playlistUpdateSchema,
  settingsPart,
  START_UP,
  type PlaylistEntry,
} from '#shared/metronome';
import { metronomeLists, metronomeSettings } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import { requireUser } from '#server/lib/guards';

const entry = (row: typeof metronomeSettings.$inferSelect): PlaylistEntry => ({
  ...row.settings,
  id: row.id,
  name: row.name,
  fav: row.fav,
});

/**
 * A member's saved metronome settings at `/api/metronome_settings/` (docs/product/metronome.md).
 * Each member sees and changes only their own entries; visitors keep theirs in the
 * browser.
 */
export const metronomeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const params = z.object({ id: idSchema });
  const mine = (userId: number, id: number) => and(eq(metronomeSettings.id, id), eq(metronomeSettings.userId, userId));

  app.get('/api/metronome_settings', { config: { access: 'member' } }, async (request) => {
    const user = requireUser(request);
    // the first read of a member's list: an empty one starts with the default entry (docs/product/metronome.md), once;
    // every later read only reads
    const [started] = await db
      .select({ userId: metronomeLists.userId })
      .from(metronomeLists)
      .where(eq(metronomeLists.userId, user.id))
      .limit(1);
    if (!started)
      await db.transaction(async (tx) => {
        const started = await tx
          .insert(metronomeLists)
          .values({ userId: user.id })
          .onConflictDoNothing()
          .returning({ userId: metronomeLists.userId });
        if (!started.length) return;
        const [{ n }] = (await tx
          .select({ n: count() })
          .from(metronomeSettings)
          .where(eq(metronomeSettings.userId, user.id))) as [{ n: number }];
        if (Number(n) === 0)
          await tx
            .insert(metronomeSettings)
            .values({ userId: user.id, name: START_UP.name, fav: START_UP.fav, settings: settingsPart(START_UP) });
      });
    const rows = await db
      .select()
      .from(metronomeSettings)
      .where(eq(metronomeSettings.userId, user.id))
      .orderBy(desc(metronomeSettings.fav), asc(metronomeSettings.name), asc(metronomeSettings.id));
    return { data: rows.map(entry) };
  });

  app.post(
    '/api/metronome_settings',
    { config: { access: 'member' }, schema: { body: playlistCreateSchema } },
    async (request, reply) => {
      const user = requireUser(request);
      const row = await db.transaction(async (tx) => {
        const [{ n }] = (await tx
          .select({ n: count() })
          .from(metronomeSettings)
          .where(eq(metronomeSettings.userId, user.id))) as [{ n: number }];
        if (n >= PLAYLIST.maxEntries)
          throw new ValidationError({
            name: [`You can keep at most ${PLAYLIST.maxEntries} saved settings. Delete one first.`],
          });
        const [created] = await tx
          .insert(metronomeSettings)
          .values({ userId: user.id, name: request.body.name, fav: request.body.fav, settings: request.body.settings })
          .returning();
        return created!;
      });
      return reply.status(201).send({ data: entry(row) });
    },
  );

  app.patch(
    '/api/metronome_settings/:id',
    { config: { access: 'member' }, schema: { params, body: playlistUpdateSchema } },
    async (request) => {
      const user = requireUser(request);
      const { name, fav, settings } = request.body;
      const [row] = await db
        .update(metronomeSettings)
        .set({
          ...(name !== undefined ? { name } : {}),
          ...(fav !== undefined ? { fav } : {}),
          ...(settings ? { settings } : {}),
          updatedAt: new Date(),
        })
        .where(mine(user.id, request.params.id))
        .returning();
      if (!row) throw notFound();
      return { data: entry(row) };
    },
  );

  app.delete('/api/metronome_settings/:id', { config: { access: 'member' }, schema: { params } }, async (request) => {
    const user = requireUser(request);
    const deleted = await db
      .delete(metronomeSettings)
      .where(mine(user.id, request.params.id))
      .returning({ id: metronomeSettings.id });
    if (!deleted.length) throw notFound();
    return { deleted: true };
  });
};
