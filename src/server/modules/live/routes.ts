import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { SOCKET_ID_HEADER } from '#shared/constants';
import { flag, idSchema } from '#shared/http';
import {
  chatPageDtoSchema,
  chatPostedSchema,
  chatTopicAnswerSchema,
  followAnswerSchema,
  heartAnswerSchema,
  LIVE_STATUSES,
  liveShowAnswerSchema,
  scheduleShowSchema,
  showListsSchema,
} from '#shared/live';
import { mayUseCommunity, requireAdmin, requireCommunity } from '#server/lib/guards';

/** The sender's socket (X-Socket-ID), left out of the broadcast of its own action. */
const socketId = (request: FastifyRequest) => {
  const v = request.headers[SOCKET_ID_HEADER.toLowerCase()];
  return typeof v === 'string' && v.length > 0 && v.length < 100 ? v : undefined;
};

const showParams = z.object({ id: idSchema });

export const LIVE_REMINDERS_JOB = 'live.remind-followers';
/** every 5 minutes: a follower hears of a show between 25 and 30 minutes before it starts */
export const LIVE_REMINDERS_CRON = '*/5 * * * *';

/**
 * Live shows (admins schedule them, go live, open the chat) and the chat calls (docs/product/live.md).
 * Who may join a show's channel (`show.{id}`): a member of the community, for a show that exists.
 */
export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { live } = app.deps.services;

  app.deps.realtime.addAuthorizer(async (channel, user) => {
    const match = /^show\.(\d{1,9})$/.exec(channel);
    if (!match) return null;
    if (!user || !mayUseCommunity(user)) return false;
    return live.showExists(Number(match[1]));
  });

  // shows
  app.get(
    '/api/live/shows',
    { config: { access: 'community' }, schema: { response: { 200: showListsSchema } } },
    async (request) => {
      requireCommunity(request);
      return live.shows();
    },
  );
  app.get(
    '/api/live/shows/:id',
    { config: { access: 'community' }, schema: { params: showParams, response: { 200: liveShowAnswerSchema } } },
    async (request) => {
      requireCommunity(request);
      return { data: await live.show(request.params.id) };
    },
  );
  app.get(
    '/api/live/shows/:id/follow',
    { config: { access: 'community' }, schema: { params: showParams, response: { 200: followAnswerSchema } } },
    async (request) => {
      const user = requireCommunity(request);
      await live.show(request.params.id);
      return { data: await live.following(user, request.params.id) };
    },
  );
  app.post(
    '/api/live/shows/:id/follow',
    {
      config: { access: 'community' },
      schema: { params: showParams, body: z.object({ follow: z.boolean() }), response: { 200: followAnswerSchema } },
    },
    async (request) => ({
      data: await live.follow(requireCommunity(request), request.params.id, request.body.follow),
    }),
  );

  // followers hear of a show shortly before it starts: a sweep every 5 minutes across all processes
  app.deps.jobs.define(
    LIVE_REMINDERS_JOB,
    z.object({ now: z.iso.datetime().optional() }),
    async (data) => live.remindFollowers(data.now ? new Date(data.now) : new Date()),
    { label: 'Live shows: remind followers of a show starting soon' },
  );
  app.deps.jobs.schedule(LIVE_REMINDERS_JOB, LIVE_REMINDERS_CRON);

  app.post(
    '/api/live/shows',
    { config: { access: 'admin' }, schema: { body: scheduleShowSchema, response: { 201: liveShowAnswerSchema } } },
    async (request, reply) => {
      requireAdmin(request);
      return reply.status(201).send({ data: await live.schedule(request.body) });
    },
  );
  app.post(
    '/api/live/shows/:id/status',
    {
      config: { access: 'admin' },
      schema: {
        params: showParams,
        body: z.object({ status: z.enum(LIVE_STATUSES) }),
        response: { 200: liveShowAnswerSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { data: await live.setStatus(request.params.id, request.body.status) };
    },
  );
  app.post(
    '/api/live/shows/:id/chat',
    {
      config: { access: 'admin' },
      schema: { params: showParams, body: z.object({ open: flag }), response: { 200: liveShowAnswerSchema } },
    },
    async (request) => {
      requireAdmin(request);
      return { data: await live.setChatOpen(request.params.id, request.body.open) };
    },
  );

  // the chat panel
  app.get(
    '/live-chat/get',
    {
      config: { access: 'community', hotRead: true },
      schema: {
        querystring: z.object({ showId: idSchema, from: idSchema.optional() }),
        response: { 200: chatPageDtoSchema },
      },
    },
    async (request) => live.chatPage(requireCommunity(request), request.query.showId, request.query.from),
  );
  app.post(
    '/live-chat/messages',
    {
      config: { access: 'community' },
      schema: {
        body: z.object({ body: z.unknown().optional(), showId: idSchema }),
        response: { 200: chatPostedSchema },
      },
    },
    async (request) => {
      const user = requireCommunity(request);
      return live.post(user, request.body.showId, request.body.body, socketId(request));
    },
  );
  app.post(
    '/live-chat/set-topic',
    {
      config: { access: 'community' },
      schema: {
        body: z.object({ body: z.string().max(10_000).nullish(), showId: idSchema }),
        response: { 200: chatTopicAnswerSchema },
      },
    },
    async (request) => {
      requireCommunity(request);
      requireAdmin(request);
      return live.setTopic(request.body.showId, request.body.body ?? '', socketId(request));
    },
  );
  app.post(
    '/live-chat/toggle-heart',
    {
      config: { access: 'community' },
      schema: {
        body: z.object({ show_id: idSchema, message_id: idSchema }),
        response: { 200: heartAnswerSchema },
      },
    },
    async (request) => {
      const user = requireCommunity(request);
      return live.toggleHeart(user, request.body.show_id, request.body.message_id, socketId(request));
    },
  );
};
