import { and, eq, isNull, lt } from 'drizzle-orm';
import { retentionUses } from '#server/db/schema/index';
import { AppError } from '#server/lib/errors';
import { HOLD_MINUTES, type SubscriptionRow } from '#server/modules/payments/index';
import type { BillingContext } from './shared.ts';

export type OnceKind = (typeof retentionUses.$inferSelect)['kind'];

/** The offers a subscription may take once, ever (pause, discount): who took each, and when it was done. */
export function createOnce(ctx: BillingContext) {
  const { db } = ctx;

  const useOf = async (subId: number, kind: OnceKind) =>
    (
      await db
        .select()
        .from(retentionUses)
        .where(and(eq(retentionUses.subscriptionId, subId), eq(retentionUses.kind, kind)))
        .limit(1)
    )[0] ?? null;

  /**
   * Take the subscription's one use of an offer (pause, discount) before the provider is asked:
   * `first` (this request uses it), `again` (this same request, by its client key, already did:
   * answer as it did) or `used`. The primary key (subscription, offer) lets one request through
   * whichever process it reaches. A use whose request never finished frees itself after
   * HOLD_MINUTES (the process stopped while the provider was being asked).
   */
  async function useOnce(
    sub: SubscriptionRow,
    kind: OnceKind,
    clientKey: string | null,
  ): Promise<'first' | 'again' | 'used'> {
    for (let i = 0; i < 60; i++) {
      await db
        .delete(retentionUses)
        .where(
          and(
            eq(retentionUses.subscriptionId, sub.id),
            eq(retentionUses.kind, kind),
            isNull(retentionUses.doneAt),
            lt(retentionUses.createdAt, new Date(Date.now() - HOLD_MINUTES * 60_000)),
          ),
        );
      const [mine] = await db
        .insert(retentionUses)
        .values({ subscriptionId: sub.id, kind, userId: sub.userId, clientKey })
        .onConflictDoNothing()
        .returning();
      if (mine) return 'first';
      const use = await useOf(sub.id, kind);
      if (!use) continue; // its request failed at the provider just now: free again
      if (!clientKey || use.clientKey !== clientKey) return 'used';
      if (use.doneAt) return 'again';
      // the same request (a retry) is still at the provider on another process: its outcome decides
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new AppError('conflict', 'Your request is still being processed. Please wait a moment and refresh.');
  }
  /** a use already taken, when the offer cannot be taken now (the subscription is not live) */
  async function pastUse(
    sub: SubscriptionRow,
    kind: OnceKind,
    clientKey: string | null,
  ): Promise<'again' | 'used' | null> {
    const use = await useOf(sub.id, kind);
    if (!use) return null;
    return clientKey && use.clientKey === clientKey && use.doneAt ? 'again' : 'used';
  }
  const useDone = (sub: SubscriptionRow, kind: OnceKind) =>
    db
      .update(retentionUses)
      .set({ doneAt: new Date() })
      .where(and(eq(retentionUses.subscriptionId, sub.id), eq(retentionUses.kind, kind)));
  /** the provider refused: the offer was not used after all */
  const useReleased = (sub: SubscriptionRow, kind: OnceKind) =>
    db
      .delete(retentionUses)
      .where(and(eq(retentionUses.subscriptionId, sub.id), eq(retentionUses.kind, kind), isNull(retentionUses.doneAt)));

  /** `fn` with the offer's one use taken; released again when `fn` fails */
  async function usingOnce<T>(sub: SubscriptionRow, kind: OnceKind, fn: () => Promise<T>): Promise<T> {
    try {
      const result = await fn();
      await useDone(sub, kind);
      return result;
    } catch (err) {
      await useReleased(sub, kind).catch(() => undefined);
      throw err;
    }
  }

  return { useOf, useOnce, pastUse, usingOnce };
}
export type Once = ReturnType<typeof createOnce>;
