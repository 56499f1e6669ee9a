import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClient } from './redis.ts';
import { tooManyRequests } from './errors.ts';

/**
 * Every abuse limit in one place (points per duration in seconds). Loosely after Discourse's
 * defaults (max_logins_per_ip_per_minute, rate_limit_create_post...). With REDIS_URL the counters
 * live in Redis, so they hold across app processes.
 */
export const RATE_LIMITS = {
  loginPerIp: { points: 20, duration: 60 },
  /**
   * Wrong passwords for one account from one place: an address, or a browser that signed in to the
   * account before (auth/device.ts). The 10th within 15 minutes of the first shuts that place out of
   * that account for LOGIN_THROTTLE.pairBlockSeconds; everyone else, the owner included, goes on.
   */
  loginFailuresPerPair: { points: 10, duration: 15 * 60 },
  /**
   * Wrong passwords for one account from anywhere, within an hour of the first. Once 10 are counted,
   * attempts on the account from browsers it does not know take turns (loginSlowdownPerAccount).
   */
  loginFailuresPerAccount: { points: 10, duration: 60 * 60 },
  /** the account's turn: one attempt, then the next waits loginSpacingSeconds (the duration is set per turn) */
  loginSlowdownPerAccount: { points: 1, duration: 1 },
  registerPerIp: { points: 20, duration: 60 * 60 },
  passwordResetPerIp: { points: 10, duration: 60 * 60 },
  passwordResetPerEmail: { points: 3, duration: 60 * 60 },
  /** the reset page asks whether its link still works as it opens */
  passwordResetCheckPerIp: { points: 30, duration: 10 * 60 },
  adminNotificationsPerUser: { points: 120, duration: 60 },
  uploadsPerUser: { points: 30, duration: 10 * 60 },
  friendRequestsPerUser: { points: 30, duration: 60 * 60 },
  contactPerUser: { points: 5, duration: 60 * 60 },
  diagnosticPerIp: { points: 10, duration: 60 * 60 },
  /** new songs (autosave of an existing song is not limited) */
  songsPerUser: { points: 60, duration: 60 * 60 },
  /** the public PDF share link renders on the server */
  songPdfPerIp: { points: 60, duration: 60 },
  /** community: Discourse allows a post every few seconds and caps new topics per day */
  postsPerUser: { points: 20, duration: 60 },
  topicsPerUser: { points: 10, duration: 60 * 60 },
  likesPerUser: { points: 120, duration: 60 },
  /** live chat: a burst of 5 messages, then about one per 2 seconds; a flood is refused, not queued */
  chatPerUser: { points: 5, duration: 10 },
  /**
   * live chat: everyone in one show together, about ten messages a second, so a crowd of thousands cannot
   * scroll the chat faster than people read it; the show's hosts (admins) are never held back
   */
  chatPerShow: { points: 100, duration: 10 },
  heartsPerUser: { points: 60, duration: 60 },
  wallCommentsPerUser: { points: 10, duration: 60 },
  reportsPerUser: { points: 20, duration: 60 * 60 },
  /** membership checkout: paying calls and card setups per member */
  checkoutPerUser: { points: 40, duration: 10 * 60 },
  /** uploads and practice videos: new chunked sessions, chunk requests (a 1 GB video is 1,024 chunks, plus retries), submissions, feedback */
  uploadSessionsPerUser: { points: 30, duration: 60 * 60 },
  uploadChunksPerUser: { points: 5000, duration: 10 * 60 },
  videoSubmissionsPerUser: { points: 20, duration: 60 * 60 },
  videoFeedbackPerUser: { points: 120, duration: 10 * 60 },
  /** practice plan autosaves: 200 ms after typing stops, so a few a second at most */
  practicePlanSavesPerUser: { points: 300, duration: 60 },
  /** mentorship accountability links: new links per signed-in user (labels are not limited) */
  accountabilityLinksPerUser: { points: 30, duration: 10 * 60 },
  /**
   * Per address: the same actions counted by the address they come from, so one machine
   * cannot spread a flood over many accounts. Looser than the per-member limits, as members behind
   * one school or venue network share an address.
   */
  postsPerIp: { points: 60, duration: 60 },
  chatPerIp: { points: 30, duration: 10 },
  heartsPerIp: { points: 240, duration: 60 },
  wallCommentsPerIp: { points: 30, duration: 60 },
  likesPerIp: { points: 360, duration: 60 },
  uploadsPerIp: { points: 90, duration: 10 * 60 },
  uploadChunksPerIp: { points: 15_000, duration: 10 * 60 },
  contactPerIp: { points: 10, duration: 60 * 60 },
  /** reports of an accessibility barrier: open to visitors, so counted by address */
  barrierReportsPerIp: { points: 5, duration: 60 * 60 },
  reportsPerIp: { points: 60, duration: 60 * 60 },
  /**
   * unsubscribe links (read and used): a mail provider's one-click unsubscribe comes from its own few
   * servers for many members, so the limit is per address but generous
   */
  unsubscribePerIp: { points: 60, duration: 60 },
} as const;
export type RateLimitName = keyof typeof RATE_LIMITS;

/**
 * Sign-in throttling after OWASP's Authentication Cheat Sheet: wrong passwords are counted per
 * account and place (blocked for a while) and per account (slowed down, never blocked), so guessing
 * from one place stops there, guessing from many places gets one try per interval on the account,
 * and nobody keeps the owner out for longer than the capped interval.
 */
