import { and, eq } from 'drizzle-orm';
import { MEMBER_TEXT } from '#shared/admin-members';
import type { Database } from '#server/db/client';
import { entitlements } from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import { recordAudit, type Actor } from '#server/modules/admin/index';
import type { UserService } from '#server/modules/users/index';
import { entitlementRow, memberOr404 } from './member-facts.ts';

/** An admin grants a member an entitlement or revokes one; both are audited with the member's before and after. */
export function createMemberEntitlements(deps: { db: Database; users: UserService }) {
  const { db } = deps;

  return {
    async grant(actor: Actor, id: number, input: { kind: string; ends_at?: string | undefined }) {
      const u = await memberOr404(deps.users, id);
      const endsAt = input.ends_at ? new Date(`${input.ends_at}T23:59:59Z`) : null;
      return db.transaction(async (tx) => {
        const before = await deps.users.activeEntitlements(id, tx);
        const [ent] = await tx
          .insert(entitlements)
          .values({ userId: id, kind: input.kind, source: 'admin', endsAt })
          .returning();
        const after = await deps.users.activeEntitlements(id, tx);
        await recordAudit(tx, actor, {
          action: 'member.entitlement.grant',
          targetType: 'member',
          targetId: id,
          summary: `Granted ${input.kind} to ${u.name}${endsAt ? ` until ${input.ends_at}` : ''}`,
          before: { entitlements: before },
          after: { entitlements: after, granted: entitlementRow(ent!) },
        });
        return { data: entitlementRow(ent!) };
      });
    },

    async revoke(actor: Actor, id: number, entitlementId: number) {
      const u = await memberOr404(deps.users, id);
      return db.transaction(async (tx) => {
        const [ent] = await tx
          .select()
          .from(entitlements)
          .where(and(eq(entitlements.id, entitlementId), eq(entitlements.userId, id)))
          .limit(1);
        if (!ent) throw notFound('That entitlement does not exist.');
        if (ent.revokedAt) throw new AppError('conflict', MEMBER_TEXT.alreadyRevoked);
        const before = await deps.users.activeEntitlements(id, tx);
        const [updated] = await tx
          .update(entitlements)
          .set({ revokedAt: new Date() })
          .where(eq(entitlements.id, ent.id))
          .returning();
        const after = await deps.users.activeEntitlements(id, tx);
        await recordAudit(tx, actor, {
          action: 'member.entitlement.revoke',
          targetType: 'member',
          targetId: id,
          summary: `Revoked ${ent.kind} from ${u.name}`,
          before: { entitlements: before, entitlement: entitlementRow(ent) },
          after: { entitlements: after, entitlement: entitlementRow(updated!) },
        });
        return { data: entitlementRow(updated!) };
      });
    },
  };
}
