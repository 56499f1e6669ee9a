import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pageQuerySchema } from '#shared/http';
import {
  journalEntryResponseSchema,
  journalPageResponseSchema,
  logTimeResponseSchema,
  practiceGoalResponseSchema,
  practiceStatsResponseSchema,
  practiceSummaryResponseSchema,
} from '#shared/journal';
import { goalBodySchema } from '#shared/practice';
import { journalEntryBodySchema, logTimeBodySchema, POINTS } from '#shared/learning';
import { requireUser } from '#server/lib/guards';

export const journalRoutes: FastifyPluginAsyncZod = async (app) => {
  const { journal } = app.deps.services;

  // the journal form: rows in the hidden field `exercises` (JSON)
  app.post(
    '/journal',
    {
      config: { access: 'member' },
      schema: { body: journalEntryBodySchema, response: { 201: journalEntryResponseSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const entry = await journal.addEntry(user.id, request.body.exercises, request.body.notes);
      await app.deps.services.rewards.award(user.id, `journal:${entry.created_at.slice(0, 10)}`, POINTS.journalEntry);
      return reply.status(201).send({ data: entry });
    },
  );
  app.get(
    '/api/journal',
    {
      config: { access: 'member' },
      schema: { querystring: pageQuerySchema, response: { 200: journalPageResponseSchema } },
    },
    async (request) => journal.entries(requireUser(request).id, request.query.page),
  );
  app.get(
    '/api/practice/stats',
    { config: { access: 'member' }, schema: { response: { 200: practiceStatsResponseSchema } } },
    async (request) => ({ data: await journal.stats(requireUser(request).id) }),
  );
  app.post(
    '/api/practice/goal',
    { config: { access: 'member' }, schema: { body: goalBodySchema, response: { 200: practiceGoalResponseSchema } } },
    async (request) =>
      journal.setGoal(requireUser(request).id, request.body.days_per_week, request.body.minutes_per_day),
  );
  app.get(
    '/api/practice/summary',
    { config: { access: 'member' }, schema: { response: { 200: practiceSummaryResponseSchema } } },
    async (request) => ({ data: await journal.summary(requireUser(request).id) }),
  );

  // the timer posts minutes; the answer's redirect is followed by the browser (docs/product/journal.md)
  app.post(
    '/journal/log-time-practiced',
    { config: { access: 'member' }, schema: { body: logTimeBodySchema, response: { 200: logTimeResponseSchema } } },
    async (request) => {
      const user = requireUser(request);
      const minutes = request.body.minutes_practiced;
      const { day } = await journal.logTime(user.id, minutes);
      await app.deps.services.rewards.award(user.id, `practice:${day}`, POINTS.practiceLogged);
      return { minutes_practiced: minutes, redirect: `/journal?logged=${minutes}` };
    },
  );
};
