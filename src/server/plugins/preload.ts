import { readFileSync } from 'node:fs';
import path from 'node:path';
import { matchPattern } from '#shared/pages';

/**
 * `<link rel="modulepreload">` for the page a navigation opens. The built HTML
 * names only the entry chunk; the entry then imports the page's own route chunk
 * (src/client/app/router.tsx), which imports its own chunks: three round trips before the page can
 * render. The server knows the address, so the shell names those chunks up front and the browser
 * fetches them beside the entry. Read from the build's manifest (dist/client/.vite/manifest.json).
 */

/** A page address (src/shared/pages.ts syntax) and the module its route loads (a key of the manifest: a path under src/client). */
export interface PageModule {
  pattern: string;
  module: string;
  /** a `plainPage` (router.tsx): its visit does not load the query cache (app/query.tsx) */
  plain?: boolean;
  /** shown in the mentorship area's frame (dark theme); its route table is a chunk of its own (MENTORSHIP_ROUTES_MODULE) */
  mentorship?: boolean;
  /** a checkout page (router.tsx's checkoutPage): in test mode it loads the test-mode banner too */
  checkout?: boolean;
  /** its card form shows at once (router.tsx's cardCheckoutPage): on the card sandbox it loads the sandbox's fields too */
  cardForm?: boolean;
}

/** The route tables of the admin console and of the mentorship area (src/client/app/router.tsx's routeArea). */
export const ADMIN_ROUTES_MODULE = 'app/admin/routes.tsx';
export const MENTORSHIP_ROUTES_MODULE = 'app/mentorship/routes.tsx';

const pages = (module: string, patterns: string[], extra: Omit<PageModule, 'pattern' | 'module'> = {}): PageModule[] =>
  patterns.map((pattern) => ({ pattern, module: `app/pages/${module}.tsx`, ...extra }));

/** src/client/app/router.tsx's lazy routes, first match wins (tests/e2e/page-load.spec.ts checks a real visit fetches exactly the chunks the shell names). */
export const PAGE_MODULES: PageModule[] = [
  ...pages('home', ['/'], { plain: true }),
  ...pages('auth', ['/login', '/password/forgot', '/password/reset/:token']),
  ...pages('member', [
    '/terms',
    '/dashboard',
    '/account/profile',
    '/notifications',
    '/notifications/:id',
    '/profile/:slug',
    '/friends',
  ]),
  ...pages('billing', ['/account/billing']),
  ...pages('learning', [
    '/courses',
    '/courses/:slug',
    '/lessons/:id',
    '/stages',
    '/stages/:id',
    '/journal',
    '/placement',
    '/achievements',
  ]),
  ...pages('diagnostic', ['/diagnostic'], { plain: true }),
  ...pages('metronome', ['/metronome'], { plain: true }),
  ...pages('song-mapper', ['/songmapper', '/songmapper/:id']),
  ...pages('forums', ['/forums', '/forums/topic/:id']),
  ...pages('discussion', ['/forums/post/:id/edit', '/posts/:id']),
  ...pages('forums', ['/forums/:slug']),
  ...pages('live', ['/live', '/live/:id']),
  ...pages('checkout', ['/join', '/join/:slug'], { plain: true, checkout: true, cardForm: true }),
  ...pages('order', ['/order'], { checkout: true }),
  ...pages(
    'products',
    ['/double-kick-mastery/register', '/checkout/double-kick-mastery', '/checkout/course/register', '/checkout/course'],
    { checkout: true, cardForm: true },
  ),
  ...pages('sandbox', ['/sandbox/*'], { checkout: true }),
  ...pages('mentorship-checkout', ['/mentorship/checkout'], { plain: true, checkout: true }),
  ...pages(
    'mentorship-card',
    ['/mentorship/stripe/charge', '/mentorship/stripe/checkout', '/mentorship/stripe/:payment'],
    { plain: true, checkout: true, cardForm: true },
  ),
  ...pages('dev-outbox', ['/dev/outbox']),
  // the console's route table (router.tsx's routeArea), which then loads the page itself
  { pattern: '/admin', module: ADMIN_ROUTES_MODULE },
  { pattern: '/admin/*', module: ADMIN_ROUTES_MODULE },
  ...pages(
    'mentorship',
    [
      '/mentorship',
      '/mentorship/account',
      '/mentorship/lessons',
      '/mentorship/lessons/:id',
      '/mentorship/accountability',
      '/mentorship/students',
      '/mentorship/students/:id',
    ],
    { mentorship: true },
  ),
  ...pages('member', ['/mentorship/notifications', '/mentorship/notifications/:id'], { mentorship: true }),
  ...pages('song-mapper', ['/mentorship/songmapper', '/mentorship/songmapper/:id'], { mentorship: true }),
  ...pages(
    'mentorship-plan',
    ['/mentorship/practice-plan', '/mentorship/practice-plan-days', '/mentorship/students/:id/practice-plan'],
    { mentorship: true },
  ),
  ...pages('mentorship-videos', ['/mentorship/videos', '/mentorship/videos/:id', '/mentorship/students/:id/videos'], {
    mentorship: true,
  }),
  // any other address in the area: its not-found page, which shows in the area's frame
  { pattern: '/mentorship/*', module: MENTORSHIP_ROUTES_MODULE, mentorship: true },
];

