import { z } from './zod.ts';
import { errorResponseSchema, rowsPageSchema } from './http.ts';
import { cleanDisplayText } from './display-text.ts';

// The generic upload component (docs/product/uploads.md: the upload file object, the chunked handler,
// error codes, chunk constants) and the product's own choices for it.

/** docs/product/uploads.md "Limits and permissions" */
export const UPLOAD_DEFAULTS = {
  /** chunking is off unless a use turns it on */
  chunkEnabled: false,
  /** files over this many bytes are chunked when chunking is on */
  chunkMinSize: 1_048_576,
  /** chunks in flight at once */
  chunkMaxActive: 3,
  /** retries per chunk */
  chunkMaxRetries: 5,
  /** speed sampled each second */
  speedSampleMs: 1000,
  /** files uploaded at once */
  thread: 1,
  /** whole-request timeout; 0 = none */
  timeout: 0,
  /** one chunk's request times out after this */
  chunkTimeoutMs: 120_000,
  /** the component's debounce */
  debounceMs: 300,
} as const;

/** The size of each chunk the server asks for (the start answer's `end_offset`). */
export const UPLOAD_CHUNK_SIZE = 1_048_576;

/** error codes (docs/product/uploads.md) */
export const UPLOAD_ERROR_CODES = [
  'server',
  'denied',
  'network',
  'timeout',
  'abort',
  'extension',
  'size',
  'not_exists',
  'file_object',
  'upload',
] as const;
export type UploadErrorCode = (typeof UPLOAD_ERROR_CODES)[number];
export const NO_ACTION_CONFIGURED = 'No action configured';

/** The user-facing wording of each code (docs/product/uploads.md). */
export const UPLOAD_ERROR_MESSAGES: Record<UploadErrorCode, string> = {
  server: 'The server could not take this file. Please try again in a moment.',
  denied: 'The upload was refused.',
  network: 'The connection dropped. Check your internet connection and try again.',
  timeout: 'The upload took too long to answer. Please try again.',
  abort: 'Upload cancelled.',
  extension: 'This type of file is not accepted here.',
  size: 'This file is too big.',
  not_exists: 'The file could not be found.',
  file_object: 'This file could not be read. Please choose it again.',
  upload: 'Part of the file could not be sent after several tries. Please try again.',
};

/** the upload file object */
export interface UploadFileObject {
  id: string;
  name: string;
  size: number;
  type: string;
  active: boolean;
  /** an error code, or NO_ACTION_CONFIGURED when the component has no target */
  error: UploadErrorCode | typeof NO_ACTION_CONFIGURED | '';
  success: boolean;
  /** '0.00'..'100.00', two decimals */
  progress: string;
  /** bytes per second, sampled each second */
  speed: number;
  response: unknown;
  data: Record<string, unknown>;
  headers: Record<string, string>;
  putAction: string;
  postAction: string;
  timeout: number;
}

/** What may be uploaded for each purpose: extensions (checked case-insensitively), MIME types by content, size. */
export const UPLOAD_PURPOSES = {
  'practice-video': {
    extensions: ['mp4', 'mov', 'm4v', 'webm'],
    mimeTypes: ['video/mp4', 'video/quicktime', 'video/x-m4v', 'video/webm'],
    maxSize: 1024 * 1024 * 1024,
    label: 'practice video',
  },
} as const;
export type UploadPurpose = keyof typeof UPLOAD_PURPOSES;
export const uploadPurposeSchema = z.enum(['practice-video']);

/** Open sessions one member may hold at once (a flood of chunk sessions is refused). */
export const MAX_OPEN_UPLOAD_SESSIONS = 5;
/** An open session untouched this long is abandoned: its partial file is deleted. */
export const UPLOAD_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** the chunked handler's bodies (the target is POST /uploads/chunked) */
export const chunkStartBodySchema = z.object({
  phase: z.literal('start'),
  mime_type: z.string().max(100),
  size: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  name: z.string().min(1).max(255),
  purpose: uploadPurposeSchema.default('practice-video'),
});
export const chunkFinishBodySchema = z.object({ phase: z.literal('finish'), session_id: z.string().min(1).max(64) });

export const uploadAnswerSchema = z.object({
  status: z.enum(['success', 'error']),
  data: z.record(z.string(), z.unknown()).optional(),
  message: z.string().optional(),
});

/** [start, end) byte ranges as the chunked calls answer them */
const byteRangesSchema = z.array(z.tuple([z.number(), z.number()]));
const success = <T extends z.ZodType>(data: T) => z.object({ status: z.literal('success'), data });

