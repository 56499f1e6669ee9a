import type { CommunityDeps } from '#server/modules/community-deps';

/** (issue 5) */
export function createReportService(deps: CommunityDeps) {
  void deps;
  return {};
}
export type ReportService = ReturnType<typeof createReportService>;
