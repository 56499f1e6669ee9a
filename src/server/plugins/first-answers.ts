import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FIRST_ANSWERS_ELEMENT_ID } from '#shared/constants';
import { matchPattern } from '#shared/pages';
import { pageModuleFor, type PageModule } from './preload.ts';

/**
 * A signed-in page's first reads, answered inside the page. Otherwise a lesson page would load its
 * scripts, then ask for the lesson, then for its discussion, one round trip after the
 * other, before it could show either. The server knows the address and the member, so it asks its own
 * routes (app.inject, with the member's cookie: the same access checks, hot-read cache and answer) and
 * writes the JSON answers into the page; the client's `get` (src/client/lib/api.ts) takes an answer
 * from there once, for the very address it would have fetched, while the page is the one it came with.
 *
 * Each row is a page address (src/shared/pages.ts syntax) and the GET addresses its first render asks
 * for, spelled exactly as the client spells them: a read spelled differently is simply fetched by
 * the page (tests/e2e/page-load.spec.ts holds the lesson, topic and dashboard pages to reading all of
 * theirs from the page and none over the network).
 */
export const FIRST_READS: { pattern: string; urls: (params: Record<string, string>) => string[] }[] = [
  {
    pattern: '/lessons/:id',
    urls: ({ id }) => [`/api/lessons/${id}`, `/inline-posts?type=lesson&id=${id}&sort=upvoted&page=1`],
  },
  {
    pattern: '/forums/topic/:id',
    urls: ({ id }) => [`/forums/api/topic/${id}`, `/posts?id=${id}&type=forumtopic`, '/api/forums'],
  },
  {
    pattern: '/dashboard',
    urls: () => ['/api/continue', '/api/practice/stats', '/api/my-practice'],
  },
  {
    pattern: '/mentorship/checkout',
    urls: () => ['/api/mentorship/checkout', '/api/mentorship/checkout/options'],
  },
];

/** what the signed-in frame's notification menu reads on every page (features/notifications) */
const chromeReads = (page: PageModule | null) => [
  page?.mentorship ? '/mentorship/notifications/recent' : '/notifications/recent',
];

/** The page's id-like parameters: digits only (anything else is the page's own 404, asked for by the client). */
const plainParams = (params: Record<string, string>) => Object.values(params).every((v) => /^\d{1,10}$/.test(v));

/** The addresses a signed-in member's visit to `pathname` (whose page module is `page`) reads first (none for a visitor). */
export function firstReadsFor(pathname: string, signedIn: boolean, page = pageModuleFor(pathname)): string[] {
  if (!signedIn) return [];
  const urls = chromeReads(page);
  for (const row of FIRST_READS) {
    const params = matchPattern(row.pattern, pathname);
    if (params && plainParams(params)) {
      urls.push(...row.urls(params));
      break;
    }
  }
  return urls;
}

// JSON inside <script>: nothing can close the element or open a comment.
export const escapeJson = (json: string) =>
  json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The `<script type="application/json">` holding the successful answers to a page's first reads
 * ('' when there are none). Each read runs the route as the browser's own call would (cookie, JSON);
 * a read that fails is left out and the client asks for it itself.
 */
export async function firstAnswersTag(
  app: FastifyInstance,
  request: FastifyRequest,
  pathname: string,
  page: PageModule | null,
): Promise<string> {
  const urls = firstReadsFor(pathname, request.user !== null, page);
  if (urls.length === 0) return '';
  const headers = {
    accept: 'application/json',
    cookie: request.headers.cookie ?? '',
    'user-agent': request.headers['user-agent'] ?? '',
  };
  const answers = await Promise.all(
    urls.map(async (url) => {
      try {
        const res = await app.inject({ method: 'GET', url, headers });
        return res.statusCode === 200 && String(res.headers['content-type'] ?? '').startsWith('application/json')
          ? `${JSON.stringify(url)}:${res.body}`
          : null;
      } catch (err) {
        request.log.warn({ err, url }, 'first answer failed');
        return null;
      }
    }),
  );
  const parts = answers.filter((a): a is string => a !== null);
  return parts.length
    ? `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">${escapeJson(`{${parts.join(',')}}`)}</script>`
    : '';
}
