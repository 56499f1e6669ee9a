import type { CommunityDeps } from '#server/modules/community-deps';

/** (issue 5) */
export function createLiveService(deps: CommunityDeps) {
  void deps;
  return {};
}
export type LiveService = ReturnType<typeof createLiveService>;
