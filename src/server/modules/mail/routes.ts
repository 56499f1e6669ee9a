import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import {
  UNSUBSCRIBE_MESSAGES,
  notificationSettingsResponseSchema,
  notificationSettingsUpdateSchema,
  notificationTopic,
  unsubscribeInfoSchema,
} from '#shared/mail';
import { messageResponseSchema } from '#shared/auth';
import { AppError } from '#server/lib/errors';
import { requireUser } from '#server/lib/guards';
import { queueWeeklyDigests, WEEKLY_DIGEST_CRON, WEEKLY_DIGEST_JOB } from './weekly-digest.ts';

const tokenParams = z.object({ token: z.string().min(1).max(300) });

/**
 * The member's notification settings, and the unsubscribe links every non-essential mail carries
 * (docs/mail.md). An unsubscribe call is authenticated by its signed token alone: mail clients' one-click
 * unsubscribe (RFC 8058) POSTs `List-Unsubscribe=One-Click` with no cookie and no CSRF token, so the
 * POST takes no CSRF token; it can only turn off the one topic its token names. Counted per address.
 */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  const { mail, users } = { mail: app.deps.mail, users: app.deps.services.users };

  app.get(
    '/api/account/notifications',
    { config: { access: 'member' }, schema: { response: { 200: notificationSettingsResponseSchema } } },
    async (request) => mail.preferences.list(requireUser(request).id),
  );

  app.put(
    '/api/account/notifications',
    {
      config: { access: 'member' },
      schema: { body: notificationSettingsUpdateSchema, response: { 200: notificationSettingsResponseSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      await mail.preferences.update(user.id, request.body.settings);
      return mail.preferences.list(user.id);
    },
  );

  const member = async (token: string) => {
    const found = mail.tokens.read(token);
    const user = found ? await users.findById(found.userId) : null;
    if (!found || !user) throw new AppError('not-found', UNSUBSCRIBE_MESSAGES.invalid);
    return { user, topic: found.topic };
  };

  app.get(
    '/api/unsubscribe/:token',
    { config: { access: 'public' }, schema: { params: tokenParams, response: { 200: unsubscribeInfoSchema } } },
    async (request, reply) => {
      void reply.header('Cache-Control', 'no-store');
      const { user, topic } = await member(request.params.token);
      return {
        topic,
        label: notificationTopic(topic)!.label,
        email: user.email,
        subscribed: await mail.preferences.allows(user.id, topic, 'email'),
      };
    },
  );

  app.post(
    '/api/unsubscribe/:token',
    {
      config: { access: 'public', csrf: false },
      // the one-click body ("List-Unsubscribe=One-Click", form-encoded) or nothing (the confirm button)
      schema: { params: tokenParams, response: { 200: messageResponseSchema } },
    },
    async (request, reply) => {
      void reply.header('Cache-Control', 'no-store');
      const { user, topic } = await member(request.params.token);
      await mail.preferences.stopEmail(user.id, topic);
      return { message: UNSUBSCRIBE_MESSAGES.done };
    },
  );

  // the weekly digest: every Monday, once across all app processes; `now` (a run asked for by hand)
  // names a moment in the week after the one to sum up
  app.deps.jobs.define(
    WEEKLY_DIGEST_JOB,
    z.object({ now: z.iso.datetime().optional() }),
    async (data) =>
      queueWeeklyDigests(
        { db: app.deps.db, users, journal: app.deps.services.journal, mail },
        data.now ? new Date(data.now) : new Date(),
      ),
    { label: 'E-mail: queue the weekly digests' },
  );
  app.deps.jobs.schedule(WEEKLY_DIGEST_JOB, WEEKLY_DIGEST_CRON);
};
