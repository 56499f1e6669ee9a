/**
 * The reference for the chat fan-out benchmark: a bare `ws` server. POST /send with a body makes it
 * send those bytes, as they are, to every connected WebSocket client; nothing else (no rooms, no
 * sessions, no database). Started as its own process, like the app.
 * Usage: tsx bench/bare-ws.ts <port>
 */
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const port = Number(process.argv[2]);
const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/send') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const frame = Buffer.concat(chunks).toString('utf8');
      for (const client of wss.clients) client.send(frame);
      res.end('{"ok":true}');
    });
    return;
  }
  res.end('ok');
});
const wss = new WebSocketServer({ server });
server.listen(port, '127.0.0.1');
// a normal exit on SIGTERM, so that a CPU profile (--cpu-prof in NODE_OPTIONS) is written
process.on('SIGTERM', () => process.exit(0));
