import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { MESSAGES, FIELD_MESSAGES, LIMITS } from '#shared/constants';
import {
  changeEmailBodySchema,
  changeEmailResponseSchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  loginResponseSchema,
  meResponseSchema,
  messageResponseSchema,
  registerBodySchema,
  registerResponseSchema,
  resetLinkAnswerSchema,
  resetPasswordBodySchema,
} from '#shared/auth';
import { safeRedirect } from '#shared/redirect';
import { AppError, ValidationError } from '#server/lib/errors';
import { requireUser } from '#server/lib/guards';
import { redirectOrJson } from '#server/lib/http';
import { ServiceUnavailableError } from '#server/lib/unavailable';
import { signIn, signOut } from '#server/plugins/session';
import type { UserRow } from '#server/modules/users/index';
import { rememberDevice, trustedDevice } from './device.ts';
import { admitSignIn, signInFailed, signInSucceeded, type SignInAttempt } from './throttle.ts';

const signupSource = (b: {
  mentorship_signup?: boolean | undefined;
  dkm_signup?: boolean | undefined;
  dbo_academy_signup?: boolean | undefined;
  checkout_slug?: string | undefined;
}) =>
  b.mentorship_signup
    ? 'mentorship'
    : b.dkm_signup
      ? 'double-kick'
      : b.dbo_academy_signup || b.checkout_slug
        ? `membership:${b.checkout_slug ?? ''}`
        : null;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services, limiters, sessions } = app.deps;
  /** before signing in, making an account or spending a reset link: each ends in a session (503 now rather than half done) */
  const needSessions = () => {
    if (!sessions.available()) throw new ServiceUnavailableError('The session store');
  };

  /** sign this browser in, and remember it as one the account signs in from (never made to wait its turn) */
  const signInHere = async (
    request: FastifyRequest,
    reply: FastifyReply,
    user: { id: number; email: string },
    remember: boolean,
  ) => {
    await signIn(request, reply, user.id, remember);
    rememberDevice(request, reply, user.email);
  };

  /** The password has changed whatever the mail does: a mail that cannot be sent is logged, not answered as a failure. */
  const tellPasswordChanged = async (request: FastifyRequest, user: UserRow, how: 'reset' | 'change') => {
    try {
      await services.auth.sendPasswordChangedMail(user, { at: new Date(), how, ip: request.ip });
    } catch (err) {
      request.log.error({ err, userId: user.id }, 'password-changed mail not sent');
    }
  };

  /** Like the password: the address has changed whatever the mail to the old one does. */
  const tellEmailChanged = async (request: FastifyRequest, user: UserRow, from: string) => {
    try {
      await services.auth.sendEmailChangedMail(user, { from, at: new Date() });
    } catch (err) {
      request.log.error({ err, userId: user.id }, 'email-changed mail not sent');
    }
  };

  // register, sign in at once, answer {name, email, redirect}
  app.post(
    '/register',
    { config: { access: 'public' }, schema: { body: registerBodySchema, response: { 200: registerResponseSchema } } },
    async (request, reply) => {
      const body = request.body;
      needSessions();
      await limiters.consume('registerPerIp', request.ip);
      const user = await services.auth.register({
        name: body.name,
        email: body.email,
        password: body.password,
        signupSource: signupSource(body),
      });
      await signInHere(request, reply, user, false);
      return { name: user.name, email: user.email, redirect: safeRedirect(body.redirect, '/dashboard') };
    },
  );

  app.post(
    '/login',
    { config: { access: 'public' }, schema: { body: loginBodySchema, response: { 200: loginResponseSchema } } },
    async (request, reply) => {
      const { email, password, remember, to } = request.body;
      needSessions();
      await limiters.consume('loginPerIp', request.ip);
      const attempt: SignInAttempt = { email, ip: request.ip, device: trustedDevice(request, email) };
      await admitSignIn(limiters, attempt);
      const user = await services.auth.verifyCredentials(email, password);
      if (!user) {
        await signInFailed(limiters, attempt);
        throw new ValidationError({ email: [MESSAGES.signInFailed] });
      }
      if (user.suspendedAt) throw new ValidationError({ email: ['This account has been suspended.'] });
      await signInSucceeded(limiters, attempt);
      await signInHere(request, reply, user, remember ?? false);
      return redirectOrJson(request, reply, safeRedirect(to, '/dashboard'));
    },
  );

  app.post(
    '/logout',
    { config: { access: 'public' }, schema: { response: { 200: loginResponseSchema } } },
    async (request, reply) => {
      await signOut(request, reply);
      return redirectOrJson(request, reply, '/');
    },
  );

  app.post(
    '/password/forgot',
    {
      config: { access: 'public' },
      schema: { body: forgotPasswordBodySchema, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await limiters.consume('passwordResetPerIp', request.ip);
      await limiters.consume('passwordResetPerEmail', request.body.email);
      await services.auth.requestPasswordReset(request.body.email);
      return { message: MESSAGES.passwordResetSent };
    },
  );

  // The reset page asks as it opens, so a link that can no longer be used says so before anything is
  // typed; it never uses the link. Counted per address (ADDRESS_LIMITS).
  app.get(
    '/api/password/reset/:token',
    {
      config: { access: 'public' },
      schema: { params: z.object({ token: z.string().max(200) }), response: { 200: resetLinkAnswerSchema } },
    },
    async (request, reply) => {
      void reply.header('Cache-Control', 'no-store');
      const link = await services.auth.resetLinkState(request.params.token);
      if (link.state === 'unknown') throw new AppError('not-found', MESSAGES.passwordResetUnknown);
      if (link.state !== 'valid') throw new AppError('gone', MESSAGES.passwordResetExpired);
      return { valid: true as const, expires_at: link.expiresAt.toISOString() };
    },
  );

  app.post(
    '/password/reset',
    {
      config: { access: 'public' },
      schema: { body: resetPasswordBodySchema, response: { 200: messageResponseSchema } },
    },
    async (request, reply) => {
      needSessions();
      await limiters.consume('passwordResetPerIp', request.ip);
      const user = await services.auth.resetPassword(request.body.token, request.body.password);
      await signInHere(request, reply, user, false);
      await tellPasswordChanged(request, user, 'reset');
      return { message: MESSAGES.passwordChanged, redirect: '/dashboard' };
    },
  );

  app.post(
    '/account/password',
    {
      config: { access: 'member' },
      schema: {
        body: z
          .object({
            current_password: z
              .string({ error: FIELD_MESSAGES.currentPasswordRequired })
              .min(1, FIELD_MESSAGES.currentPasswordRequired)
              .max(LIMITS.passwordMax),
            password: z
              .string({ error: FIELD_MESSAGES.passwordRequired })
              .min(LIMITS.passwordMin, FIELD_MESSAGES.passwordMin)
              .max(LIMITS.passwordMax, FIELD_MESSAGES.passwordTooLong),
            password_confirmation: z.string({ error: FIELD_MESSAGES.passwordConfirmationMismatch }),
          })
          .refine((v) => v.password === v.password_confirmation, {
            path: ['password_confirmation'],
            message: FIELD_MESSAGES.passwordConfirmationMismatch,
          }),
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await limiters.consume('loginPerIp', request.ip);
      const changed = await services.auth.changePassword(
        user.id,
        request.body.current_password,
        request.body.password,
        request.sessionId,
      );
      await tellPasswordChanged(request, changed, 'change');
      return { message: MESSAGES.passwordChanged };
    },
  );

  // a new sign-in address (docs/product/accounts.md): this browser stays signed in (sessions name the
  // account, not its address) and is remembered as one the account signs in from under the new address
  app.post(
    '/account/email',
    {
      config: { access: 'member' },
      schema: { body: changeEmailBodySchema, response: { 200: changeEmailResponseSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await limiters.consume('loginPerIp', request.ip);
      const { user: changed, from } = await services.auth.changeEmail(
        user.id,
        request.body.current_password,
        request.body.email,
      );
      rememberDevice(request, reply, changed.email);
      await tellEmailChanged(request, changed, from);
      return { message: MESSAGES.emailChanged, email: changed.email };
    },
  );

  /** who am I (for the client after a rotation, and for scripts) */
  app.get(
    '/api/me',
    { config: { access: 'public' }, schema: { response: { 200: meResponseSchema } } },
    async (request) => ({ user: request.user, csrfToken: request.csrfToken }),
  );
};
