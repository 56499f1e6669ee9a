import { and, eq, gt, isNull } from 'drizzle-orm';
import { hash, verify } from '@node-rs/argon2';
import { FIELD_MESSAGES, LIMITS, MESSAGES } from '#shared/constants';
import type { Database, Tx } from '#server/db/client';
import { passwordResets, users } from '#server/db/schema/index';
import { AppError, ValidationError } from '#server/lib/errors';
import { randomToken, sha256 } from '#server/lib/crypto';
import type { MailService } from '#server/modules/mail/index';
import type { SessionStore } from '#server/lib/session-store';
import type { UserRow, UserService } from '#server/modules/users/index';
import { isUniqueViolation } from '#server/lib/db-errors';

export const PASSWORD_CHANGED_SUBJECT = 'Your Backbeat password was changed';

/** Ends every reset link of the account still waiting to be used: a link sent before the password changed must not change it again. */
async function endResetLinks(tx: Tx, userId: number, now: Date) {
  await tx
    .update(passwordResets)
    .set({ expiresAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)));
}

// algorithm 2 = Argon2id (a const enum in the typings)
const ARGON2 = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const hashPassword = (password: string) => hash(password, ARGON2);
// A hash to verify against when the email is unknown, so both paths take the same time.
const dummyHash = hashPassword('not-a-real-password-' + randomToken(8));

