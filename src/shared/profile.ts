import { z } from './zod.ts';
import { errorResponseSchema } from './http.ts';

export const FRIEND_STATUSES = ['notfriends', 'pending', 'incoming', 'friends'] as const;
export type FriendStatus = (typeof FRIEND_STATUSES)[number];

/** A member's profile as GET /api/profiles/{slug} answers it (the profile page and the thread's hover card). */
export const profileDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  avatar_url: z.string(),
  admin: z.boolean(),
  stage: z.object({ id: z.number(), title: z.string() }).nullable(),
  status: z.string().nullable(),
  status_updated_at: z.string().nullable(),
  is_owner: z.boolean(),
  member_since: z.string(),
  /** null on the viewer's own profile */
  friendship: z.object({ status: z.enum(FRIEND_STATUSES), relationship_id: z.number().nullable() }).nullable(),
});
export type ProfileDto = z.infer<typeof profileDtoSchema>;
export const profileResponseSchema = z.object({ data: profileDtoSchema });

/** one person on the friends page (docs/product/friends.md) */
export const friendItemSchema = z.object({
  relationship_id: z.number(),
  id: z.number(),
  name: z.string(),
  profile_url: z.string(),
  avatar_url: z.string(),
});
export type FriendItem = z.infer<typeof friendItemSchema>;

/** GET /api/friends: accepted friends, requests to the member, requests from them */
export const friendsResponseSchema = z.object({
  data: z.object({
    friends: z.array(friendItemSchema),
    incoming: z.array(friendItemSchema),
    outgoing: z.array(friendItemSchema),
  }),
});
export type FriendsResponse = z.infer<typeof friendsResponseSchema>;

/** the friend button's calls (POST and DELETE /friends, POST /friends/{id}/request): where the two stand now */
export const friendAnswerSchema = z.object({
  relationship_id: z.number().nullable(),
  status: z.enum(FRIEND_STATUSES),
});
export type FriendAnswer = z.infer<typeof friendAnswerSchema>;

/** POST /account/avatar/upload: the new picture's address */
export const avatarUploadResponseSchema = z.object({ avatar: z.string() });
export type AvatarUploadResponse = z.infer<typeof avatarUploadResponseSchema>;

/**
 * POST /dashboard/upload-image: `response` is "ok" with the new picture's address; a refused file is a
 * 422 whose `response` holds the sentence the modal shows besides the usual message and errors (the
 * 422 schema also writes any other 422 of the route, which has no `response`).
 */
export const profileImageResponseSchema = z.object({ response: z.literal('ok'), avatar: z.string() });
export const profileImageRefusedSchema = errorResponseSchema.extend({ response: z.string().optional() });
export type ProfileImageAnswer = z.infer<typeof profileImageResponseSchema> | z.infer<typeof profileImageRefusedSchema>;