/**
 * POST /uploads/chunked, by phase: start (the session and the first chunk's end), upload (the bytes
 * received so far), finish and abort (the session). Listed in that order: an answer is written
 * through the first that fits it, and the start's answer also fits the last.
 */
export const chunkedUploadAnswerSchema = z.union([
  success(z.object({ session_id: z.string(), end_offset: z.number() })),
  success(z.object({ received: byteRangesSchema })),
  success(z.object({ session_id: z.string() })),
]);
/**
 * POST /uploads/chunked's 409: a finish before every byte arrived names the ranges still missing;
 * the other conflicts (a chunk after the finish) are the usual failure, which the module's onSend
 * hook gives its `status` after this schema has written it.
 */
export const chunkedUploadConflictSchema = errorResponseSchema.extend({
  status: z.literal('error').optional(),
  missing: byteRangesSchema.optional(),
});
/** GET /uploads/chunked/{id}: where a session stands, so a client resumes with the chunks still missing */
export const uploadSessionAnswerSchema = success(
  z.object({
    received: byteRangesSchema,
    size: z.number(),
    state: z.enum(['open', 'complete', 'aborted', 'rejected']),
  }),
);
/** POST /uploads: a small file in one request, kept as a completed session */
export const simpleUploadAnswerSchema = success(z.object({ session_id: z.string() }));

export const UPLOAD_MESSAGES = {
  tooManySessions: `You have ${MAX_OPEN_UPLOAD_SESSIONS} uploads in progress already. Finish or cancel one before starting another.`,
  wrongType: 'This file is not a video we can play. Please send an MP4, MOV, M4V or WebM file.',
  tooBig: 'This file is too big. Videos can be up to 1 GB.',
  sessionNotFound: 'This upload has expired. Please start it again.',
  incomplete: 'Some parts of this file have not arrived yet.',
  badChunk: 'This part of the file does not fit the upload.',
} as const;

// ---------------------------------------------------------------------------------------------
// Uploads and practice video submissions: the targets, the upload-phase and
// abort bodies, byte-range helpers the server and the client share, and the video submissions.

/** Where the generic component sends files in this product. */
export const UPLOAD_TARGETS = { chunked: '/uploads/chunked', simple: '/uploads' } as const;

/** Session ids are ours: random base64url. */
export const uploadSessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'This upload does not exist.');

