import { eq } from 'drizzle-orm';
import { z } from '#shared/zod';
import {
  answerStep,
  AREA_LABELS,
  DEFAULT_PLAN_LINKS,
  DIAGNOSTIC_STEPS,
  type footSpeedSaveSchema,
  initialDiagnostic,
  planKey,
  primaryKiller,
  replay,
} from '#shared/diagnostic';
import { appMeta, diagnosticLeads } from '#server/db/schema/index';
import { ValidationError } from '#server/lib/errors';
import type { Database } from '#server/db/client';
import type { SettingsService } from '#server/modules/admin/index';

type Deps = { db: Database; services: { settings: SettingsService } };

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
export async function planLinks(deps: Deps): Promise<Record<string, string>> {
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

/**
 * The foot-speed diagnostic's last step: the server replays the answers to score them (the client's
 * scores are never trusted), keeps the lead, and answers with the result and the matching plan link.
 */
export async function saveFootSpeed(deps: Deps, userId: number | null, input: z.output<typeof footSpeedSaveSchema>) {
  const { name, email, answers } = input;
  const state = replay(answers);
  if (DIAGNOSTIC_STEPS[state.step - 1]?.kind !== 'contact')
    throw new ValidationError({ answers: ['Please answer every question.'] });
  const primary = primaryKiller(state.scores);
  await deps.db.insert(diagnosticLeads).values({
    userId,
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
  const link = (await planLinks(deps))[planKey(state.skill, state.pedal)] ?? '/courses';
  return {
    skill: state.skill,
    pedal: state.pedal,
    tempo: state.tempo,
    scores: state.scores,
    primary,
    primary_label: AREA_LABELS[primary],
    link,
  };
}
