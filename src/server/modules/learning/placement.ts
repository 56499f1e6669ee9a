import { PLACEMENT_QUESTIONS, type PlacementQuestion } from '#shared/placement';
import { placementQuestionsSchema } from '#shared/admin-content';
import type { SettingsService } from '#server/modules/admin/index';

/** site setting 'placement_questions' (edited in the admin console) */
export const PLACEMENT_QUESTIONS_SCHEMA = placementQuestionsSchema;

/** The placement questions members answer: the admin's edited set, else the defaults (src/shared/placement.ts). */
export const placementQuestions = (deps: { services: { settings: SettingsService } }): Promise<PlacementQuestion[]> =>
  deps.services.settings.get('placement_questions', PLACEMENT_QUESTIONS_SCHEMA, PLACEMENT_QUESTIONS);
