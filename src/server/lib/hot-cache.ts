import { AsyncLocalStorage } from 'node:async_hooks';
import { LRUCache } from 'lru-cache';
import type { StatementObserver } from '#server/db/client';

/**
 * The hot-read cache: hot pages answered from memory. A cached value remembers the tables
 * its load read (seen in the SQL it ran) and the moment it started; it is served only while none of
 * those tables has changed since. Changes are heard three ways:
 * - this process's own writes, from the SQL it runs (after each statement, and again when its
 *   transaction ends), so a member always reads their own write here; a member whose write was made
 *   by another process and not heard here yet reads the database (lib/own-writes.ts);
 * - other processes' and anyone else's writes, from PostgreSQL's NOTIFY at commit (db/change-feed.ts);
 *   while that feed is down the cache is bypassed, and it starts empty when the feed is back;
 * - changes outside SQL (Redis sessions signed out) through `changed()`, published the same way.
 * Entries also expire (time-dependent answers: an entitlement's end, a show's start), and the whole
 * cache is bounded in entries and bytes.
 */
export interface ReadScope {
  /** the change counter when the load started */
  seq: number;
  tables: Set<string>;
}

interface Entry {
  value: unknown;
  seq: number;
  tables: string[];
  expires: number;
}

export interface HotCacheOptions {
  enabled: boolean;
  /** the entries' total size: characters of string values, bytes of buffers, 512 for anything else */
  maxSize?: number;
  maxEntries?: number;
  /** tell the other processes (the change feed); the local bump has already happened */
  publish?: (tables: string[]) => Promise<void>;
}

