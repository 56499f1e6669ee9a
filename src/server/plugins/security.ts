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
 * Helmet's security headers on every answer. The middleware is built once here (@fastify/helmet
 * builds it again on every request, parsing the whole policy each time: a measurable share of a
 * hot read's cost).
 */
export const securityPlugin = fp(async (app: FastifyInstance, opts: { dev: boolean }) => {
  const headers = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Vite's dev server injects an inline preamble for hot reload; the built app needs none.
        scriptSrc: opts.dev ? ["'self'", "'unsafe-inline'"] : ["'self'", 'https://js.stripe.com', 'https://www.paypal.com'],
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
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'sameorigin' },
    hsts: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    headers(request.raw, reply.raw, (err) => done(err as Error | undefined));
  });
});
