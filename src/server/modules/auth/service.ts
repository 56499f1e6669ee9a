import { and, eq, gt, isNull } from 'drizzle-orm';
import { hash, verify } from '@node-rs/argon2';
import { FIELD_MESSAGES, LIMITS, MESSAGES } from '#shared/constants';
import type { Database } from '#server/db/client';
import { passwordResets, users } from '#server/db/schema/index';
import { AppError, ValidationError } from '#server/lib/errors';
import { randomToken, sha256 } from '#server/lib/crypto';
import type { Mailer } from '#server/lib/mailer';
import type { SessionStore } from '#server/lib/session-store';
import type { UserRow, UserService } from '#server/modules/users/service';
import { isUniqueViolation } from '#server/lib/db-errors';

// algorithm 2 = Argon2id (a const enum in the typings)
const ARGON2 = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const hashPassword = (password: string) => hash(password, ARGON2);
// A hash to verify against when the email is unknown, so both paths take the same time.
const dummyHash = hashPassword('not-a-real-password-' + randomToken(8));

export function createAuthService(deps: {
  db: Database;
  users: UserService;
  sessions: SessionStore;
  mailer: Mailer;
  appUrl: string;
}) {
  const { db } = deps;
  return {
    async register(input: { name: string; email: string; password: string; signupSource: string | null }): Promise<UserRow> {
      if (await deps.users.findByEmail(input.email)) throw new ValidationError({ email: [FIELD_MESSAGES.emailTaken] });
      const passwordHash = await hashPassword(input.password);
      try {
        return await deps.users.create({ name: input.name, email: input.email, passwordHash, signupSource: input.signupSource });
      } catch (err) {
        // two registrations racing for the same address: the unique index decides
        if (isUniqueViolation(err)) {
          throw new ValidationError({ email: [FIELD_MESSAGES.emailTaken] });
        }
        throw err;
      }
    },

    /** The user when the password matches, else null. */
    async verifyCredentials(email: string, password: string): Promise<UserRow | null> {
      const user = await deps.users.findByEmail(email);
      if (!user) {
        await verify(await dummyHash, password).catch(() => false);
        return null;
      }
      const ok = await verify(user.passwordHash, password).catch(() => false);
      return ok ? user : null;
    },

    async requestPasswordReset(email: string): Promise<void> {
      const user = await deps.users.findByEmail(email);
      if (!user || user.suspendedAt) return;
      const token = randomToken(32);
      await db.insert(passwordResets).values({
        tokenHash: sha256(token),
        userId: user.id,
        expiresAt: new Date(Date.now() + LIMITS.passwordResetTtlMinutes * 60_000),
      });
      const link = `${deps.appUrl}/password/reset/${token}`;
      await deps.mailer.send({
        to: user.email,
        subject: 'Reset your Backbeat password',
        text: `Hi ${user.name},\n\nSomeone (hopefully you) asked to reset your Backbeat password. Open this link within ${LIMITS.passwordResetTtlMinutes} minutes to choose a new one:\n\n${link}\n\nIf you did not ask for this, you can ignore this email.`,
      });
    },

    /** Sets the new password once per link, and signs the account out everywhere. */
    async resetPassword(token: string, password: string): Promise<UserRow> {
      const passwordHash = await hashPassword(password);
      const user = await db.transaction(async (tx) => {
        const [reset] = await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordResets.tokenHash, sha256(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
          .returning();
        if (!reset) throw new ValidationError({ token: [MESSAGES.passwordResetInvalid] });
        const [row] = await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, reset.userId)).returning();
        return row!;
      });
      await deps.sessions.destroyUser(user.id);
      return user;
    },

    async changePassword(userId: number, current: string, password: string, keepSessionId: string): Promise<void> {
      const user = await deps.users.findById(userId);
      if (!user) throw new AppError(404, MESSAGES.notFound);
      if (!(await verify(user.passwordHash, current).catch(() => false))) {
        throw new ValidationError({ current_password: ['The current password is incorrect.'] });
      }
      await db.update(users).set({ passwordHash: await hashPassword(password), updatedAt: new Date() }).where(eq(users.id, userId));
      await deps.sessions.destroyUser(userId, keepSessionId);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