// drizzle quotes table names; hand-written SQL may not
const WRITES = /\b(?:insert\s+into|update|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?/gi;
const READS = /\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi;
/** statements that may change any table (or several at once): everything is forgotten */
const SWEEPING = /^\s*(?:truncate|alter|drop|create|copy|do)\b/i;

const SWEEP_EVERY_MS = 1000;

export class HotCache implements StatementObserver {
  /** counts changes; a value is good while none of its tables changed after its `seq` */
  private seq = 1;
  private clearedAt = 0;
  private readonly changedAt = new Map<string, number>();
  private readonly entries: LRUCache<string, Entry>;
  private readonly scope = new AsyncLocalStorage<ReadScope>();
  /** loads running now (`track`) */
  private loading = 0;
  /** tables written inside each open transaction, changed again when it ends */
  private readonly transactions = new WeakMap<object, Set<string>>();
  private live: boolean;
  private nextSweep = 0;
  readonly stats = { hits: 0, misses: 0, stores: 0 };

  constructor(private readonly opts: HotCacheOptions) {
    this.live = opts.enabled;
    this.entries = new LRUCache<string, Entry>({
      max: opts.maxEntries ?? 5000,
      maxSize: opts.maxSize ?? 16 * 1024 * 1024,
      sizeCalculation: (e) =>
        Math.max(1, typeof e.value === 'string' || Buffer.isBuffer(e.value) ? e.value.length : 512),
    });
  }

  /** serving from memory now (enabled, and the change feed, where there is one, is listening) */
  get active(): boolean {
    return this.opts.enabled && this.live;
  }

  /** the change feed is listening (again): start empty */
  feedUp() {
    this.clear();
    this.live = this.opts.enabled;
  }

  /** the change feed is lost: bypass the cache until it is back */
  feedDown() {
    this.live = false;
    this.clear();
  }

  clear() {
    this.clearedAt = ++this.seq;
    this.changedAt.clear();
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }

  /** tables changed here: forget what read them, and tell the other processes */
  changed(tables: string[]) {
    this.bump(tables);
    if (this.opts.publish) void this.opts.publish(tables).catch(() => undefined);
  }

  /** a table changed (a write here or in another process) */
  bump(tables: Iterable<string>) {
    const at = ++this.seq;
    for (const t of tables) this.changedAt.set(t.toLowerCase(), at);
  }

  lookup<T>(key: string): T | undefined {
    if (!this.active) return undefined;
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (!this.fresh(e.seq, e.tables) || e.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.stats.hits++;
    return e.value as T;
  }

  /** start a load: what it reads is recorded until `track`'s function settles */
  begin(): ReadScope {
    this.stats.misses++;
    return { seq: this.seq, tables: new Set() };
  }

  track<T>(scope: ReadScope, fn: () => Promise<T>): Promise<T> {
    this.loading++;
    let load: Promise<T>;
    try {
      load = this.scope.run(scope, fn);
    } catch (err) {
      this.loaded();
      throw err;
    }
    return load.finally(() => this.loaded());
  }

  /**
   * A load settled. When none is left, the async context is switched off: on Node 20 an
   * AsyncLocalStorage that is on hooks every promise the process makes (a Fastify route answering
   * from memory serves visibly fewer requests/s with one on), and a read answered from
   * memory needs none. The next load's `run` switches it on again. Never while a load runs, so no
   * load loses track of what it reads.
   */
  private loaded() {
    if (--this.loading === 0) this.scope.disable();
  }

  /** keep a loaded value, unless something it read changed while it loaded */
  store(key: string, scope: ReadScope, value: unknown, ttlMs: number) {
    if (!this.active || scope.tables.size === 0) return;
    const tables = [...scope.tables];
    if (!this.fresh(scope.seq, tables)) return;
    const now = Date.now();
    this.sweep(now);
    this.entries.set(key, { value, seq: scope.seq, tables, expires: now + ttlMs });
    this.stats.stores++;
  }

  /**
   * Drops every entry that can no longer be served (expired, or a table it read has changed), at most
   * once a second. `lookup` drops such an entry only when its key is asked for again, and most keys
   * are not (a member's page, a session that signed out): without the sweep the dead entries would
   * fill the size bound, which is there for bursts, and hold that memory for good.
   */
  private sweep(now: number) {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    const dead: string[] = [];
    for (const [key, e] of this.entries.entries()) if (e.expires <= now || !this.fresh(e.seq, e.tables)) dead.push(key);
    for (const key of dead) this.entries.delete(key);
  }

  /** read through: the cached value, or `load`'s (then kept); `fresh`: load whatever is kept */
  async read<T>(
    key: string,
    ttlMs: number,
    load: () => Promise<T>,
    extraTables: string[] = [],
    fresh = false,
  ): Promise<T> {
    const hit = fresh ? undefined : this.lookup<T>(key);
    if (hit !== undefined) return hit;
    if (!this.active) return load();
    const scope = this.begin();
    for (const t of extraTables) scope.tables.add(t);
    const value = await this.track(scope, load);
    if (value !== undefined) this.store(key, scope, value, ttlMs);
    return value;
  }

  private fresh(seq: number, tables: string[]) {
    if (seq < this.clearedAt) return false;
    for (const t of tables) if ((this.changedAt.get(t) ?? 0) > seq) return false;
    return true;
  }

  // ---- StatementObserver: the SQL this process runs (db/client.ts)

  query(text: string) {
    const scope = this.scope.getStore();
    if (!scope) return;
    for (const m of text.matchAll(READS)) scope.tables.add(m[1]!.toLowerCase());
  }

  ran(conn: object, text: string) {
    const head = text.trimStart().slice(0, 8).toLowerCase();
    if (head.startsWith('begin') || head.startsWith('start')) {
      this.transactions.set(conn, new Set());
      return;
    }
    if (head.startsWith('commit') || head.startsWith('rollback') || head.startsWith('end')) {
      const written = this.transactions.get(conn);
      this.transactions.delete(conn);
      if (written?.size) this.bump(written);
      return;
    }
    if (SWEEPING.test(text)) {
      this.clear();
      return;
    }
    let written: string[] | null = null;
    for (const m of text.matchAll(WRITES)) (written ??= []).push(m[1]!.toLowerCase());
    if (!written) return;
    this.bump(written);
    const open = this.transactions.get(conn);
    if (open) for (const t of written) open.add(t);
  }
}
