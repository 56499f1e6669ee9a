/**
 * The cold-read benchmark's database reference: a bare Fastify route per page that runs, through its
 * own `pg` pool, the statements the app ran for one answer of that page (captured by
 * bench/sql-capture.mjs: the same text, parameters, row mode and prepared statement's name, one after
 * the other as the app sent them, on one connection) and sends every statement's rows as JSON. Nothing is kept between requests, so it costs what
 * the database costs for that page plus a minimal HTTP route. Started as its own process, like the app.
 * Usage: tsx bench/bare-sql-server.ts <port> <database url> <statements file: JSON, one list per page>
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

export interface CapturedStatement {
  text: string;
  values: unknown[];
  rowMode?: 'array';
  /** a named prepared statement, parsed once per connection as the app's are */
  name?: string;
}

const [port, databaseUrl, file] = process.argv.slice(2);
const pages = JSON.parse(readFileSync(file!, 'utf8')) as CapturedStatement[][];
// the app's pool size (src/server/db/client.ts)
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const app = Fastify({ logger: false });
pages.forEach((statements, i) => {
  app.get(`/sql/${i}`, async (_req, reply) => {
    const results: unknown[] = [];
    // one connection for the page, so that a captured transaction (begin … commit) stays on one
    const client = await pool.connect();
    try {
      for (const s of statements) {
        const named = s.name ? { name: s.name } : {};
        const result =
          s.rowMode === 'array'
            ? await client.query({ ...named, text: s.text, values: s.values, rowMode: 'array' })
            : await client.query({ ...named, text: s.text, values: s.values });
        results.push(result.rows);
      }
    } finally {
      client.release();
    }
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(results));
  });
});
app.get('/healthz', () => ({ ok: true }));
await app.listen({ port: Number(port), host: '127.0.0.1' });
