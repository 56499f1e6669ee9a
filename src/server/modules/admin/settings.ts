import { eq } from 'drizzle-orm';
import type { z } from '#shared/zod';
import type { Database, Executor } from '#server/db/client';
import { siteSettings } from '#server/db/schema/index';
import { recordAudit, type Actor } from './audit.ts';

/**
 * Settings the site owner edits in the console (site_settings). Each key is read through its shared
 * schema; a missing or no-longer-valid value falls back to the default (the shared constants), so
 * the member side always has a usable value. Read on each use: one primary-key lookup, and every
 * app process sees a change at once.
 */
export function createSettingsService({ db }: { db: Database }) {
  return {
    async get<S extends z.ZodType>(
      key: string,
      schema: S,
      fallback: z.infer<S>,
      executor: Executor = db,
    ): Promise<z.infer<S>> {
      const [row] = await executor
        .select({ value: siteSettings.value })
        .from(siteSettings)
        .where(eq(siteSettings.key, key))
        .limit(1);
      if (!row) return fallback;
      const parsed = schema.safeParse(row.value);
      return parsed.success ? parsed.data : fallback;
    },
    /** Saves a value (already validated by the route) and records the change, in one transaction. */
    async set<S extends z.ZodType>(
      actor: Actor,
      key: string,
      schema: S,
      fallback: z.infer<S>,
      value: z.infer<S>,
    ): Promise<z.infer<S>> {
      return db.transaction(async (tx) => {
        const before = await this.get(key, schema, fallback, tx);
        await tx
          .insert(siteSettings)
          .values({ key, value: value as unknown, updatedById: actor.user.id, updatedAt: new Date() })
          .onConflictDoUpdate({
            target: siteSettings.key,
            set: { value: value as unknown, updatedById: actor.user.id, updatedAt: new Date() },
          });
        await recordAudit(tx, actor, {
          action: 'setting.update',
          targetType: 'setting',
          targetId: key,
          summary: key,
          before,
          after: value,
        });
        return value;
      });
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
