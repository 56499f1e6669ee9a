import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { adminListQuerySchema } from '#shared/admin';
import { z } from '#shared/zod';
import {
  answerStep,
  AREA_LABELS,
  DEFAULT_PLAN_LINKS,
  DIAGNOSTIC_STEPS,
  footSpeedSaveSchema,
  initialDiagnostic,
  planKey,
  primaryKiller,
  replay,
} from '#shared/diagnostic';
import { appMeta, diagnosticLeads } from '#server/db/schema/index';
import { ValidationError } from '#server/lib/errors';
import { leadsPage } from '#server/modules/admin-members/index';
import type { Database } from '#server/db/client';
import type { SettingsService } from '#server/modules/admin/index';
import { csvCell } from '#server/lib/csv';

/** The answers as readable lines: each question with the answer given. */
function answersText(answers: Array<number | string>): string {
  const lines: string[] = [];
  let state = initialDiagnostic();
  for (const a of answers) {
    const step = DIAGNOSTIC_STEPS[state.step - 1];
    if (!step || step.kind === 'contact') break;
    lines.push(`${step.title} ${step.kind === 'tempo' ? String(a) : (step.options[Number(a)]?.text ?? '?')}`);
    state = answerStep(state, a);
  }
  return lines.join('\n');
}

/** site setting 'diagnostic_plan_links' (edited in the admin console): the six plan addresses */
export const PLAN_LINKS_SCHEMA = z.record(z.string(), z.string());

/**
 * The six practice-plan links: the admin's setting, else the older app_meta row (kept as a
 * fallback), else the defaults; any key missing from a saved value keeps its default.
 */
export async function planLinks(deps: {
  db: Database;
  services: { settings: SettingsService };
}): Promise<Record<string, string>> {
  const [row] = await deps.db.select().from(appMeta).where(eq(appMeta.key, 'diagnostic_plan_links'));
  let legacy: Record<string, string> = {};
  try {
    legacy = row ? PLAN_LINKS_SCHEMA.parse(JSON.parse(row.value)) : {};
  } catch {
    legacy = {};
  }
  const fallback = { ...DEFAULT_PLAN_LINKS, ...legacy };
  return { ...fallback, ...(await deps.services.settings.get('diagnostic_plan_links', PLAN_LINKS_SCHEMA, fallback)) };
}

export const diagnosticRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, limiters } = app.deps;

  // public; the server replays the answers to score them
  app.post(
    '/placement/foot-speed/save',
    { config: { access: 'public' }, schema: { body: footSpeedSaveSchema } },
    async (request, reply) => {
      await limiters.consume('diagnosticPerIp', request.ip);
      const { name, email, answers } = request.body;
      const state = replay(answers);
      if (DIAGNOSTIC_STEPS[state.step - 1]?.kind !== 'contact')
        throw new ValidationError({ answers: ['Please answer every question.'] });
      const primary = primaryKiller(state.scores);
      await db.insert(diagnosticLeads).values({
        userId: request.user?.id ?? null,
        name,
        email,
        skill: state.skill,
        pedal: state.pedal,
        tempo: state.tempo,
        scores: state.scores,
        primaryKiller: primary,
        answers,
        answersText: answersText(answers),
      });
      const link = (await planLinks(app.deps))[planKey(state.skill, state.pedal)] ?? '/courses';
      return reply.status(201).send({
        skill: state.skill,
        pedal: state.pedal,
        tempo: state.tempo,
        scores: state.scores,
        primary,
        primary_label: AREA_LABELS[primary],
        link,
      });
    },
  );

  // the admin console: paged, sorted and searched on the server; the CSV is the same search, every page
  app.get(
    '/api/admin/diagnostic-leads',
    { config: { access: 'admin' }, schema: { querystring: adminListQuerySchema } },
    async (request) => leadsPage(db, request.query),
  );

  app.get(
    '/api/admin/diagnostic-leads.csv',
    { config: { access: 'admin' }, schema: { querystring: adminListQuerySchema } },
    async (request, reply) => {
      const { data } = await leadsPage(db, request.query, true);
      const header = [
        'created_at',
        'name',
        'email',
        'skill',
        'pedal',
        'tempo',
        'technique',
        'control',
        'coordination',
        'independence',
        'primary',
        'answers',
      ];
      const lines = data.map((r) =>
        [
          r.created_at,
          r.name,
          r.email,
          r.skill,
          r.pedal,
          r.tempo,
          r.scores.technique,
          r.scores.control,
          r.scores.coordination,
          r.scores.independence,
          r.primary,
          r.answers,
        ]
          .map(csvCell)
          .join(','),
      );
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="diagnostic-leads.csv"')
        .send([header.join(','), ...lines].join('\r\n') + '\r\n');
    },
  );
};