/** the upload phase (multipart): the chunk itself is the file part `chunk`. */
export const chunkUploadFieldsSchema = z.object({
  phase: z.literal('upload'),
  session_id: uploadSessionIdSchema,
  start_offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export const chunkAbortBodySchema = z.object({ phase: z.literal('abort'), session_id: uploadSessionIdSchema });

/** [start, end) byte ranges, sorted and merged */
export type ByteRange = [number, number];
/** 'rejected': its first bytes are not a video we can play (every later call on it says so) */
export type UploadSessionState = 'open' | 'complete' | 'aborted' | 'rejected';
export interface UploadSessionStatus {
  received: ByteRange[];
  size: number;
  state: UploadSessionState;
}

/** Adds [start, end) to sorted, merged ranges; touching ranges join. */
export function mergeRanges(ranges: readonly ByteRange[], add: ByteRange): ByteRange[] {
  const all = [...ranges, add].filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const out: ByteRange[] = [];
  for (const [s, e] of all) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** The parts of [0, size) not covered by `ranges`. */
export function missingRanges(ranges: readonly ByteRange[], size: number): ByteRange[] {
  const out: ByteRange[] = [];
  let at = 0;
  for (const [s, e] of mergeRanges(ranges, [0, 0])) {
    if (s > at) out.push([at, Math.min(s, size)]);
    at = Math.max(at, e);
    if (at >= size) break;
  }
  if (at < size) out.push([at, size]);
  return out;
}

export const receivedBytes = (ranges: readonly ByteRange[]) => ranges.reduce((n, [s, e]) => n + (e - s), 0);

export const UPLOAD_EXTRA_MESSAGES = {
  alreadyFinished: 'This upload has already finished.',
  emptyChunk: 'This part of the file is empty.',
  useChunks: 'Files over 1 MB are sent in parts. Please try again.',
  fileRequired: 'Please choose a file.',
} as const;

export const VIDEO_LIMITS = { title: 120, note: 2000, feedback: 5000, perPage: 20 } as const;

export const VIDEO_MESSAGES = {
  titleRequired: 'Please give your video a title.',
  feedbackRequired: 'Please write your feedback.',
  uploadNotReady: 'This video has not finished uploading, or was already sent. Please upload it again.',
  notFound: 'This video does not exist.',
  feedbackGiven: 'Your mentor has already answered this video, so it can no longer be deleted.',
  notYours: 'You can only see your own practice videos.',
} as const;

export const videoSubmissionBodySchema = z.object({
  upload_id: uploadSessionIdSchema,
  title: z
    .string()
    .overwrite(cleanDisplayText)
    .trim()
    .min(1, VIDEO_MESSAGES.titleRequired)
    .max(VIDEO_LIMITS.title, `Titles can be up to ${VIDEO_LIMITS.title} characters.`),
  note: z.string().trim().max(VIDEO_LIMITS.note, `Notes can be up to ${VIDEO_LIMITS.note} characters.`).default(''),
});
export const videoFeedbackBodySchema = z.object({
  feedback: z
    .string()
    .trim()
    .min(1, VIDEO_MESSAGES.feedbackRequired)
    .max(VIDEO_LIMITS.feedback, `Feedback can be up to ${VIDEO_LIMITS.feedback} characters.`),
});
export const videoListQuerySchema = z.object({
  student_id: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
  awaiting: z
    .enum(['1', '0', 'true', 'false'])
    .optional()
    .catch(undefined)
    .transform((v) => v === '1' || v === 'true'),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/**
 * A caption file an admin attaches to a practice video (docs/product/accessibility.md, captions):
 * WebVTT, judged by its content, stored privately beside the video.
 */
export const VIDEO_CAPTIONS = {
  field: 'captions',
  langField: 'lang',
  maxBytes: 500 * 1024,
  defaultLang: 'en',
  /** the languages the admin's form offers (the API takes any language tag) */
  languages: ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da'],
} as const;

export const CAPTION_MESSAGES = {
  required: 'Please choose a caption file (.vtt).',
  notWebVtt:
    'This file is not a WebVTT caption file: its first line must be WEBVTT. Please save the captions as a .vtt file and try again.',
  tooBig: 'This caption file is too big. Caption files can be up to 500 KB.',
  lang: 'Please choose the language of the captions.',
  attached: 'Captions attached.',
  removed: 'Captions removed.',
  none: 'This video has no captions.',
} as const;

/** a language tag of the form the captions' `srclang` takes: "en", "de", "pt-BR" */
export const captionLangSchema = z
  .string({ error: CAPTION_MESSAGES.lang })
  .trim()
  .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, CAPTION_MESSAGES.lang)
  .default(VIDEO_CAPTIONS.defaultLang);

/** the name of a caption language in English ("English", "Brazilian Portuguese"), for the track's label */
export function captionLabel(lang: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(lang) ?? lang;
  } catch {
    return lang;
  }
}

/**
 * Whether `data` is a WebVTT file: UTF-8 text (a byte-order mark allowed) whose first line is
 * "WEBVTT", alone or followed by a space or tab and a header text (the WebVTT file signature).
 */
export function isWebVtt(data: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return false;
  }
  return /^WEBVTT(?:[ \t][^\r\n]*)?(?:\r\n|\r|\n|$)/.test(text);
}

export const videoCaptionsSchema = z.object({
  /** GET /mentorship/videos/{id}/captions: the student and admins only */
  url: z.string(),
  lang: z.string(),
  label: z.string(),
});
export type VideoCaptions = z.infer<typeof videoCaptionsSchema>;

export const videoPersonSchema = z.object({ id: z.number(), name: z.string() });
export type VideoPerson = z.infer<typeof videoPersonSchema>;
export const videoSubmissionSchema = z.object({
  id: z.number(),
  student: videoPersonSchema,
  title: z.string(),
  note: z.string(),
  mime_type: z.string(),
  size: z.number(),
  created_at: z.string(),
  /** GET /mentorship/videos/{id}/file: owner or admin only, never under /files */
  file_url: z.string(),
  url: z.string(),
  feedback: z.string().nullable(),
  feedback_at: z.string().nullable(),
  feedback_by: videoPersonSchema.nullable(),
  status: z.enum(['awaiting', 'reviewed']),
  /** the caption file an admin attached, shown as the player's default captions track */
  captions: videoCaptionsSchema.nullable(),
});
export type VideoSubmission = z.infer<typeof videoSubmissionSchema>;
/** GET /api/mentorship/videos */
export const videoSubmissionPageSchema = rowsPageSchema(videoSubmissionSchema);
export type VideoSubmissionPage = z.infer<typeof videoSubmissionPageSchema>;
/** one submission: its page, a new one (201), feedback given */
export const videoSubmissionAnswerSchema = z.object({ data: videoSubmissionSchema });
/** captions attached or removed: the submission as it is now, with the outcome in words */
export const videoCaptionsAnswerSchema = z.object({ message: z.string(), data: videoSubmissionSchema });
export const videoDeletedSchema = z.object({ deleted: z.literal(true) });
