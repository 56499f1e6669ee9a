import type { Database } from '#server/db/client';
import type { LiveService } from '#server/modules/live/index';
import type { UserService } from '#server/modules/users/index';

/** What the console's community pages are built from: each use case takes it first. */
export interface AdminCommunityContext {
  db: Database;
  users: UserService;
  live: LiveService;
}
