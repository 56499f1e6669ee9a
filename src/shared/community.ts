import { z } from './zod.ts';

// Community and live: wording, numbers and the shapes the thread, forum, chat and wall
// calls answer. Each domain keeps its own rules beside its code; what several share lives here.

/** Who may read and write in the forums and live shows: members and mentorship students (admins hold everything). */
export const COMMUNITY_ENTITLEMENTS = ['membership', 'mentorship'] as const;

/**
 * A post's longest body. A plain number here so that a message built from it is known to have no side
 * effects: a schema a page does not use is dropped whole (vite.config.ts), where a template reading
 * `COMMUNITY.postBodyMax` stayed behind and kept zod in the lesson and topic pages.
 */
export const POST_BODY_MAX = 10_000;

export const COMMUNITY = {
  /** the community's limits (docs/product/forums.md, docs/product/discussion.md) */
  linkDisplayMax: 40,
  copiedMs: 1500,
  scrollDelayMs: 50,
  postEditHeightPx: 300,
  hoverCardMaxWidthPx: 500,
  /** wall replies shown first, then this many more per "Load more" (docs/product/profile-and-wall.md) */
  wallRepliesStep: 5,
  /** product choices */
  postBodyMax: POST_BODY_MAX,
  topicTitleMax: 150,
  chatBodyMax: 500,
  wallBodyMax: 2_000,
  reportReasonMax: 500,
  /** parents per page of GET /posts, and replies shown under a parent before "View X more comments..." */
  parentsPerPage: 10,
  repliesShown: 3,
  inlinePostsPerPage: 10,
  topicsPerPage: 20,
  chatPageSize: 50,
  wallCommentsPerPage: 10,
  /** attachments: one image at a time, checked by content */
  attachmentMaxBytes: 5 * 1024 * 1024,
} as const;

export const DISCUSSION_SORTS = ['upvoted', 'newest', 'oldest'] as const;
export type DiscussionSort = (typeof DISCUSSION_SORTS)[number];

/** the community's messages, verbatim */
export const COMMUNITY_MESSAGES = {
  deletePostConfirm: 'Are you sure you want to delete this post?',
  chatLoadFailed: 'Chat closed or error connecting.',
  chatPlaceholder: 'Type your message and press enter...',
  lessonDiscussionFailed: "We couldn't fetch the lesson discussion or post on this page (it may have been deleted).",
  wallLoadFailed:
    "We couldn't fetch the profile comments for this user. Please check your internet connection and refresh the page to try again.",
  wallPostFailed:
    'There was an error contacting the server or you have submitted too many comments. Please wait before submitting more.',
  wallDeleteFailed: 'There was an error with your request. Please refresh the page and try again.',
  wallDeleteConfirm: 'Are you sure? This comment will be permanently deleted.',
  wallEmpty: "Nobody has posted on this user's wall yet. Be the first!",
  replyPlaceholder: 'Type your reply...',
  mockReplyPlaceholder: 'Post your comment...',
  deleted: 'Deleted',
  loadMore: 'Load more...',
  loadOlder: 'Load older...',
  individualThread: 'Viewing Individual Thread',
  seeFullDiscussion: 'See full discussion...',
  seeEntireConversation: 'See entire conversation',
  jumpToLatest: 'Jump to latest comment',
  copied: 'Copied!',
  /** product wording */
  bodyRequired: 'The body field is required.',
  bodyTooLong: (max: number) => `The body may not be greater than ${max} characters.`,
  attachmentInvalid: 'The attachment must be an image (jpg, png or gif).',
  attachmentTooBig: 'The attachment may not be greater than 5 MB.',
  attachmentMissing: 'The attachment could not be found. Please attach it again.',
  topicLocked: 'This topic is locked: new replies are closed.',
  communityMembersOnly: 'The forums and live shows are for members. Become a member to join the conversation.',
  chatClosed: 'The chat for this show is closed.',
  reportThanks: 'Thanks. An admin will look at it.',
  reportReasonRequired: 'Please tell us what is wrong.',
} as const;

/**
 * A post as the thread and lesson-discussion calls answer it. A trashed post,
 * or one whose author is gone, has user "Deleted", the default avatar and an empty body. Named
 * (`id`): it holds itself, so the API reference refers to it as a component.
 */
export const postDtoSchema = z
  .object({
    id: z.number(),
    body: z.string(),
    userId: z.number().nullable(),
    user: z.string(),
    admin: z.boolean(),
    avatarUrl: z.string(),
    /** the author's profile address (hover card); null when deleted */
    profileUrl: z.string().nullable(),
    permalink: z.string(),
    mentorshipPermalink: z.string(),
    createdAt: z.string(),
    editedAt: z.string().nullable(),
    trashed: z.boolean(),
    phase: z.number().nullable(),
    parentId: z.number().nullable(),
    replyingTo: z.string().nullable(),
    replyingToPermalink: z.string().nullable(),
    numLikes: z.number(),
    authLiked: z.boolean(),
    /** stored file names; shown from `${fileStorageBaseUrl}/${name}` */
    attachments: z.array(z.string()),
    /** video ids from links to the video host (YouTube) in the body */
    videos: z.array(z.string()),
    /** the viewer may edit / delete it (author or admin) */
    canEdit: z.boolean(),
    /** replies of a parent post (oldest first); a reply's own list is empty */
    get children() {
      return z.array(postDtoSchema);
    },
    /** replies not included in children (a parent with many replies) */
    moreChildren: z.number(),
  })
  .meta({ id: 'PostDto' });
export type PostDto = z.infer<typeof postDtoSchema>;

/** `{ok: true}`: a delete that went through */
export const okAnswerSchema = z.object({ ok: z.literal(true) });

/** a like toggled: whether the member likes it now, and its count */
export const likeAnswerSchema = z.object({ liked: z.boolean(), likes: z.number() });
export type LikeAnswer = z.infer<typeof likeAnswerSchema>;

/** POST /api/reports: a member reports a post, a chat message or a wall comment. */
export const REPORT_KINDS = ['post', 'chat', 'wall'] as const;
export const reportSchema = z.object({
  kind: z.enum(REPORT_KINDS),
  id: z.coerce.number().int().positive().max(2_147_483_647),
  reason: z.string().trim().max(500).default(''),
});
