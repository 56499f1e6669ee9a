import { z } from './zod.ts';
import { COMMUNITY, DISCUSSION_SORTS, POST_BODY_MAX, postDtoSchema } from './community.ts';

// Threaded posts and lesson discussion (docs/product/discussion.md): pure rules the
// server and the client share. Wording and numbers live in ./community.ts.

export const POST_TYPES = ['forumtopic', 'lesson'] as const;
export type PostType = (typeof POST_TYPES)[number];
export const LIKE_TYPES = ['post', 'forumtopic'] as const;

export const DISCUSSION_WORDING = {
  parentInvalid: 'The post you are replying to could not be found.',
  edited: 'edited',
  earlierVersions: 'Earlier versions',
  viewMore: (n: number) => `View ${n} more comment${n === 1 ? '' : 's'}...`,
  postComment: 'Post comment...',
  replyingTo: 'Replying to',
  openInModal: 'Open in a window',
} as const;

/** Where a post lives (post links use each post's permalink: docs/product/discussion.md). */
export function permalinkFor(type: string, resourceId: number): string {
  return type === 'lesson' ? `/lessons/${resourceId}` : `/forums/topic/${resourceId}`;
}
export const mentorshipPermalinkFor = (type: string, resourceId: number) =>
  `/mentorship${permalinkFor(type, resourceId)}`;

const YOUTUBE_ID = '([A-Za-z0-9_-]{11})';
const VIDEO_PATTERNS = [
  new RegExp(`https?://(?:www\\.|m\\.)?youtube\\.com/watch\\?(?:[^\\s#]*&)?v=${YOUTUBE_ID}`, 'g'),
  new RegExp(`https?://youtu\\.be/${YOUTUBE_ID}`, 'g'),
  new RegExp(`https?://(?:www\\.|m\\.)?youtube\\.com/shorts/${YOUTUBE_ID}`, 'g'),
  new RegExp(`https?://(?:www\\.)?youtube(?:-nocookie)?\\.com/embed/${YOUTUBE_ID}`, 'g'),
];

/** Video ids of the links to the video host in a post's text, in order, once each. */
export function youtubeIds(text: string): string[] {
  const found: { at: number; id: string }[] = [];
  for (const re of VIDEO_PATTERNS) for (const m of text.matchAll(re)) found.push({ at: m.index ?? 0, id: m[1]! });
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.id))].slice(0, 5);
}

/** Link text shortened in the middle to `max` characters (40: docs/product/discussion.md). */
export function truncateMiddle(text: string, max: number = COMMUNITY.linkDisplayMax): string {
  if (text.length <= max) return text;
  const keep = max - 1;
  const head = Math.ceil(keep / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (keep - head))}`;
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; href: string; text: string };

/** Splits plain text into text and http(s) links (auto-linking without ever producing HTML). */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const re = /\bhttps?:\/\/[^\s<>"']+/gi;
  let last = 0;
  for (const m of text.matchAll(re)) {
    let url = m[0];
    // trailing punctuation belongs to the sentence, not the link
    const trail = /[.,;:!?)\]]+$/.exec(url)?.[0] ?? '';
    if (trail) url = url.slice(0, -trail.length);
    const at = m.index ?? 0;
    if (at > last) parts.push({ kind: 'text', text: text.slice(last, at) });
    parts.push({ kind: 'link', href: url, text: truncateMiddle(url) });
    last = at + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** The body of a new or edited post: trimmed, required, bounded. */
export const postBodySchema = z
  .string({ error: 'The body field is required.' })
  .trim()
  .min(1, 'The body field is required.')
  .max(POST_BODY_MAX, `The body may not be greater than ${POST_BODY_MAX} characters.`);

export const inlineSortSchema = z.enum(DISCUSSION_SORTS).catch('upvoted');

/** The thread's numeric address hash (#123) switches it into individual thread mode. */
export function hashPostId(hash: string): number | null {
  const m = /^#?(\d{1,10})$/.exec(hash);
  if (!m) return null;
  const n = Number(m[1]);
  return n > 0 && n <= 2_147_483_647 ? n : null;
}

/** The posts modal accepts same-site addresses only. */
export function sameSitePath(url: string): string | null {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return null;
  return url;
}

/** GET /posts: a page of a thread; `from` is where the next page starts (null on the last) */
export const threadAnswerSchema = z.object({
  posts: z.array(postDtoSchema),
  more: z.boolean(),
  from: z.number().nullable(),
});
export type ThreadAnswer = z.infer<typeof threadAnswerSchema>;

/** GET /posts/thread: one conversation (a parent and its replies) */
export const conversationAnswerSchema = z.object({ posts: z.array(postDtoSchema) });

/** GET /inline-posts: a page of a lesson's (or topic's) discussion */
export const inlineAnswerSchema = z.object({
  posts: z.object({
    data: z.array(postDtoSchema),
    current_page: z.number(),
    last_page: z.number(),
    total: z.number(),
    per_page: z.number(),
  }),
  page: z.number(),
  pages: z.number(),
});
export type InlineAnswer = z.infer<typeof inlineAnswerSchema>;

/** GET /api/posts/{id}/revisions: earlier versions, newest first */
export const revisionSchema = z.object({
  id: z.number(),
  body: z.string(),
  replaced_at: z.string(),
  edited_by: z.string(),
});
export type Revision = z.infer<typeof revisionSchema>;
export const revisionsAnswerSchema = z.object({ data: z.array(revisionSchema) });

/** GET /api/posts/{id}: one post and where it lives (the /posts/{id} page and the posts modal) */
export const postLocationSchema = z.object({
  post: postDtoSchema,
  type: z.enum(POST_TYPES),
  resource_id: z.number(),
  title: z.string(),
  is_topic_body: z.boolean(),
  thread_parent_id: z.number(),
});
export type PostLocation = z.infer<typeof postLocationSchema>;

/** POST /posts (201): the new post as the thread shows it */
export const newPostAnswerSchema = z.object({ post: postDtoSchema });

/** POST /attachments: the stored file's name (sent back with the post) and its address */
export const attachmentAnswerSchema = z.object({ filename: z.string(), url: z.string() });
export type AttachmentAnswer = z.infer<typeof attachmentAnswerSchema>;
