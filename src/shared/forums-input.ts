import { z } from './zod.ts';
import { flag, idSchema } from './http.ts';
import { COMMUNITY } from './community.ts';
import { cleanDisplayText } from './display-text.ts';
import { FORUM_MESSAGES } from './forums.ts';

// The forum calls' request bodies (spec 001 §7 topic calls; issue 5). Apart from forums.ts: the forum
// pages import that module for its wording and types, and building these schemas reads FORUM_MESSAGES and
// COMMUNITY in their arguments, which the bundler must keep (a property read may run a getter), and with
// them zod (issue 9: the thread page's blocking time). Only the server validates with them.

const trimmed = (required: string, max: number, tooLong: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, tooLong);

/** POST /api/forums/{slug}/topics */
export const newTopicSchema = z.object({
  title: z.string({ error: FORUM_MESSAGES.titleRequired }).overwrite(cleanDisplayText).trim().min(1, FORUM_MESSAGES.titleRequired).max(COMMUNITY.topicTitleMax, FORUM_MESSAGES.titleTooLong),
  body: trimmed(FORUM_MESSAGES.bodyRequired, COMMUNITY.postBodyMax, FORUM_MESSAGES.bodyTooLong),
});
export type NewTopic = z.infer<typeof newTopicSchema>;

export const watchSchema = z.object({ watch: flag });
export const pinSchema = z.object({ pinned: flag });
export const lockSchema = z.object({ locked: flag });
export const moveSchema = z.object({
  category_id: z.coerce.number({ error: FORUM_MESSAGES.categoryRequired }).int(FORUM_MESSAGES.categoryInvalid).positive(FORUM_MESSAGES.categoryRequired).max(2_147_483_647, FORUM_MESSAGES.categoryInvalid),
});
export const topicLikeSchema = z.object({ model_id: idSchema });
