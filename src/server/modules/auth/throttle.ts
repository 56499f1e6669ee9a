import { SIGN_IN_THROTTLE_MESSAGES } from '#shared/auth';
import { tooManyRequests } from '#server/lib/errors';
import { LOGIN_THROTTLE, RATE_LIMITS, loginSpacingSeconds, type RateLimiters } from '#server/lib/rate-limits';

/**
 * Who is trying to sign in to which account: the account (its email as typed, lower-cased by the
 * limiters) and the place the attempt comes from, a browser the account knows (its device cookie's
 * nonce) or else the address.
 */
export interface SignInAttempt {
  email: string;
  ip: string;
  device: string | null;
}

const pairKey = (a: SignInAttempt) => `${a.email.trim()}|${a.device ? `device:${a.device}` : `ip:${a.ip}`}`;
const accountKey = (a: SignInAttempt) => a.email.trim();

/**
 * Before the password is checked (a right guess during a wait is refused like a wrong one): 429 when
 * this place is shut out of this account, or when the account is being spaced out and another
 * attempt had its turn less than the interval ago. A browser the account knows is never spaced out.
 */
export async function admitSignIn(limiters: RateLimiters, attempt: SignInAttempt): Promise<void> {
  const blockedFor = await limiters.isBlocked('loginFailuresPerPair', pairKey(attempt));
  if (blockedFor !== null) throw tooManyRequests(blockedFor, SIGN_IN_THROTTLE_MESSAGES.pausedHere(blockedFor));
  if (attempt.device) return;
  const spacing = loginSpacingSeconds(await limiters.counted('loginFailuresPerAccount', accountKey(attempt)));
  if (spacing === 0) return;
  const wait = await limiters.takeTurn('loginSlowdownPerAccount', accountKey(attempt), spacing);
  if (wait !== null) throw tooManyRequests(wait, SIGN_IN_THROTTLE_MESSAGES.slowedDown(wait));
}

/** A wrong password (or an unknown account: the same answer and the same counting). */
export async function signInFailed(limiters: RateLimiters, attempt: SignInAttempt): Promise<void> {
  const here = await limiters.count('loginFailuresPerPair', pairKey(attempt));
  if (here >= RATE_LIMITS.loginFailuresPerPair.points)
    await limiters.block('loginFailuresPerPair', pairKey(attempt), LOGIN_THROTTLE.pairBlockSeconds);
  await limiters.count('loginFailuresPerAccount', accountKey(attempt));
}

/** The right password: this place starts again from zero (the account's count runs out by itself). */
export async function signInSucceeded(limiters: RateLimiters, attempt: SignInAttempt): Promise<void> {
  await limiters.reset('loginFailuresPerPair', pairKey(attempt));
}
