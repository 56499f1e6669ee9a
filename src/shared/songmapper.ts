import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';

/** The song mapper: data, autosave, options and messages, timings (docs/product/song-mapper.md). */
export const SONG = {
  autosaveMs: 1000,
  savedIndicatorMs: 1500,
  /** after a failed autosave, the next try waits this long (doubling up to retryMaxMs) */
  retryMs: 2000,
  retryMaxMs: 30_000,
  bpmMaxLength: 4,
  measuresMaxLength: 4,
  titleMax: 120,
  fieldMax: 120,
  maxSections: 100,
  maxTemplates: 50,
  songsPerPage: 50,
  confirmDefaultTemplate:
    'Are you sure you want to use the default song template? Any existing information inputted will be overwritten and lost.',
  confirmTemplate:
    'Are you sure you want to use this template? Any existing information inputted will be overwritten and lost.',
  confirmDelete: 'Are you sure you wish to delete this song?',
  templateTitleRequired: 'Please give the template a title.',
  saving: 'Saving...',
  saved: 'Saved!',
  saveFailed: 'Not saved yet. Retrying...',
  offline: 'Not saved: you are offline. We will save when you are back.',
  untitled: 'Untitled song',
} as const;

export const SECTION_TITLES = [
  'Intro',
  'Verse',
  'Pre-Chorus',
  'Chorus',
  'Bridge',
  'Outro',
  'Solo',
  'Instrumental',
  'No Drums',
] as const;
export const DIVISIONS = ['Quarter', '8th', '16th', '32nd', '8th Trip.', '16th Trip.'] as const;
export const OTHER_OPTION = 'Other...';

const text = (label: string, max: number = SONG.fieldMax) =>
  z.string({ error: `The ${label} must be text.` }).max(max, `The ${label} may not be greater than ${max} characters.`);
const digits = (label: string, max: number) =>
  z
    .string({ error: `The ${label} must be a number.` })
    .max(max, `The ${label} may not be greater than ${max} digits.`)
    .regex(/^\d*$/, `The ${label} may only contain digits.`);

export const sectionSchema = z.object({
  title: text('section title'),
  otherTitle: z.boolean(),
  measures: digits('measures', SONG.measuresMaxLength),
  division: text('division'),
  otherDivision: z.boolean(),
  surface: text('surface'),
  snare: text('snare'),
});
export type Section = z.infer<typeof sectionSchema>;

export const songSchema = z.object({
  title: text('title', SONG.titleMax).overwrite(cleanDisplayText),
  bpm: digits('bpm', SONG.bpmMaxLength),
  expandFields: z.boolean(),
  sections: z
    .array(sectionSchema, { error: 'The sections must be a list.' })
    .min(1, 'A song keeps at least one section.')
    .max(SONG.maxSections, `A song may have at most ${SONG.maxSections} sections.`),
});
export type Song = z.infer<typeof songSchema>;

/** Song ids are random (128 bits, base64url), so a share link cannot be guessed. */
export const songIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'The song id is invalid.');

export const saveSongBodySchema = z.object({
  song: songSchema,
  id: songIdSchema.nullish(),
});
export const saveTemplateBodySchema = z.object({
  title: z
    .string({ error: SONG.templateTitleRequired })
    .overwrite(cleanDisplayText)
    .trim()
    .min(1, SONG.templateTitleRequired)
    .max(SONG.titleMax, `The title may not be greater than ${SONG.titleMax} characters.`),
  song: songSchema,
});

/**
 * A song as the calls answer it: the fields of songSchema without its input rules (a stored song
 * is sent as it was saved).
 */
const songAnswerSchema = z.object({
  title: z.string(),
  bpm: z.string(),
  expandFields: z.boolean(),
  sections: z.array(
    z.object({
      title: z.string(),
      otherTitle: z.boolean(),
      measures: z.string(),
      division: z.string(),
      otherDivision: z.boolean(),
      surface: z.string(),
      snare: z.string(),
    }),
  ),
});

export const songSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  bpm: z.string(),
  sections: z.number(),
  measures: z.number(),
  updated_at: z.string(),
});
export type SongSummary = z.infer<typeof songSummarySchema>;
/** GET /api/songmapper: the member's songs */
export const songListResponseSchema = z.object({ data: z.array(songSummarySchema) });

/** GET /api/songmapper/{id}: one of the member's songs */
export const songResponseSchema = z.object({
  data: z.object({ id: z.string(), song: songAnswerSchema, updated_at: z.string() }),
});
export type SongAnswer = z.infer<typeof songResponseSchema>['data'];

/** POST /songmapper (autosave): the song's id (new on the first save) */
export const songSavedSchema = z.object({ id: z.string() });

export const songTemplateSchema = z.object({ id: z.number(), title: z.string(), song: songAnswerSchema });
export type SongTemplate = z.infer<typeof songTemplateSchema>;
/** the templates calls (list, save, delete): the member's templates as they are now */
export const songTemplatesResponseSchema = z.object({ templates: z.array(songTemplateSchema) });
export type SongTemplatesResponse = z.infer<typeof songTemplatesResponseSchema>;

export function emptySection(): Section {
  return {
    title: 'Intro',
    otherTitle: false,
    measures: '',
    division: 'Quarter',
    otherDivision: false,
    surface: '',
    snare: '',
  };
}
export function emptySong(): Song {
  return { title: '', bpm: '', expandFields: false, sections: [emptySection()] };
}

const section = (title: string, measures: number, division: string, surface = '', snare = ''): Section => ({
  title,
  otherTitle: false,
  measures: String(measures),
  division,
  otherDivision: false,
  surface,
  snare,
});

/** The default song template: the shape most pop and rock songs share. */
export const DEFAULT_TEMPLATE: Song = {
  title: '',
  bpm: '',
  expandFields: true,
  sections: [
    section('Intro', 4, '8th', 'Hi-hat', '2 and 4'),
    section('Verse', 16, '8th', 'Hi-hat', '2 and 4'),
    section('Pre-Chorus', 8, '8th', 'Ride', '2 and 4'),
    section('Chorus', 16, '8th', 'Crash / ride', '2 and 4'),
    section('Verse', 16, '8th', 'Hi-hat', '2 and 4'),
    section('Chorus', 16, '8th', 'Crash / ride', '2 and 4'),
    section('Bridge', 8, 'Quarter', 'Floor tom', 'Rim click'),
    section('Chorus', 16, '8th', 'Crash / ride', '2 and 4'),
    section('Outro', 4, 'Quarter', 'Crash', 'Hits with the band'),
  ],
};

/** Total measures and, with a bpm, the song's length in seconds (4 beats a measure). */
export function songLength(song: Song): { measures: number; seconds: number | null } {
  const measures = song.sections.reduce((n, s) => n + (Number(s.measures) || 0), 0);
  const bpm = Number(song.bpm);
  return { measures, seconds: bpm > 0 ? Math.round((measures * 4 * 60) / bpm) : null };
}

/** A section's shown title: "Other..." free text or one of the options. */
export const sectionTitle = (s: Section) => s.title.trim() || (s.otherTitle ? 'Other' : '');