export const LOGIN_THROTTLE = {
  /** how long an account and place stay shut out after loginFailuresPerPair.points wrong passwords */
  pairBlockSeconds: 15 * 60,
  /** the account's interval between attempts at its loginFailuresPerAccount.points-th wrong password; doubles with each further one */
  firstSpacingSeconds: 1,
  maxSpacingSeconds: 30,
} as const;

/** The interval an account's wrong passwords (within the hour) impose between its next attempts: 0, then 1, 2, 4, 8, 16, 30, 30... seconds. */
export function loginSpacingSeconds(failures: number): number {
  const free = RATE_LIMITS.loginFailuresPerAccount.points;
  if (failures < free) return 0;
  return Math.min(LOGIN_THROTTLE.maxSpacingSeconds, LOGIN_THROTTLE.firstSpacingSeconds * 2 ** (failures - free));
}

/**
 * Which calls count against a per-address limit (checked for every request to them, signed in or
 * not, before the body is validated: plugins/address-limits.ts). The per-member limits are consumed
 * by the features themselves, where the member is known. Sign-in and registration are per address
 * by nature (loginPerIp, registerPerIp), and sign-in failures per account and place
 * (loginFailuresPerPair, loginFailuresPerAccount: auth/throttle.ts).
 */
export const ADDRESS_LIMITS: Record<string, RateLimitName> = {
  'POST /posts': 'postsPerIp',
  'POST /api/forums/:slug/topics': 'postsPerIp',
  'POST /live-chat/messages': 'chatPerIp',
  'POST /live-chat/toggle-heart': 'heartsPerIp',
  'POST /profile-comments': 'wallCommentsPerIp',
  'POST /toggle-like': 'likesPerIp',
  'POST /forums/api/likes/topics/toggle': 'likesPerIp',
  'POST /attachments': 'uploadsPerIp',
  'POST /dashboard/upload-image': 'uploadsPerIp',
  'POST /account/avatar/upload': 'uploadsPerIp',
  'POST /uploads': 'uploadsPerIp',
  'POST /uploads/chunked': 'uploadChunksPerIp',
  'POST /mentorship/videos': 'uploadsPerIp',
  'POST /mentorship/videos/:id/captions': 'uploadsPerIp',
  'POST /api/admin/images': 'uploadsPerIp',
  'POST /contact/send': 'contactPerIp',
  'POST /accessibility/barriers': 'barrierReportsPerIp',
  'POST /api/reports': 'reportsPerIp',
  'GET /api/password/reset/:token': 'passwordResetCheckPerIp',
  'GET /api/unsubscribe/:token': 'unsubscribePerIp',
  'POST /api/unsubscribe/:token': 'unsubscribePerIp',
};

export interface RateLimiters {
  /** consume points; throws a 429 AppError (with Retry-After) when the limit is exceeded */
  consume(name: RateLimitName, key: string, points?: number): Promise<void>;
  /** true when the key is already over the limit (without consuming) */
  isBlocked(name: RateLimitName, key: string): Promise<number | null>;
  reset(name: RateLimitName, key: string): Promise<void>;
  /** the points counted for the key in its current window (0 when none) */
  counted(name: RateLimitName, key: string): Promise<number>;
  /** count one point, never refusing; the points counted in the window, this one included */
  count(name: RateLimitName, key: string): Promise<number>;
  /** refuse the key for `seconds` (isBlocked reports the time left) */
  block(name: RateLimitName, key: string, seconds: number): Promise<void>;
  /** take the key's turn for `seconds`: null when this caller got it, else the seconds until the next turn */
  takeTurn(name: RateLimitName, key: string, seconds: number): Promise<number | null>;
}

export function createRateLimiters(opts: { redis: RedisClient | null; namespace: string }): RateLimiters {
  const limiters = new Map<RateLimitName, RateLimiterAbstract>();
  for (const [name, rule] of Object.entries(RATE_LIMITS) as [RateLimitName, { points: number; duration: number }][]) {
    const keyPrefix = `${opts.namespace}:rl:${name}`;
    limiters.set(
      name,
      opts.redis
        ? // while Redis is down, count in this process's memory instead (refused at once, not waited for)
          new RateLimiterRedis({
            storeClient: opts.redis,
            useRedisPackage: true,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory({ keyPrefix, ...rule }),
            keyPrefix,
            ...rule,
          })
        : new RateLimiterMemory({ keyPrefix, ...rule }),
    );
  }
  const get = (name: RateLimitName) => limiters.get(name)!;
  return {
    async consume(name, key, points = 1) {
      try {
        await get(name).consume(key.toLowerCase(), points);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw tooManyRequests(err.msBeforeNext / 1000);
        throw err;
      }
    },
    async isBlocked(name, key) {
      const res = await get(name).get(key.toLowerCase());
      if (res && res.consumedPoints >= RATE_LIMITS[name].points) return res.msBeforeNext / 1000;
      return null;
    },
    async reset(name, key) {
      await get(name).delete(key.toLowerCase());
    },
    async counted(name, key) {
      return (await get(name).get(key.toLowerCase()))?.consumedPoints ?? 0;
    },
    async count(name, key) {
      return (await get(name).penalty(key.toLowerCase(), 1)).consumedPoints;
    },
    async block(name, key, seconds) {
      await get(name).block(key.toLowerCase(), seconds);
    },
    async takeTurn(name, key, seconds) {
      // one atomic increment: of callers arriving together, exactly one sees the first point
      const res = await get(name).penalty(key.toLowerCase(), 1, { customDuration: seconds });
      return res.consumedPoints === 1 ? null : res.msBeforeNext / 1000;
    },
  };
}
