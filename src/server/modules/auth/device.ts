import type { FastifyReply, FastifyRequest } from 'fastify';
import { hmac, randomToken, safeEqual } from '#server/lib/crypto';

/**
 * A browser that has signed in to an account carries a device cookie for it (OWASP: "device
 * cookies"): `<nonce>.<hmac(email, nonce)>`, which only this server can mint. Sign-in attempts from
 * it are counted as that browser's own (not its address's, which it may share with someone guessing)
 * and are not spaced out when the account is under attack from elsewhere. It proves nothing else:
 * the password is still checked, and its own wrong passwords still shut it out.
 */
export const DEVICE_COOKIE = 'bb_device';
const DEVICE_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

const mac = (secret: string, email: string, nonce: string) =>
  hmac(secret, `device:${email.trim().toLowerCase()}:${nonce}`);

/** The nonce of the browser's device cookie when it was minted for `email`, else null. */
export function trustedDevice(request: FastifyRequest, email: string): string | null {
  const value = request.cookies[DEVICE_COOKIE];
  if (!value || value.length > 100) return null;
  const [nonce, signature, ...rest] = value.split('.');
  if (!nonce || !signature || rest.length > 0) return null;
  return safeEqual(signature, mac(request.server.deps.config.sessionSecret, email, nonce)) ? nonce : null;
}

/** After a sign-in as `email`: the browser keeps (or gets) its device cookie for that account. */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, email: string) {
  if (trustedDevice(request, email)) return;
  const nonce = randomToken(16);
  const secure = request.protocol === 'https' || request.server.deps.config.appUrl.startsWith('https://');
  // only sign-in reads it
  reply.setCookie(DEVICE_COOKIE, `${nonce}.${mac(request.server.deps.config.sessionSecret, email, nonce)}`, {
    path: '/login',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: DEVICE_COOKIE_MAX_AGE,
  });
}
