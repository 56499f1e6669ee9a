import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { users } from '#server/db/schema/index';

/** What a member sets about themselves from the dashboard: their status line and their timezone. */
export function createProfile(deps: { db: Database }) {
  const { db } = deps;

  return {
    /** An empty status clears it; answers the moment it was set. */
    async setStatus(userId: number, status: string): Promise<Date> {
      const now = new Date();
      await db
        .update(users)
        .set({ status: status || null, statusUpdatedAt: now, updatedAt: now })
        .where(eq(users.id, userId));
      return now;
    },

    async setTimezone(userId: number, timezone: string): Promise<void> {
      await db.update(users).set({ timezone }).where(eq(users.id, userId));
    },
  };
}
