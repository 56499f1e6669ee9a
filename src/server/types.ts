import type { AuthUser } from '#shared/auth';

/** Who may call a route, by class: the classes and their rules are in lib/access.ts. */
export type RouteAccess = 'public' | 'provider' | 'member' | 'community' | 'moderation' | 'mentorship' | 'admin';

/** a route's request schemas as registered (zod types), for the proof suites */
export interface RouteSchemas {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  response?: Record<string, unknown>;
}

/** The signed-in user as every route sees it (its schema: #shared/auth). */
export type { AuthUser };

declare module 'fastify' {
  interface FastifyInstance {
    /** every route registered (method, url, access class, whether it checks the CSRF token, its schemas; HEAD left out) */
    routeList: ReadonlyArray<{
      method: string;
      url: string;
      access: RouteAccess;
      csrf: boolean;
      schema: RouteSchemas;
    }>;
  }
  interface FastifyRequest {
    /** the cookie value of this browser's session (signed in or not) */
    sessionId: string;
    /** the CSRF token that belongs to sessionId */
    csrfToken: string;
    user: AuthUser | null;
    /**
     * The request carries a write of this browser's that this process may not have heard yet
     * (lib/own-writes.ts): nothing kept in memory is served to it.
     */
    readFresh: boolean;
  }
  interface FastifyContextConfig {
    /**
     * who may call the route (lib/access.ts); every route declares one, or the app does not start
     * (plugins/access.ts)
     */
    access?: RouteAccess;
    /** false for calls that come from elsewhere with their own proof (provider webhooks) */
    csrf?: boolean;
    /** a GET whose JSON answer is served from memory until a table it read changes (plugins/hot-reads.ts) */
    hotRead?: boolean;
    /** a file of the client build (plugins/built-files.ts): no session, no cookie */
    builtFile?: boolean;
    /** the handler reads the body's bytes as sent (provider webhooks: signatures): no UTF-8 check before it */
    rawBody?: boolean;
  }
}
