import { z } from './zod.ts';
import { FIELD_MESSAGES as M, LIMITS } from './constants.ts';
import { cleanDisplayText } from './display-text.ts';
import { flag } from './http.ts';
import { REDIRECT_MAX } from './redirect.ts';

const requiredString = (required: string) => z.string({ error: required }).trim().min(1, required);

/**
 * Where the browser goes next (`redirect`, `to`): only ever a hint. The route passes it to
 * `safeRedirect`, so a value that is not usable (too long, not text, off the site) falls back to the
 * dashboard instead of failing the sign-in or the registration.
 */
const destination = z.string().max(REDIRECT_MAX).optional().catch(undefined);

const email = requiredString(M.emailRequired).max(LIMITS.emailMax, M.emailInvalid).pipe(z.email(M.emailInvalid));

/** POST /register: the optional flags say which checkout it came from. */
export const registerBodySchema = z
  .object({
    name: z
      .string({ error: M.nameRequired })
      .overwrite(cleanDisplayText)
      .trim()
      .min(1, M.nameRequired)
      .max(LIMITS.nameMax, M.nameTooLong),
    email,
    email_confirmation: z.string().trim().optional(),
    password: z
      .string({ error: M.passwordRequired })
      .min(1, M.passwordRequired)
      .min(LIMITS.passwordMin, M.passwordMin)
      .max(LIMITS.passwordMax, M.passwordTooLong),
    mentorship_signup: flag.optional(),
    dkm_signup: flag.optional(),
    dbo_academy_signup: flag.optional(),
    checkout_slug: z.string().max(100).optional(),
    redirect: destination,
  })
  .superRefine((v, ctx) => {
    if ((v.email_confirmation ?? '').toLowerCase() !== v.email.toLowerCase()) {
      // the registration screens read errors.email[0] (docs/product/accounts.md); the field itself keeps it too
      ctx.addIssue({ code: 'custom', path: ['email'], message: M.emailConfirmationMismatch });
      ctx.addIssue({ code: 'custom', path: ['email_confirmation'], message: M.emailConfirmationMismatch });
    }
  });
export type RegisterBody = z.input<typeof registerBodySchema>;

export const registerResponseSchema = z.object({
  name: z.string(),
  email: z.string(),
  redirect: z.string(),
});

/** POST /login */
export const loginBodySchema = z.object({
  email: requiredString(M.emailRequired).max(LIMITS.emailMax, M.emailInvalid),
  password: z.string({ error: M.passwordRequired }).min(1, M.passwordRequired).max(LIMITS.passwordMax),
  remember: flag.optional(),
  to: destination,
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const loginResponseSchema = z.object({ redirect: z.string() });

export const forgotPasswordBodySchema = z.object({ email });
export const resetPasswordBodySchema = z
  .object({
    token: requiredString(M.tokenRequired).max(200),
    password: z
      .string({ error: M.passwordRequired })
      .min(1, M.passwordRequired)
      .min(LIMITS.passwordMin, M.passwordMin)
      .max(LIMITS.passwordMax, M.passwordTooLong),
    password_confirmation: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.password_confirmation !== undefined && v.password_confirmation !== v.password) {
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: M.passwordConfirmationMismatch });
    }
  });

/**
 * POST /account/email: a new sign-in address, typed twice, and the current password. A confirmation
 * that differs is reported under `email` as registration does (docs/product/accounts.md).
 */
export const changeEmailBodySchema = z
  .object({
    email,
    email_confirmation: z.string({ error: M.emailConfirmationMismatch }).trim().max(LIMITS.emailMax),
    current_password: z
      .string({ error: M.currentPasswordRequired })
      .min(1, M.currentPasswordRequired)
      .max(LIMITS.passwordMax),
  })
  .superRefine((v, ctx) => {
    if (v.email_confirmation.toLowerCase() !== v.email.toLowerCase()) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: M.emailConfirmationMismatch });
      ctx.addIssue({ code: 'custom', path: ['email_confirmation'], message: M.emailConfirmationMismatch });
    }
  });
export type ChangeEmailBody = z.input<typeof changeEmailBodySchema>;
export const changeEmailResponseSchema = z.object({ message: z.string(), email: z.string() });
export type ChangeEmailResponse = z.infer<typeof changeEmailResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string(), redirect: z.string().optional() });

export const ROLES = ['member', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const ENTITLEMENTS = ['membership', 'mentorship'] as const;
export type Entitlement = (typeof ENTITLEMENTS)[number];

/** The signed-in user as the routes see them (request.user) and GET /api/me answers them. */
export const authUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  slug: z.string(),
  role: z.enum(ROLES),
  isAdmin: z.boolean(),
  isMentor: z.boolean(),
  avatarUrl: z.string(),
  profileUrl: z.string(),
  entitlements: z.array(z.string()),
});
export type AuthUser = z.infer<typeof authUserSchema>;

/** GET /api/me: who this browser is signed in as (null for a visitor) and its CSRF token */
export const meResponseSchema = z.object({ user: authUserSchema.nullable(), csrfToken: z.string() });
export type MeResponse = z.infer<typeof meResponseSchema>;

/** GET /api/password/reset/:token: the link can still be used (404 unknown and 410 used or expired answer `{message}`). */
export const resetLinkAnswerSchema = z.object({ valid: z.literal(true), expires_at: z.string() });
export type ResetLinkAnswer = z.infer<typeof resetLinkAnswerSchema>;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The sign-in throttle's answers (429), with the wait the Retry-After header carries. */
export const SIGN_IN_THROTTLE_MESSAGES = {
  /** this account from this address (or this browser) after too many wrong passwords */
  pausedHere: (seconds: number) =>
    `Too many failed attempts to sign in to this account from here. Please try again in ${plural(Math.max(1, Math.ceil(seconds / 60)), 'minute')}, or reset your password.`,
  /** the account from anywhere, while wrong passwords keep arriving for it */
  slowedDown: (seconds: number) =>
    `There have been many failed attempts to sign in to this account, so we are spacing sign-ins out. Please try again in ${plural(Math.max(1, Math.ceil(seconds)), 'second')}.`,
} as const;
