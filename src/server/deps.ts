import { sql } from 'drizzle-orm';
import type { AppConfig } from './config.ts';
import { openDatabase, type Database, type DatabaseHandle } from './db/client.ts';
import { closeRedis, openRedis, RedisMonitor, type RedisClient, type RedisLog } from './lib/redis.ts';
import { databaseSessionStore, redisSessionStore, type SessionStore } from './lib/session-store.ts';
import { HotCache } from './lib/hot-cache.ts';
import { OwnWrites, walPosition } from './lib/own-writes.ts';
import { createRateLimiters, type RateLimiters } from './lib/rate-limits.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { createStorage } from './lib/storage.ts';
import { createJobs, type Jobs } from './lib/jobs.ts';
import { createRealtime, type Realtime } from './modules/realtime/index.ts';
import { createUserService } from './modules/users/index.ts';
import { createAuthService } from './modules/auth/index.ts';
import { createNotificationService } from './modules/notifications/index.ts';
import { createLearningService } from './modules/learning/index.ts';
import { createJournalService } from './modules/journal/index.ts';
import { createProfileService } from './modules/profile/index.ts';
import { createRewardsService } from './modules/rewards/index.ts';
import { createSongService } from './modules/songmapper/index.ts';
import { createMetronomeService } from './modules/metronome/index.ts';
import { createMail, type MailService } from './modules/mail/index.ts';
import type { CommunityDeps } from './modules/community-deps.ts';
import { createPostService } from './modules/posts/index.ts';
import { createForumService } from './modules/forums/index.ts';
import { createLiveService } from './modules/live/index.ts';
import { createWallService } from './modules/wall/index.ts';
import { createReportService } from './modules/reports/index.ts';
import { createPaymentsService } from './modules/payments/index.ts';
import { createProviders } from './modules/payments/index.ts';
import { createAuditService } from './modules/admin/index.ts';
import { createSettingsService } from './modules/admin/index.ts';
import { createUploadService } from './modules/uploads/index.ts';
import { createVideoService } from './modules/videos/index.ts';
import { createAdminContentService } from './modules/admin-content/index.ts';
import { createAdminCommunityService } from './modules/admin-community/index.ts';
import { createAdminMembersService } from './modules/admin-members/index.ts';
import { createAdminCommerceService } from './modules/admin-commerce/index.ts';
import { createSubscriptionRefunds } from './modules/admin-commerce/index.ts';
import { createBillingService } from './modules/billing/index.ts';
import { createCheckoutService } from './modules/checkout/index.ts';
import { createProductService } from './modules/products/index.ts';
import { createReceiptService } from './modules/receipts/index.ts';
import { createMentorshipService } from './modules/mentorship/index.ts';
import { createPracticePlanService } from './modules/practice-plan/index.ts';
import { createMentorshipCheckout } from './modules/mentorship-checkout/index.ts';

/** how long a start waits for Redis before it goes on without it (and keeps reconnecting) */
export const REDIS_START_WAIT_MS = 3000;

/**
 * Everything the routes use, built once at start-up from plain factories. A feature adds its
 * service here (one line) and its routes in modules/index.ts (one line).
 */
