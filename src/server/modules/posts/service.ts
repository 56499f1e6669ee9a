import type { CommunityDeps } from '#server/modules/community-deps';

/** (issue 5) */
export function createPostService(deps: CommunityDeps) {
  void deps;
  return {};
}
export type PostService = ReturnType<typeof createPostService>;
