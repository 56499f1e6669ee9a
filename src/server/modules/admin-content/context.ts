import type { Database } from '#server/db/client';

/** What the console's content pages are built from: each use case takes it first. */
export interface AdminContentContext {
  db: Database;
}
