import { z } from './zod.ts';
import { COMMUNITY, COMMUNITY_MESSAGES } from './community.ts';

/**
 * Profile walls (docs/product/profile-and-wall.md): the comment shape the calls answer, the
 * body rules and the wall's own wording. Spec wording and numbers live in community.ts.
 */
/** A wall comment as the calls answer it; named (`id`) as it holds itself (the API reference's component). */
export const wallCommentDtoSchema = z
  .object({
    id: z.number(),
    body: z.string(),
    /** the author's name, or "Deleted" when the author is gone */
    author: z.string(),
    created_at: z.string(),
    /** the author's profile address; null when the author is gone */
    permalink: z.string().nullable(),
    avatar_url: z.string(),
    user_id: z.number().nullable(),
    /** the wall's owner */
    to_id: z.number(),
    parent_id: z.number().nullable(),
    /** the author is an admin (green name) */
    admin: z.boolean(),
    /** the viewer may delete it: an admin, its author or the wall's owner */
    can_delete: z.boolean(),
    /** replies, oldest first (a reply's own list is empty) */
    get children() {
      return z.array(wallCommentDtoSchema);
    },
  })
  .meta({ id: 'WallComment' });
export type WallCommentDto = z.infer<typeof wallCommentDtoSchema>;
/** GET /profile-comments/{slug} and POST /profile-comments (201): a bare list of top-level comments */
export const wallCommentListSchema = z.array(wallCommentDtoSchema);
/** DELETE /profile-comments/{id}: how many comments left the wall (the comment and its replies) */
export const wallDeletedSchema = z.object({ deleted: z.number() });

/**
 * GET /profile-comments/{slug} answers a bare list of comments; whether an older
 * page exists travels in this header ("1" or "0").
 */
export const WALL_HAS_MORE_HEADER = 'X-Has-More';

export const WALL_TEXT = {
  placeholder: 'Write something...',
  replyPlaceholder: COMMUNITY_MESSAGES.replyPlaceholder,
  olderComments: 'Older comments',
  loadMoreReplies: 'Load more',
  toIdInvalid: 'The selected wall is invalid.',
  parentInvalid: 'You can only reply to a comment on this wall.',
} as const;

const nullableId = z.preprocess(
  (v) => (v === '' || v === 0 || v === '0' || v === undefined ? null : v),
  z.coerce.number().int().positive().max(2_147_483_647).nullable(),
);

/** POST /profile-comments */
export const wallCommentSchema = z.object({
  body: z
    .string({ error: COMMUNITY_MESSAGES.bodyRequired })
    .trim()
    .min(1, COMMUNITY_MESSAGES.bodyRequired)
    .max(COMMUNITY.wallBodyMax, COMMUNITY_MESSAGES.bodyTooLong(COMMUNITY.wallBodyMax)),
  parent_id: nullableId.default(null),
  to_id: z.coerce
    .number({ error: WALL_TEXT.toIdInvalid })
    .int(WALL_TEXT.toIdInvalid)
    .positive(WALL_TEXT.toIdInvalid)
    .max(2_147_483_647, WALL_TEXT.toIdInvalid),
});
export type WallCommentInput = z.infer<typeof wallCommentSchema>;
