import type { CommunityDeps } from '#server/modules/community-deps';

/** (issue 5) */
export function createForumService(deps: CommunityDeps) {
  void deps;
  return {};
}
export type ForumService = ReturnType<typeof createForumService>;