export function createAuthService(deps: {
  db: Database;
  users: UserService;
  sessions: SessionStore;
  mail: MailService;
  appUrl: string;
}) {
  const { db } = deps;
  return {
    async register(input: {
      name: string;
      email: string;
      password: string;
      signupSource: string | null;
    }): Promise<UserRow> {
      if (await deps.users.findByEmail(input.email)) throw new ValidationError({ email: [FIELD_MESSAGES.emailTaken] });
      const passwordHash = await hashPassword(input.password);
      try {
        const user = await deps.users.create({
          name: input.name,
          email: input.email,
          passwordHash,
          signupSource: input.signupSource,
        });
        await deps.mail.send('account.welcome', user.id, {}, { key: String(user.id) });
        return user;
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
      const tokenHash = sha256(token);
      await db.insert(passwordResets).values({
        tokenHash,
        userId: user.id,
        expiresAt: new Date(Date.now() + LIMITS.passwordResetTtlMinutes * 60_000),
      });
      await deps.mail.send(
        'account.password-reset',
        user.id,
        { link: `${deps.appUrl}/password/reset/${token}`, minutes: LIMITS.passwordResetTtlMinutes },
        { key: tokenHash },
      );
    },

    /** Whether a reset link can still be used, without using it. */
    async resetLinkState(
      token: string,
    ): Promise<{ state: 'valid'; expiresAt: Date } | { state: 'used' | 'expired' | 'unknown' }> {
      const [reset] = await db
        .select()
        .from(passwordResets)
        .where(eq(passwordResets.tokenHash, sha256(token)))
        .limit(1);
      if (!reset) return { state: 'unknown' };
      if (reset.usedAt) return { state: 'used' };
      if (reset.expiresAt.getTime() <= Date.now()) return { state: 'expired' };
      return { state: 'valid', expiresAt: reset.expiresAt };
    },

    /**
     * Sets the new password once per link, ends every other link of the account with it, and signs
     * the account out everywhere (the route then signs this browser in).
     */
    async resetPassword(token: string, password: string): Promise<UserRow> {
      const passwordHash = await hashPassword(password);
      const tokenHash = sha256(token);
      const user = await db.transaction(async (tx) => {
        const [link] = await tx
          .select({ userId: passwordResets.userId })
          .from(passwordResets)
          .where(eq(passwordResets.tokenHash, tokenHash))
          .limit(1);
        if (!link) throw new ValidationError({ token: [MESSAGES.passwordResetInvalid] });
        // the account's row first, as a password change takes it: two changes of one account wait
        // for each other in turn instead of each holding a row the other needs
        await tx.select({ id: users.id }).from(users).where(eq(users.id, link.userId)).for('update');
        const now = new Date();
        const [reset] = await tx
          .update(passwordResets)
          .set({ usedAt: now })
          .where(
            and(
              eq(passwordResets.tokenHash, tokenHash),
              isNull(passwordResets.usedAt),
              gt(passwordResets.expiresAt, now),
            ),
          )
          .returning();
        if (!reset) throw new ValidationError({ token: [MESSAGES.passwordResetInvalid] });
        const [row] = await tx
          .update(users)
          .set({ passwordHash, updatedAt: now })
          .where(eq(users.id, reset.userId))
          .returning();
        await endResetLinks(tx, reset.userId, now);
        return row!;
      });
      await deps.sessions.destroyUser(user.id);
      return user;
    },

    /** Sets the new password, ends every reset link of the account and every session but `keepSessionId`. */
    async changePassword(userId: number, current: string, password: string, keepSessionId: string): Promise<UserRow> {
      const user = await deps.users.findById(userId);
      if (!user) throw new AppError('not-found', MESSAGES.notFound);
      if (!(await verify(user.passwordHash, current).catch(() => false))) {
        throw new ValidationError({ current_password: [FIELD_MESSAGES.currentPasswordIncorrect] });
      }
      const passwordHash = await hashPassword(password);
      const row = await db.transaction(async (tx) => {
        const now = new Date();
        const [changed] = await tx
          .update(users)
          .set({ passwordHash, updatedAt: now })
          .where(eq(users.id, userId))
          .returning();
        await endResetLinks(tx, userId, now);
        return changed!;
      });
      await deps.sessions.destroyUser(userId, keepSessionId);
      return row;
    },

    /**
     * Moves the account to a new sign-in address once the current password is proved
     * (docs/product/accounts.md): not the address it has, not one another account has. The reset
     * links mailed to the old address stop working with it. Answers the account and the old address.
     */
    async changeEmail(userId: number, current: string, email: string): Promise<{ user: UserRow; from: string }> {
      const user = await deps.users.findById(userId);
      if (!user) throw new AppError('not-found', MESSAGES.notFound);
      // the password first: without it nobody learns whether an address has an account
      if (!(await verify(user.passwordHash, current).catch(() => false))) {
        throw new ValidationError({ current_password: [FIELD_MESSAGES.currentPasswordIncorrect] });
      }
      // addresses are one account's whatever their case (the unique index is on lower(email))
      if (email.trim().toLowerCase() === user.email.trim().toLowerCase()) {
        throw new ValidationError({ email: [FIELD_MESSAGES.emailUnchanged] });
      }
      if (await deps.users.findByEmail(email)) throw new ValidationError({ email: [FIELD_MESSAGES.emailTaken] });
      try {
        const row = await db.transaction(async (tx) => {
          const changed = await deps.users.setEmail(userId, email, tx);
          if (!changed) throw new AppError('not-found', MESSAGES.notFound);
          await endResetLinks(tx, userId, new Date());
          return changed;
        });
        return { user: row, from: user.email };
      } catch (err) {
        // another account took the address in the meantime: the unique index decides
        if (isUniqueViolation(err)) throw new ValidationError({ email: [FIELD_MESSAGES.emailTaken] });
        throw err;
      }
    },

    /** Tells the old address that the account's address changed, and to whom (its last mail there). */
    async sendEmailChangedMail(user: UserRow, change: { from: string; at: Date }): Promise<void> {
      await deps.mail.send(
        'account.email-changed',
        { userId: user.id, address: change.from },
        { from: change.from, to: user.email, at: change.at.toISOString() },
        { key: `${user.id}-${change.at.getTime()}` },
      );
    },

    /** Tells the member their password changed, and what to do if it was not them. */
    async sendPasswordChangedMail(
      user: UserRow,
      change: { at: Date; how: 'reset' | 'change'; ip: string },
    ): Promise<void> {
      await deps.mail.send(
        'account.password-changed',
        user.id,
        { at: change.at.toISOString(), how: change.how, ip: change.ip },
        { key: `${user.id}-${change.at.getTime()}` },
      );
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
