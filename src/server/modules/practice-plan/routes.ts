import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { SOCKET_ID_HEADER } from '#shared/constants';
import { idSchema } from '#shared/http';
import {
  practicePlanAnswerSchema,
  practicePlanConflictSchema,
  practicePlanSaveAnswerSchema,
  reusableDayBodySchema,
  savedDayDeletedSchema,
  savedDaySchema,
  savedDaysAnswerSchema,
  savePracticePlanBodySchema,
} from '#shared/mentorship';
import { notFound, ValidationError } from '#server/lib/errors';
import { requireAdmin, requireMentorship } from '#server/lib/guards';
import { wantsHtml } from '#server/lib/http';
import { overridableRoute } from '#server/lib/method-override';
import { renderPage } from '#server/plugins/pages';
import { DAY_NOT_FOUND, PlanConflict } from './service.ts';

/** The sender's socket (X-Socket-ID), left out of the broadcast of its own save. */
const socketId = (request: FastifyRequest) => {
  const v = request.headers[SOCKET_ID_HEADER.toLowerCase()];
  return typeof v === 'string' && v.length > 0 && v.length < 100 ? v : undefined;
};

/** a body checked after the permission (the method-override routes have no schema step) */
function parse<T>(schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues)
    (errors[issue.path.map(String).join('.') || 'body'] ??= []).push(issue.message);
  throw new ValidationError(errors);
}

/**
 * The practice plan (docs/product/mentorship.md): GET/POST /mentorship/practice-plan and the mentors'
 * reusable days under /mentorship/practice-plan-days. Rules in ./service.ts and docs/practice-plan.md.
 */
export const practicePlanRoutes: FastifyPluginAsyncZod = async (app) => {
  const plans = app.deps.services.practicePlans;
  const { limiters } = app.deps;

  // the calls share their addresses with pages: a browser navigation gets the page
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (wantsHtml(request)) return renderPage(app, request, reply);
  };

  app.get(
    '/mentorship/practice-plan',
    {
      config: { access: 'mentorship' },
      preValidation: page,
      // a browser navigation is answered the page's HTML (written as it is, not through the schema)
      schema: {
        querystring: z.object({ student_id: idSchema.optional() }),
        response: { 200: practicePlanAnswerSchema },
      },
    },
    async (request, reply) => {
      const user = requireMentorship(request);
      return reply.header('Cache-Control', 'no-store').send(await plans.open(user, request.query.student_id));
    },
  );

  app.post(
    '/mentorship/practice-plan',
    {
      config: { access: 'mentorship' },
      schema: {
        body: savePracticePlanBodySchema,
        response: { 200: practicePlanSaveAnswerSchema, 409: practicePlanConflictSchema },
      },
    },
    async (request, reply) => {
      const user = requireMentorship(request);
      await limiters.consume('practicePlanSavesPerUser', String(user.id));
      try {
        return await plans.save(user, request.body, socketId(request));
      } catch (err) {
        // another mentor saved meanwhile: say so, and hand over the plan as it stands now
        if (err instanceof PlanConflict) return reply.status(409).send({ message: err.message, current: err.current });
        throw err;
      }
    },
  );

  app.get(
    '/mentorship/practice-plan-days',
    { config: { access: 'admin' }, preValidation: page, schema: { response: { 200: savedDaysAnswerSchema } } },
    async () => plans.days(),
  );

  app.get(
    '/mentorship/practice-plan-days/:day',
    { config: { access: 'admin' }, schema: { params: z.object({ day: idSchema }), response: { 200: savedDaySchema } } },
    async (request) => plans.day(request.params.day),
  );

  app.post(
    '/mentorship/practice-plan-days',
    { config: { access: 'admin' }, schema: { body: reusableDayBodySchema, response: { 201: savedDaySchema } } },
    async (request, reply) => reply.status(201).send(await plans.createDay(requireAdmin(request), request.body)),
  );

  // POST /mentorship/practice-plan-days/{day} edits; with `_method: 'delete'` it removes the day
  const dayId = (request: FastifyRequest) => {
    const id = idSchema.safeParse((request.params as { day?: string }).day);
    if (!id.success) throw notFound(DAY_NOT_FOUND);
    return id.data;
  };
  overridableRoute(app, '/mentorship/practice-plan-days/:day', 'admin', {
    POST: {
      response: { 200: savedDaySchema },
      handler: async (request) => {
        requireAdmin(request);
        return plans.updateDay(dayId(request), parse(reusableDayBodySchema, request.body));
      },
    },
    DELETE: {
      response: { 200: savedDayDeletedSchema },
      handler: async (request) => {
        requireAdmin(request);
        return plans.removeDay(dayId(request));
      },
    },
  });
};
