/**
 * The reference for the community read benchmark: a bare Fastify route answering, from memory, the
 * exact bytes (and content type) the real route answered. Started as its own process, like the app.
 * Usage: tsx bench/bare-server.ts <port> <file with the body> ...
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, ...files] = process.argv.slice(2);
const bodies = files.map((f) => readFileSync(f));
const app = Fastify({ logger: false });
bodies.forEach((body, i) => {
  app.get(`/bare/${i}`, (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
});
app.get('/healthz', () => ({ ok: true }));
await app.listen({ port: Number(port), host: '127.0.0.1' });