export async function createDeps(config: AppConfig, opts: { database?: DatabaseHandle; log: RedisLog }) {
  // Redis connects while the database opens
  const redisDeadline = Date.now() + REDIS_START_WAIT_MS;
  const redis: RedisClient | null = config.redisUrl ? await openRedis(config.redisUrl) : null;
  const redisMonitor =
    redis && config.redisUrl ? new RedisMonitor(redis, { url: config.redisUrl, log: opts.log }) : null;
  let database: DatabaseHandle;
  let started: Awaited<ReturnType<typeof startHotCache>>;
  try {
    database =
      opts.database ??
      (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.memoryDatabase ? null : config.dataDir }));
    started = await startHotCache(config, database);
  } catch (err) {
    if (redis) await closeRedis(redis); // a failed start must not leave a connection retrying
    throw err;
  }
  const db: Database = database.db;
  const { hotCache, ownWrites, closeFeed } = started;
  await redisMonitor?.start(Math.max(200, redisDeadline - Date.now()));
  const sessions: SessionStore =
    redis && redisMonitor
      ? redisSessionStore(
          redis,
          config.keyNamespace,
          () => hotCache.changed(['sessions']),
          () => redisMonitor.up,
        )
      : databaseSessionStore(db);
  // sessions kept in memory follow Redis: while it is away no member is served from memory (their
  // requests answer 503 like the store), and when it is back it may have lost them
  redisMonitor?.onChange(() => hotCache.bump(['sessions']));
  const limiters: RateLimiters = createRateLimiters({ redis, namespace: config.keyNamespace });
  const mailer: Mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.memoryDatabase ? null : config.dataDir,
    timeoutSeconds: config.mail.expireSeconds,
  });
  // durable background jobs: modules define theirs while the app is built; they run once it listens
  const jobs: Jobs = createJobs({ database, log: opts.log, pollSeconds: config.jobsPollSeconds });
  const realtime: Realtime = createRealtime();
  const storage = createStorage(config.dataDir);
  const fileBaseUrl = '/files';
  const users = createUserService({ db, fileBaseUrl });
  // every mail is a background job: modules call mail.send(kind, to, data) (docs/mail.md)
  const mail: MailService = createMail({ db, jobs, mailer, users, config, log: opts.log });
  const notifications = createNotificationService({ db, realtime, mail });
  const rewards = createRewardsService({ db, realtime });
  const settings = createSettingsService({ db });
  const community: CommunityDeps = { db, users, notifications, realtime, rewards, storage, limiters, fileBaseUrl };
  const payments = createPaymentsService({ db, users, notifications, ...createProviders(config, { db }) });
  const live = createLiveService(community);
  const uploads = createUploadService({ db, storage });
  const services = {
    users,
    settings,
    audit: createAuditService({ db }),
    auth: createAuthService({ db, users, sessions, mail, appUrl: config.appUrl }),
    notifications,
    profile: createProfileService({ db, users, notifications }),
    rewards,
    learning: createLearningService({ db }),
    journal: createJournalService({ db }),
    songs: createSongService({ db }),
    metronome: createMetronomeService({ db }),
    posts: createPostService(community),
    forums: createForumService(community),
    live,
    wall: createWallService(community),
    reports: createReportService(community),
    payments,
    uploads,
    videos: createVideoService({ db, storage, uploads, notifications }),
    adminContent: createAdminContentService({ db }),
    adminCommunity: createAdminCommunityService({ db, users, live }),
    adminMembers: createAdminMembersService({ db, users, sessions, realtime }),
    adminCommerce: createAdminCommerceService({ db, payments, users }),
    subscriptionRefunds: createSubscriptionRefunds({ db, payments }),
    billing: createBillingService({ db, payments, users }),
    checkout: createCheckoutService({ db, payments }),
    products: createProductService({ db, payments, users }),
    receipts: createReceiptService({ db }),
    mentorship: createMentorshipService({ db, users, notifications }),
    mentorshipCheckout: createMentorshipCheckout({ db, payments, notifications, jobs, log: opts.log }),
    practicePlans: createPracticePlanService({ db, realtime, users, notifications }),
  };
  return {
    config,
    db,
    database,
    redis,
    redisMonitor,
    sessions,
    hotCache,
    ownWrites,
    limiters,
    mailer,
    mail,
    jobs,
    realtime,
    fileBaseUrl,
    storage,
    services,
    async close() {
      await jobs.stop();
      database.observers.delete(hotCache);
      await closeFeed();
      redisMonitor?.stop();
      if (redis) await closeRedis(redis);
      if (!opts.database) await database.close();
    },
  };
}
/**
 * The hot-read cache hears this process's SQL; on PostgreSQL it also listens for every commit's
 * changed tables (other processes, psql), and serves nothing until that feed is listening.
 */
async function startHotCache(config: AppConfig, database: DatabaseHandle) {
  if (!config.hotCache || database.kind === 'pglite' || !database.url) {
    const hotCache = new HotCache({ enabled: config.hotCache });
    database.observers.add(hotCache);
    return { hotCache, ownWrites: null, closeFeed: async () => undefined };
  }
  const { listenForChanges } = await import('./db/change-feed.ts');
  let publish: (tables: string[]) => Promise<void> = async () => undefined;
  const hotCache = new HotCache({ enabled: true, publish: (tables) => publish(tables) });
  hotCache.feedDown();
  database.observers.add(hotCache);
  let sync: () => Promise<void> = async () => undefined;
  // another process's writes reach memory through the feed, a moment late: a member reads their own (lib/own-writes.ts)
  const ownWrites: OwnWrites | null = new OwnWrites({
    secret: config.sessionSecret,
    position: async () => {
      const result = await database.db.execute(sql`select pg_current_wal_insert_lsn()::text as lsn`);
      return walPosition((result as unknown as { rows: { lsn: string }[] }).rows[0]!.lsn);
    },
    sync: () => sync(),
  });
  const feed = listenForChanges(database.url, {
    changed: (table) => hotCache.bump([table]),
    up: () => hotCache.feedUp(),
    down: () => hotCache.feedDown(),
    heard: (position) => {
      // anyone may NOTIFY the channel: a marker that is not a position is ignored
      if (/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i.test(position)) ownWrites.heardThrough(walPosition(position));
    },
  });
  publish = (tables) => feed.publish(tables);
  sync = () => feed.sync();
  return { hotCache, ownWrites, closeFeed: () => feed.close() };
}

export type AppDeps = Awaited<ReturnType<typeof createDeps>>;

// declared here, beside what it describes: types.ts (which every module imports) then imports
// nothing that builds the services, so no import leads from a module back to all the others
declare module 'fastify' {
  interface FastifyInstance {
    /** the services and clients built once at start-up (createDeps) */
    deps: AppDeps;
  }
}
