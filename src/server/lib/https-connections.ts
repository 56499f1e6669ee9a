import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { EventEmitter } from 'node:events';

/**
 * The connections of the HTTPS server (HTTP/2 with allowHTTP1), for graceful shutdown. Node's HTTP/1
 * server can close its kept-alive connections that sit between requests (closeIdleConnections); the
 * HTTP/2 server cannot, and Fastify closes HTTP/2 sessions only with forceCloseConnections (which would
 * also cut HTTP/1.1 requests in flight). An open HTTP/2 session held the process for 72 s, Fastify's
 * session timeout (tests/node/https.test.ts). This keeps them from the server's own events: the HTTP/2
 * sessions, and which HTTP/1.1 connections are between requests.
 */
export function trackHttpsConnections(server: EventEmitter) {
  const sessions = new Set<Http2Session>();
  const idle = new Set<Socket>();
  const busy = new Map<Socket, number>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  server.on('secureConnection', (socket: Socket & { alpnProtocol?: string | false }) => {
    if (socket.alpnProtocol === 'h2') return;
    idle.add(socket);
    socket.once('close', () => {
      idle.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.httpVersionMajor !== 1) return;
    const socket = req.socket;
    idle.delete(socket);
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0) return void busy.set(socket, left);
      busy.delete(socket);
      if (!socket.destroyed) idle.add(socket);
    });
  });
  return {
    /**
     * Ends what is not serving a request: HTTP/1.1 connections between requests, and every HTTP/2
     * session gracefully (GOAWAY: the client opens a new connection for its next request, its streams
     * in flight finish first).
     */
    closeIdle() {
      for (const socket of idle) socket.destroy();
      idle.clear();
      for (const session of sessions) if (!session.closed) session.close();
    },
    /** ends every connection */
    closeAll() {
      for (const socket of [...idle, ...busy.keys()]) socket.destroy();
      for (const session of sessions) session.destroy();
    },
  };
}
