import type { Database } from '#server/db/client';
import type { RateLimiters } from '#server/lib/rate-limits';
import type { Storage } from '#server/lib/storage';
import type { NotificationService } from '#server/modules/notifications/index';
import type { Realtime } from '#server/modules/realtime/index';
import type { RewardsService } from '#server/modules/rewards/index';
import type { UserService } from '#server/modules/users/index';

/** What the community services (posts, forums, live, wall, reports) are built from at start-up. */
export interface CommunityDeps {
  db: Database;
  users: UserService;
  notifications: NotificationService;
  realtime: Realtime;
  rewards: RewardsService;
  storage: Storage;
  limiters: RateLimiters;
  fileBaseUrl: string;
}
