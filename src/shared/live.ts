import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';

// Live shows and their chat (docs/product/live.md; the calls are /live-chat/*).
// Shared wording of the community is in community.ts; what only the live area uses is here.

export const LIVE_STATUSES = ['scheduled', 'live', 'ended'] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];

/** The badge on a show card and on the show page. */
export const LIVE_STATUS_LABELS: Record<LiveStatus, string> = { scheduled: 'Upcoming', live: 'Live', ended: 'Ended' };

export const LIVE = {
  titleMax: 150,
  descriptionMax: 2_000,
  videoUrlMax: 500,
  /** ended shows listed on /live (newest first) */
  pastShown: 20,
  /** the list keeps "stick to the newest message" while the viewer is this close to the bottom */
  stickToBottomPx: 48,
} as const;

export const LIVE_MESSAGES = {
  titleRequired: 'The title field is required.',
  titleTooLong: `The title may not be greater than ${LIVE.titleMax} characters.`,
  descriptionTooLong: `The description may not be greater than ${LIVE.descriptionMax} characters.`,
  startsAtInvalid: 'The start time must be a valid date and time.',
  videoUrlInvalid:
    'The video must be an https embed address from YouTube or Vimeo (for example https://www.youtube-nocookie.com/embed/VIDEO_ID).',
  chatTooFast: 'You are sending messages too quickly. Please wait a few seconds and try again.',
  chatBusy:
    'The chat is very busy right now: many people are writing at once. Please wait a few seconds and try again.',
  heartsTooFast: 'Too many hearts at once. Please wait a moment.',
  noVideo: 'The video for this show will appear here.',
  topicWhole: 'Show the whole topic',
  topicLess: 'Show less',
  noShows: 'No shows scheduled yet. Check back soon.',
  emptyChat: 'No messages yet. Say hello!',
} as const;

/** A show as GET /api/live/shows and /api/live/shows/{id} answer it. */
export const liveShowDtoSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  /** ISO 8601 */
  startsAt: z.string(),
  status: z.enum(LIVE_STATUSES),
  videoUrl: z.string().nullable(),
  chatOpen: z.boolean(),
  topic: z.string().nullable(),
});
export type LiveShowDto = z.infer<typeof liveShowDtoSchema>;
/** one show: GET /api/live/shows/{id}, and the admins' schedule (201), status and chat calls */
export const liveShowAnswerSchema = z.object({ data: liveShowDtoSchema });

/** GET /api/live/shows: live now, upcoming (soonest first), past (newest first, bounded) */
export const showListsSchema = z.object({
  live: z.array(liveShowDtoSchema),
  upcoming: z.array(liveShowDtoSchema),
  past: z.array(liveShowDtoSchema),
});
export type ShowLists = z.infer<typeof showListsSchema>;

/** GET and POST /api/live/shows/{id}/follow */
export const followAnswerSchema = z.object({ data: z.object({ following: z.boolean() }) });
export type FollowAnswer = z.infer<typeof followAnswerSchema>;

/** a live chat message (plus `hearted`: the viewer hearted it). */
export const chatMessageDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  admin: z.boolean(),
  avatar_url: z.string(),
  profile_url: z.string().nullable(),
  body: z.string(),
  hearts: z.number(),
  hearted: z.boolean(),
  /** epoch seconds */
  timestamp: z.number(),
});
export type ChatMessageDto = z.infer<typeof chatMessageDtoSchema>;

/** GET /live-chat/get: the newest page in chronological order; `from` is the cursor for "Load older...". */
export const chatPageDtoSchema = z.object({
  messages: z.array(chatMessageDtoSchema),
  topic: z.string().nullable(),
  from: z.number().nullable(),
  more: z.boolean(),
});
export type ChatPageDto = z.infer<typeof chatPageDtoSchema>;

/** POST /live-chat/messages: the message as posted (the others hear it on the show's channel) */
export const chatPostedSchema = z.object({ id: z.number(), message: chatMessageDtoSchema });
export type ChatPosted = z.infer<typeof chatPostedSchema>;
/** POST /live-chat/set-topic: the topic now (null: cleared) */
export const chatTopicAnswerSchema = z.object({ topic: z.string().nullable() });
export type ChatTopicAnswer = z.infer<typeof chatTopicAnswerSchema>;
/** POST /live-chat/toggle-heart */
export const heartAnswerSchema = z.object({ hearted: z.boolean(), hearts: z.number() });
export type HeartAnswer = z.infer<typeof heartAnswerSchema>;

/**
 * The embed address of a video link: YouTube (watch, youtu.be, embed, nocookie) and Vimeo links
 * become their player address; anything else (or not https) is null. The server also checks the
 * origin against the pages' frame sources.
 */
export function toEmbedUrl(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const id = /^[A-Za-z0-9_-]{6,20}$/;
  const host = url.hostname.toLowerCase();
  if (host === 'www.youtube.com' || host === 'youtube.com' || host === 'm.youtube.com') {
    const v = url.searchParams.get('v');
    if (url.pathname === '/watch' && v && id.test(v)) return `https://www.youtube-nocookie.com/embed/${v}`;
    const m = /^\/(?:embed|live)\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    return m && id.test(m[1]!) ? `https://www.youtube.com/embed/${m[1]}` : null;
  }
  if (host === 'www.youtube-nocookie.com') {
    const m = /^\/embed\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    return m && id.test(m[1]!) ? `https://www.youtube-nocookie.com/embed/${m[1]}` : null;
  }
  if (host === 'youtu.be') {
    const m = /^\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    return m && id.test(m[1]!) ? `https://www.youtube-nocookie.com/embed/${m[1]}` : null;
  }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const m = /^\/(?:video\/)?(\d{1,12})$/.exec(url.pathname);
    return m ? `https://player.vimeo.com/video/${m[1]}` : null;
  }
  return null;
}

/** POST /api/live/shows (admins) */
export const scheduleShowSchema = z.object({
  title: z
    .string({ error: LIVE_MESSAGES.titleRequired })
    .overwrite(cleanDisplayText)
    .trim()
    .min(1, LIVE_MESSAGES.titleRequired)
    .max(LIVE.titleMax, LIVE_MESSAGES.titleTooLong),
  description: z.string().trim().max(LIVE.descriptionMax, LIVE_MESSAGES.descriptionTooLong).default(''),
  starts_at: z
    .string({ error: LIVE_MESSAGES.startsAtInvalid })
    .max(40, LIVE_MESSAGES.startsAtInvalid)
    .refine((s) => !Number.isNaN(Date.parse(s)), LIVE_MESSAGES.startsAtInvalid),
  video_url: z
    .string()
    .trim()
    .max(LIVE.videoUrlMax, LIVE_MESSAGES.videoUrlInvalid)
    .refine((s) => s === '' || toEmbedUrl(s) !== null, LIVE_MESSAGES.videoUrlInvalid)
    .default(''),
});
export type ScheduleShowInput = z.input<typeof scheduleShowSchema>;
