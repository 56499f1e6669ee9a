/** A member's profile as GET /api/profiles/{slug} answers it (the profile page and the thread's hover card). */
export type FriendStatus = 'notfriends' | 'pending' | 'incoming' | 'friends';
export interface ProfileDto {
  id: number;
  name: string;
  slug: string;
  avatar_url: string;
  admin: boolean;
  stage: { id: number; title: string } | null;
  status: string | null;
  status_updated_at: string | null;
  is_owner: boolean;
  member_since: string;
  friendship: { status: FriendStatus; relationship_id: number | null } | null;
}
