import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/** What the pages embed: lesson videos and notation players in frames, images from https. */
export const FRAME_SOURCES = [
  'https://www.youtube.com',
  'https://www.youtube-nocookie.com',
  'https://player.vimeo.com',
  'https://www.soundslice.com',
  'https://js.stripe.com',
  'https://www.paypal.com',
];

/**
 * The headers a helmet middleware sets. They are the same on every answer (no nonce, nothing read from
 * the request), so they are worked out once, by running the middleware on a recording response, and a
 * request only copies them (running the middleware chain on every request would be a visible part
 * of a hot read's cost).
 */
export function headersSetBy(middleware: ReturnType<typeof helmet>): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let finished = false;
  middleware({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

/**
 * Helmet's security headers on every answer, built once here (@fastify/helmet builds the middleware
 * again on every request, parsing the whole policy each time: a measurable share of a hot read's cost).
 * A request that accepts HTML (a page, a form post) gets the page policy; every other answer (JSON,
 * scripts, images) gets the short one an API needs (OWASP's REST advice): nothing may run or frame it,
 * no sniffing. An HTML answer to a request that did not ask for HTML thus gets the stricter policy.
 */
export const securityPlugin = fp(async (app: FastifyInstance, opts: { dev: boolean }) => {
  const common = {
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'sameorigin' as const },
    hsts: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
  };
  const pageHeaders = headersSetBy(
    helmet({
      ...common,
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          // Vite's dev server injects an inline preamble for hot reload; the built app needs none.
          scriptSrc: opts.dev
            ? ["'self'", "'unsafe-inline'"]
            : ["'self'", 'https://js.stripe.com', 'https://www.paypal.com'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          mediaSrc: ["'self'", 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", 'ws:', 'wss:', 'https://api.stripe.com'],
          frameSrc: ["'self'", ...FRAME_SOURCES],
          frameAncestors: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'", 'https://www.paypal.com'],
          upgradeInsecureRequests: null,
        },
      },
    }),
  );
  const otherHeaders = headersSetBy(
    helmet({
      ...common,
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'self'"] } },
      // headers that only mean something for documents
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );
  // Into the reply's own headers, which Fastify hands to writeHead with its own: each name is checked
  // once there. Set on the raw response instead, each would be checked and stored twice (setHeader, then
  // writeHead merging Fastify's headers into them), a visible share of a hot read.
  const pageHeaderObject = Object.fromEntries(pageHeaders.map(([name, value]) => [name.toLowerCase(), value]));
  const otherHeaderObject = Object.fromEntries(otherHeaders.map(([name, value]) => [name.toLowerCase(), value]));
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers((request.headers.accept ?? '').includes('text/html') ? pageHeaderObject : otherHeaderObject);
    done();
  });
});