/** What the router loads beside a page that uses server data. */
export const QUERY_MODULE = 'app/query.tsx';
/** The banner a checkout page shows while payments are in test mode (docs/product/test-mode.md). */
export const TEST_MODE_BANNER_MODULE = 'components/payments/test-mode-banner.tsx';
/** The card form's fields on a server whose card provider is the sandbox. */
export const SANDBOX_CARD_MODULE = 'components/payments/sandbox-card-fields.tsx';

/** How the server takes payments, as far as a checkout page's code depends on it. */
export interface PaymentsShown {
  /** the test-mode banner shows (docs/product/test-mode.md) */
  testMode: boolean;
  /** the card provider is the sandbox: the card form is the sandbox's own fields */
  sandboxCard: boolean;
}
/** The signed-in page frame's menus (src/client/app/layout/app-layout.tsx), loaded on every page for a member. */
export const MEMBER_CHROME_MODULE = 'app/layout/member-chrome.tsx';

export function pageModuleFor(pathname: string): PageModule | null {
  return PAGE_MODULES.find((p) => matchPattern(p.pattern, pathname)) ?? null;
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  assets?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface Preloader {
  /** the `<link>` tags for a page's module (pageModuleFor; null: an error page, which shows no route, or an unknown address) */
  tags(page: PageModule | null, signedIn: boolean, payments: PaymentsShown): string;
}

/** Reads the build's manifest once; each page's tags are computed once. A build without a manifest preloads nothing. */
export function manifestPreloader(distDir: string): Preloader {
  let manifest: Manifest = {};
  try {
    manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  } catch {
    // no manifest (an old build): the entry still loads everything, only later
  }
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  const inEntry = new Set<string>();
  if (entryKey) closure(manifest, entryKey, inEntry);
  // the Inter font's latin subset: every page's text uses it (src/client/main.tsx)
  const font = entryKey
    ? manifest[entryKey]!.assets?.find((a) => /inter-latin-wght-normal-[\w-]+\.woff2$/.test(a))
    : undefined;
  const cache = new Map<string, string>();
  return {
    tags(page, signedIn, { testMode, sandboxCard }) {
      const key = `${page?.pattern ?? ''}|${signedIn}|${testMode}|${sandboxCard}`;
      let tags = cache.get(key);
      if (tags === undefined) {
        const files = new Set<string>();
        const modules = page && manifest[page.module] ? [page.module, ...(page.plain ? [] : [QUERY_MODULE])] : [];
        if (page?.mentorship) modules.push(MENTORSHIP_ROUTES_MODULE);
        if (signedIn) modules.push(MEMBER_CHROME_MODULE);
        if (testMode && page?.checkout) modules.push(TEST_MODE_BANNER_MODULE);
        if (sandboxCard && page?.cardForm) modules.push(SANDBOX_CARD_MODULE);
        for (const m of modules) if (manifest[m]) closure(manifest, m, files);
        const links = [...files]
          .filter((f) => !inEntry.has(f) && f.endsWith('.js'))
          .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`);
        if (font) links.unshift(`<link rel="preload" as="font" type="font/woff2" crossorigin href="/${font}">`);
        tags = links.join('');
        cache.set(key, tags);
      }
      return tags;
    },
  };
}

/** A chunk's file and the files of everything it imports statically. */
function closure(manifest: Manifest, key: string, into: Set<string>) {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(manifest, dep, into);
}
