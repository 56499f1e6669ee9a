import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '#shared/constants';
import { accessFor, DEV_PAGES_PREFIX, type PageAccess } from '#shared/pages';
import { loginUrl } from '#shared/redirect';
import type { PageConfig } from '#shared/page-config';
import { hasEntitlement } from '#server/lib/guards';
import { paymentsInTestMode } from '#server/config';
import { escapeJson, firstAnswersTag } from './first-answers.ts';
import { manifestPreloader, pageModuleFor, type Preloader } from './preload.ts';

const CSRF_PLACEHOLDER = '<meta name="csrf-token" content="">';
const CONFIG_PLACEHOLDER = '<script type="application/json" id="page-config">{}</script>';

/** Where the HTML shell comes from: the built client, Vite in dev mode, or a bare page (no client). */
export interface HtmlSource {
  template(url: string): Promise<string>;
  /** the built client's chunks for each page, named in the shell's head (plugins/preload.ts) */
  preloader?: Preloader;
}

export function builtHtmlSource(distDir: string): HtmlSource {
  let cached: Promise<string> | null = null;
  return {
    template() {
      cached ??= readFile(path.join(distDir, 'index.html'), 'utf8');
      return cached;
    },
    preloader: manifestPreloader(distDir),
  };
}

export const bareHtmlSource: HtmlSource = {
  async template() {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8">${CSRF_PLACEHOLDER}${CONFIG_PLACEHOLDER}<title>Backbeat</title></head><body><div id="root"></div></body></html>`;
  },
};

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function pageConfigFor(
  app: FastifyInstance,
  request: FastifyRequest,
  error: PageConfig['error'] = null,
): PageConfig {
  const user = request.user;
  return {
    admin: user?.isAdmin ?? false,
    authId: user?.id ?? null,
    authName: user?.name ?? null,
    authAvatarUrl: user?.avatarUrl ?? null,
    authProfileUrl: user?.profileUrl ?? null,
    authEmail: user?.email ?? null,
    entitlements: user?.entitlements ?? [],
    fileStorageBaseUrl: app.deps.fileBaseUrl,
    csrfToken: request.csrfToken,
    error,
    dev: app.deps.config.devTools,
    payments: {
      card: app.deps.config.payments.card,
      paypal: app.deps.config.payments.paypal,
      stripePublishableKey:
        app.deps.config.payments.card === 'stripe' ? app.deps.config.payments.stripe.publishableKey : null,
      testMode: paymentsInTestMode(app.deps.config),
    },
  };
}

/** Serve the app's HTML for a browser navigation, with the page-wide configuration in it. */
export async function renderPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  error?: { status: number; message: string },
) {
  const source = app.htmlSource;
  let status = error?.status ?? 200;
  let pageError: PageConfig['error'] = error ?? null;
  const pathname = request.url.split('?')[0] ?? '/';
  if (!error) {
    const devOnly = pathname.startsWith(DEV_PAGES_PREFIX) && !app.deps.config.devTools;
    const access = devOnly ? null : accessFor(pathname);
    const verdict = access === null ? 'notfound' : checkAccess(access, request);
    if (verdict === 'login') return reply.redirect(loginUrl(request.url), 302);
    if (verdict === 'home') return reply.redirect('/dashboard', 302);
    if (verdict === 'notfound') {
      status = 404;
      pageError = { status, message: MESSAGES.notFound };
    } else if (verdict === 'forbidden') {
      status = 403;
      pageError = { status, message: MESSAGES.forbidden };
    }
  }
  let html = (await source.template(request.url))
    .replace(CSRF_PLACEHOLDER, `<meta name="csrf-token" content="${escapeAttr(request.csrfToken)}">`)
    .replace(
      CONFIG_PLACEHOLDER,
      `<script type="application/json" id="page-config">${escapeJson(JSON.stringify(pageConfigFor(app, request, pageError)))}</script>`,
    );
  // the page's own chunks (an error page shows no route), and the mentorship area's dark frame from the
  // first paint (an error page in the area shows in its frame too)
  const address = pageModuleFor(pathname);
  const page = pageError ? null : address;
  if (source.preloader) {
    const tags = source.preloader.tags(page, request.user !== null, {
      testMode: paymentsInTestMode(app.deps.config),
      sandboxCard: app.deps.config.payments.card === 'sandbox',
    });
    html = html.replace('</head>', () => `${tags}</head>`);
  }
  if (address?.mentorship) html = html.replace('<html lang="en">', '<html lang="en" class="theme-dark">');
  // the answers to the page's first reads, so it can render without asking for them (plugins/first-answers.ts)
  const answers = pageError ? '' : await firstAnswersTag(app, request, pathname, page);
  if (answers) html = html.replace('</body>', () => `${answers}</body>`);
  void reply
    .status(status)
    .header('Cache-Control', 'no-store')
    .header('Vary', 'Accept, Accept-Encoding')
    .type('text/html; charset=utf-8');
  const encoding = pageEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(html);
  return reply
    .header('Content-Encoding', encoding)
    .send(encoding === 'br' ? brotliCompressSync(html, BROTLI_FAST) : gzipSync(html, { level: 6 }));
}

/** brotli at quality 5: within a few per cent of the best size for a page of about 10 KB, in well under a millisecond */
const BROTLI_FAST = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } };

/**
 * How to compress a page for a browser that says what it accepts (a signed-in page with its first
 * answers is several times smaller compressed). The
 * built scripts and styles are compressed at build time (vite.config.ts); a page is made per request.
 */
export function pageEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  if (!accept) return null;
  const offered = new Map(
    accept.split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return [name!.trim(), q === undefined ? 1 : Number(q)] as const;
    }),
  );
  const ok = (name: string) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

function checkAccess(access: PageAccess, request: FastifyRequest): 'ok' | 'login' | 'home' | 'forbidden' {
  const user = request.user;
  switch (access) {
    case 'public':
      return 'ok';
    case 'guest':
      return user ? 'home' : 'ok';
    case 'member':
      return user ? 'ok' : 'login';
    case 'subscriber':
      // free members see the free tier and a way to subscribe; the page itself decides what to show
      return user ? 'ok' : 'login';
    case 'mentorship':
      if (!user) return 'login';
      return hasEntitlement(user, 'mentorship') ? 'ok' : 'forbidden';
    case 'admin':
      if (!user) return 'login';
      return user.isAdmin ? 'ok' : 'forbidden';
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    htmlSource: HtmlSource;
  }
}
