import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { desc, eq } from 'drizzle-orm';
import { answerStep, AREA_LABELS, DEFAULT_PLAN_LINKS, DIAGNOSTIC_STEPS, footSpeedSaveSchema, initialDiagnostic, planKey, primaryKiller, replay } from '#shared/diagnostic';
import { pageQuerySchema } from '#shared/http';
import { appMeta, diagnosticLeads } from '#server/db/schema/index';
import { ValidationError } from '#server/lib/errors';
import { requireAdmin } from '#server/lib/guards';

/** A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) is prefixed with a quote. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

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

export const diagnosticRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, limiters } = app.deps;

  async function planLinks(): Promise<Record<string, string>> {
    const [row] = await db.select().from(appMeta).where(eq(appMeta.key, 'diagnostic_plan_links'));
    try {
      return { ...DEFAULT_PLAN_LINKS, ...(row ? (JSON.parse(row.value) as Record<string, string>) : {}) };
    } catch {
      return DEFAULT_PLAN_LINKS;
    }
  }

  // spec 001 §7: public; the server replays the answers to score them
  app.post('/placement/foot-speed/save', { schema: { body: footSpeedSaveSchema } }, async (request, reply) => {
    await limiters.consume('diagnosticPerIp', request.ip);
    const { name, email, answers } = request.body;
    const state = replay(answers);
    if (DIAGNOSTIC_STEPS[state.step - 1]?.kind !== 'contact') throw new ValidationError({ answers: ['Please answer every question.'] });
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
    const link = (await planLinks())[planKey(state.skill, state.pedal)] ?? '/courses';
    return reply.status(201).send({ skill: state.skill, pedal: state.pedal, tempo: state.tempo, scores: state.scores, primary, primary_label: AREA_LABELS[primary], link });
  });

  app.get('/api/admin/diagnostic-leads', { schema: { querystring: pageQuerySchema } }, async (request) => {
    requireAdmin(request);
    const rows = await db.select().from(diagnosticLeads).orderBy(desc(diagnosticLeads.createdAt), desc(diagnosticLeads.id)).limit(50).offset((request.query.page - 1) * 50);
    return { data: rows.map((r) => ({ id: r.id, name: r.name, email: r.email, skill: r.skill, pedal: r.pedal, tempo: r.tempo, scores: r.scores, primary: r.primaryKiller, created_at: r.createdAt.toISOString() })) };
  });

  app.get('/api/admin/diagnostic-leads.csv', async (request, reply) => {
    requireAdmin(request);
    const rows = await db.select().from(diagnosticLeads).orderBy(desc(diagnosticLeads.createdAt));
    const header = ['created_at', 'name', 'email', 'skill', 'pedal', 'tempo', 'technique', 'control', 'coordination', 'independence', 'primary', 'answers'];
    const lines = rows.map((r) =>
      [r.createdAt.toISOString(), r.name, r.email, r.skill, r.pedal, r.tempo, r.scores.technique, r.scores.control, r.scores.coordination, r.scores.independence, r.primaryKiller, r.answersText].map(csvCell).join(','),
    );
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="diagnostic-leads.csv"')
      .send([header.join(','), ...lines].join('\r\n') + '\r\n');
  });
};
