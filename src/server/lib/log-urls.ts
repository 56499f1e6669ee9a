/**
 * The address a request log line records. A password reset link is a key to its account until it
 * is used or expires, so its token never reaches the logs (the reset page and its check carry it in
 * the path).
 */
export const loggedUrl = (url: string) => url.replace(/(\/password\/reset\/)[^/?#]+/g, '$1[token]');

/** Fastify's own request serializer, with the address through loggedUrl. */
export const requestSerializer = (req: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}) => ({
  method: req.method,
  url: loggedUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});
