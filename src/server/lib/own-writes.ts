import { hmac, randomToken, safeEqual } from './crypto.ts';

/** the cookie that carries a browser's last write: `<process>.<WAL position>.<signature>` */
export const WROTE_COOKIE = 'bb_wrote';

export interface OwnWritesOptions {
  secret: string;
  /** PostgreSQL's WAL position at the moment (pg_current_wal_insert_lsn), read after a write committed */
  position: () => Promise<bigint>;
  /** put a position marker into the change feed (db/change-feed.ts `sync`) */
  sync: () => Promise<void>;
}

/** PostgreSQL's `X/Y` WAL position as one number */
export function walPosition(text: string): bigint {
  const [hi, lo] = text.split('/');
  if (!hi || !lo || !/^[0-9A-F]{1,8}$/i.test(hi) || !/^[0-9A-F]{1,8}$/i.test(lo))
    throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * Read your own writes on any process (docs/product/read-your-writes.md). A process hears another
 * process's commits through the change feed, a moment after they happen; a member whose next read
 * lands on a process that has not heard their write yet must not be served a kept answer.
 *
 * - After a request that may have written, the answer carries the WAL position at that moment (a
 *   signed cookie, with the id of the process that wrote): every commit of that request is before it.
 * - Any process may put a marker holding the WAL position of the moment into the feed (`sync`). The
 *   feed is one queue in commit order, and a commit's changes are queued before its commit record is
 *   written, so once a process hears a marker it has heard every change committed before that position.
 * - A request whose mark is past what this process has heard through (and was written elsewhere: a
 *   process hears its own writes as it makes them) reads the database, not memory, and a marker
 *   is sent so that the member's later reads are served from memory again.
 */
export class OwnWrites {
  /** this process, in the marks it hands out */
  readonly process = randomToken(6);
  private heard = 0n;
  private syncing = false;
  private again = false;

  constructor(private readonly opts: OwnWritesOptions) {}

  /** the feed delivered a marker: everything committed before `position` has been heard */
  heardThrough(position: bigint) {
    if (position > this.heard) this.heard = position;
  }

  /** the cookie value for a request that wrote (its commits are done) */
  async mark(): Promise<string> {
    const value = `${this.process}.${await this.opts.position()}`;
    return `${value}.${this.sign(value)}`;
  }

  /**
   * The request carries a write this process may not have heard yet: it must read the database.
   * A marker is then sent (one at a time; one more if asked meanwhile) to catch up.
   */
  behind(cookie: string | undefined): boolean {
    if (!cookie || cookie.length > 100) return false;
    const [proc, pos, sig] = cookie.split('.');
    if (!proc || !pos || !sig || proc === this.process || !/^\d{1,20}$/.test(pos)) return false;
    if (BigInt(pos) <= this.heard) return false;
    if (!safeEqual(sig, this.sign(`${proc}.${pos}`))) return false;
    this.catchUp();
    return true;
  }

  private sign(value: string) {
    return hmac(this.opts.secret, `wrote:${value}`).slice(0, 22);
  }

  private catchUp() {
    // a marker already on its way may hold a position older than this request's mark: send one more after it
    if (this.syncing) {
      this.again = true;
      return;
    }
    this.syncing = true;
    this.opts
      .sync()
      .catch(() => undefined)
      .finally(() => {
        this.syncing = false;
        if (this.again) {
          this.again = false;
          this.catchUp();
        }
      });
  }
}
