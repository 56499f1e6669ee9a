/**
 * Preloaded into the app process that the cold-read bench captures SQL from (`node --import`, through
 * NODE_OPTIONS; not into the processes whose speed is read, since it writes a file per statement): every statement the app sends through `pg` is appended
 * to the file named by BENCH_SQL_CAPTURE as one JSON line { text, values, rowMode, name }, in the order
 * sent (`name`: a named prepared statement's, src/server/db/client.ts `prepared`).
 * bench/bare-sql-server.ts replays a page's statements as that page's bare SQL reference.
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const file = process.env.BENCH_SQL_CAPTURE;
if (file) {
  const pg = createRequire(import.meta.url)('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, values, ...rest) {
    const text = typeof config === 'string' ? config : config?.text;
    if (typeof text === 'string') {
      const params = Array.isArray(values) ? values : typeof config === 'object' ? config.values : undefined;
      const rowMode = typeof config === 'object' ? config.rowMode : undefined;
      const name = typeof config === 'object' ? config.name : undefined;
      appendFileSync(file, JSON.stringify({ text, values: params ?? [], rowMode, name }) + '\n');
    }
    return query.call(this, config, values, ...rest);
  };
}
