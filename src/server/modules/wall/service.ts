import type { CommunityDeps } from '#server/modules/community-deps';

/** (issue 5) */
export function createWallService(deps: CommunityDeps) {
  void deps;
  return {};
}
export type WallService = ReturnType<typeof createWallService>;
