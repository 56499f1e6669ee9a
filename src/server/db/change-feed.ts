import pg from 'pg';
import { CHANGES_CHANNEL } from './client.ts';

export interface ChangeFeed {
  /** tell every listening process (this one included) that these tables changed */
  publish(tables: string[]): Promise<void>;
  /**
   * Put a marker holding PostgreSQL's WAL position of this moment into the feed: a process that
   * hears it has heard every change committed before that position (lib/own-writes.ts).
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface ChangeFeedEvents {
  /** a table changed (committed), in any process */
  changed(table: string): void;
  /** listening (again): anything may have changed while the feed was down */
  up(): void;
  /** the feed's connection is lost: changes made now are not heard until `up` */
  down(err: Error): void;
  /** a marker arrived (`sync`, from any process): every change committed before `position` has been heard */
  heard?(position: string): void;
}

/** a marker's payload starts with this, which no table name does */
const MARKER = '@';

/**
 * LISTEN on PostgreSQL's change channel (db/client.ts's triggers NOTIFY it at every commit that
 * wrote a table) over one dedicated connection, reconnecting by itself after PostgreSQL restarts.
 */
export function listenForChanges(url: string, events: ChangeFeedEvents, retryMs = 1000): ChangeFeed {
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let live = false;

  const lost = (err: Error) => {
    const c = client;
    client = null;
    if (c) c.removeAllListeners('notification');
    c?.end().catch(() => undefined);
    if (live) events.down(err);
    live = false;
    if (!closed && !timer) {
      timer = setTimeout(() => {
        timer = null;
        void connect();
      }, retryMs);
      timer.unref();
    }
  };

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    c.on('error', (err) => lost(err));
    c.on('end', () => {
      if (client === c) lost(new Error('change feed connection ended'));
    });
    c.on('notification', (msg) => {
      if (msg.channel !== CHANGES_CHANNEL || !msg.payload) return;
      if (msg.payload.startsWith(MARKER)) events.heard?.(msg.payload.slice(MARKER.length));
      else events.changed(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      c.removeAllListeners('end');
      client = c;
      lost(err as Error);
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    live = true;
    events.up();
  };
  void connect();

  return {
    async publish(tables) {
      const c = client;
      if (!c) return;
      for (const t of tables) await c.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, t]);
    },
    async sync() {
      const c = client;
      if (!c) return;
      // the position is read before this statement's notification is queued (at its commit)
      await c.query(`SELECT pg_notify($1, $2 || pg_current_wal_insert_lsn()::text)`, [CHANGES_CHANNEL, MARKER]);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      live = false;
      if (c) {
        c.removeAllListeners('end');
        await c.end().catch(() => undefined);
      }
    },
  };
}
