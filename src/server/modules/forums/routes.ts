import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { idSchema, pageQuerySchema } from '#shared/http';
import { likeAnswerSchema } from '#shared/community';
import {
  categoryPageSchema,
  forumCategoriesAnswerSchema,
  lockAnswerSchema,
  lockSchema,
  moveAnswerSchema,
  moveSchema,
  newTopicAnswerSchema,
  newTopicSchema,
  pinAnswerSchema,
  pinSchema,
  topicAnswerSchema,
  topicLikeSchema,
  watchAnswerSchema,
  watchSchema,
} from '#shared/forums';
import { requireCommunity } from '#server/lib/guards';
import { mailWatchedTopics, WATCHED_TOPICS_CRON, WATCHED_TOPICS_JOB } from './watched-topic-mail.ts';

const slugParams = z.object({ slug: z.string().min(1).max(100) });
const idParams = z.object({ id: idSchema });
const topicIdParams = z.object({ topicId: idSchema });

/** Forum home, categories, topics and their calls (docs/product/forums.md). */
export const forumRoutes: FastifyPluginAsyncZod = async (app) => {
  const { forums, posts } = app.deps.services;
  const { limiters } = app.deps;

  // watchers' e-mail: once an hour across all app processes, one mail per member, topic and hour;
  // `now` (a run asked for by hand) names the moment whose previous hour is mailed
  app.deps.jobs.define(
    WATCHED_TOPICS_JOB,
    z.object({ now: z.iso.datetime().optional() }),
    async (data) =>
      mailWatchedTopics(
        { db: app.deps.db, users: app.deps.services.users, mail: app.deps.mail },
        data.now ? new Date(data.now) : new Date(),
      ),
    { label: 'E-mail: new posts in watched topics (the last hour)' },
  );
  app.deps.jobs.schedule(WATCHED_TOPICS_JOB, WATCHED_TOPICS_CRON);

  app.get(
    '/api/forums',
    { config: { access: 'community' }, schema: { response: { 200: forumCategoriesAnswerSchema } } },
    async (request) => ({ data: await forums.categories(requireCommunity(request)) }),
  );

  app.get(
    '/api/forums/:slug',
    {
      config: { access: 'community' },
      schema: { params: slugParams, querystring: pageQuerySchema, response: { 200: categoryPageSchema } },
    },
    async (request) => forums.categoryPage(requireCommunity(request), request.params.slug, request.query.page),
  );

  app.post(
    '/api/forums/:slug/topics',
    {
      config: { access: 'community' },
      schema: { params: slugParams, body: newTopicSchema, response: { 201: newTopicAnswerSchema } },
    },
    async (request, reply) => {
      const user = requireCommunity(request);
      const answer = await forums.createTopic(user, request.params.slug, request.body);
      return reply.status(201).send(answer);
    },
  );

  // the topic as the thread page reads it
  app.get(
    '/forums/api/topic/:topicId',
    { config: { access: 'community' }, schema: { params: topicIdParams, response: { 200: topicAnswerSchema } } },
    async (request) => forums.topic(requireCommunity(request), request.params.topicId),
  );

  app.post(
    '/forums/api/likes/topics/toggle',
    { config: { access: 'community' }, schema: { body: topicLikeSchema, response: { 200: likeAnswerSchema } } },
    async (request) => {
      const user = requireCommunity(request);
      await limiters.consume('likesPerUser', String(user.id));
      // one implementation with POST /toggle-like type=forumtopic (the posts module)
      return posts.toggleTopicLike(user, request.body.model_id);
    },
  );

  app.post(
    '/api/forums/topics/:id/watch',
    {
      config: { access: 'community' },
      schema: { params: idParams, body: watchSchema, response: { 200: watchAnswerSchema } },
    },
    async (request) => forums.watch(requireCommunity(request), request.params.id, request.body.watch),
  );

  // admins only (checked in the service too); a non-member hears the members-only message first
  app.post(
    '/api/forums/topics/:id/pin',
    {
      config: { access: 'moderation' },
      schema: { params: idParams, body: pinSchema, response: { 200: pinAnswerSchema } },
    },
    async (request) => forums.pin(requireCommunity(request), request.params.id, request.body.pinned),
  );
  app.post(
    '/api/forums/topics/:id/lock',
    {
      config: { access: 'moderation' },
      schema: { params: idParams, body: lockSchema, response: { 200: lockAnswerSchema } },
    },
    async (request) => forums.lock(requireCommunity(request), request.params.id, request.body.locked),
  );
  app.post(
    '/api/forums/topics/:id/move',
    {
      config: { access: 'moderation' },
      schema: { params: idParams, body: moveSchema, response: { 200: moveAnswerSchema } },
    },
    async (request) => forums.move(requireCommunity(request), request.params.id, request.body.category_id),
  );
};
