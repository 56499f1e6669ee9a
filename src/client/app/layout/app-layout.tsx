import { Suspense, useEffect, useLayoutEffect, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import clsx from 'clsx';
import { pageConfig } from '#client/lib/page-config.ts';
import { usePageConfig } from '#client/lib/use-page-config.ts';
import { preloadableLazy } from '#client/lib/preloadable-lazy.ts';
import { reportTimezoneDaily } from '#client/lib/timezone.ts';
import { whenIdle } from '#client/lib/idle.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { openModal } from '#client/components/ui/modal-events.ts';
import { DeferredModal } from '#client/components/ui/modal-loading.tsx';
import { UnavailableBanner } from '#client/components/ui/unavailable-banner.tsx';
import { Link } from '#client/components/ui/link.tsx';
import { REGISTER_MODAL } from '#client/features/auth/register.ts';
import { ErrorPage } from '../pages/error.tsx';

/*
 * The frame is on every page, so it stays small: the signed-in menus and the register
 * modal are chunks of their own, loaded for whoever needs them.
 */
const chrome = () => import('./member-chrome.tsx');
const MemberDrawer = preloadableLazy(() => chrome().then((m) => ({ default: m.MemberDrawer })));
const MemberMenus = preloadableLazy(() => chrome().then((m) => ({ default: m.MemberMenus })));
const MemberAside = preloadableLazy(() => chrome().then((m) => ({ default: m.MemberAside })));
const MemberRewards = preloadableLazy(() => chrome().then((m) => ({ default: m.MemberRewards })));

/** Signed in: loads the member menus' code, after which they render without suspending (src/client/main.tsx). */
export async function preloadFrame(): Promise<void> {
  if (pageConfig().authId === null) return;
  await Promise.allSettled([MemberDrawer, MemberMenus, MemberAside, MemberRewards].map((c) => c.preload()));
}
/** Where the drawer button and the member menus go while their code loads: their size, so nothing moves when they arrive. */
const DRAWER_PLACEHOLDER = <span aria-hidden className="size-11 lg:hidden" />;
const MENUS_PLACEHOLDER = <span aria-hidden className="h-11 w-24" />;

/** The signed-in header row: the drawer's button, the logo, and the menus at the end. */
function MemberHeaderRow({ drawer, logo, menus }: { drawer: ReactNode; logo: ReactNode; menus: ReactNode }) {
  return (
    <>
      {drawer}
      {logo}
      <div className="ml-auto flex items-center gap-1 sm:gap-2">{menus}</div>
    </>
  );
}
const RegisterModal = preloadableLazy(() =>
  import('./register.tsx').then((m) => ({ default: m.VisitorRegisterModal })),
);

/** The register modal's code, asked for as a visitor points at or focuses "Join". */
export function preloadRegisterModal() {
  void RegisterModal.preload().catch(() => undefined);
}

export function Logo({ mentorship = false }: { mentorship?: boolean }) {
  const { authId } = usePageConfig();
  return (
    <a
      href={mentorship ? '/mentorship' : authId ? '/dashboard' : '/'}
      className="flex min-h-11 items-center gap-2 text-xl font-extrabold tracking-tight"
    >
      <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
      <span>
        Backbeat
        {mentorship ? (
          <span className="ml-1.5 hidden text-sm font-semibold uppercase tracking-widest text-accent sm:inline">
            Mentorship
          </span>
        ) : null}
      </span>
    </a>
  );
}

/** Page frame: header with menus, side menu (a drawer on phones), content. */
export function AppLayout({ mentorship = false, admin = false }: { mentorship?: boolean; admin?: boolean }) {
  // a registration inside a checkout signs the member in without a page load: the header follows
  const config = usePageConfig();
  const signedIn = config.authId !== null;
  // answered 503, the page cannot tell who is here (the session could not be read): it offers no sign-in
  const unknownVisitor = config.error?.status === 503;
  const { pathname } = useLocation();
  // in a task of its own once the page is idle (lib/idle.ts): the first view does not need it
  useEffect(() => whenIdle(reportTimezoneDaily), []);
  // before the browser paints: the page and what portals put on <body> change theme in the same frame
  useLayoutEffect(() => {
    document.documentElement.classList.toggle('theme-dark', mentorship);
    document.body.classList.toggle('theme-dark', mentorship);
  }, [mentorship]);

  const content: ReactNode = config.error ? (
    <ErrorPage status={config.error.status} message={config.error.message} />
  ) : (
    <Outlet />
  );
  return (
    <div className={clsx('min-h-dvh bg-bg text-fg', mentorship && 'theme-dark')}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-[2000] focus:rounded-lg focus:bg-surface focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-50 border-b border-line bg-surface/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-3 sm:px-6">
          {signedIn ? (
            // The member's drawer button, avatar and bell come together, in one commit, as soon as their
            // code is in: what is painted works, and the header does not fill in piece by piece.
            <Suspense
              fallback={
                <MemberHeaderRow
                  logo={<Logo mentorship={mentorship} />}
                  drawer={DRAWER_PLACEHOLDER}
                  menus={MENUS_PLACEHOLDER}
                />
              }
            >
              <MemberHeaderRow
                logo={<Logo mentorship={mentorship} />}
                drawer={<MemberDrawer mentorship={mentorship} admin={admin} pathname={pathname} />}
                menus={<MemberMenus mentorship={mentorship} />}
              />
            </Suspense>
          ) : (
            <>
              <Logo mentorship={mentorship} />
              <div className="ml-auto flex items-center gap-1 sm:gap-2">
                {unknownVisitor ? null : (
                  <>
                    <a href="/login" className={buttonClass('ghost')}>
                      Sign in
                    </a>
                    <Button
                      onPointerEnter={preloadRegisterModal}
                      onFocus={preloadRegisterModal}
                      onClick={() => openModal(REGISTER_MODAL)}
                    >
                      Join
                    </Button>
                  </>
                )}
              </div>
            </>
          )}
        </div>
        <UnavailableBanner />
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-3 sm:px-6">
        {signedIn ? (
          <Suspense fallback={<div aria-hidden className="hidden w-64 shrink-0 lg:block" />}>
            <MemberAside mentorship={mentorship} admin={admin} pathname={pathname} />
          </Suspense>
        ) : null}
        {/* at least a window tall: the footer starts below the fold, so a page that arrives after the
            loading spinner, or grows as its data comes, never pushes a footer the reader has seen */}
        <main id="main" className="min-h-dvh min-w-0 flex-1 py-6 sm:py-10">
          {content}
        </main>
      </div>
      <footer className="border-t border-line">
        <nav
          aria-label="Site information"
          className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-1 px-3 py-4 text-sm sm:px-6"
        >
          <Link to="/accessibility" className="inline-flex min-h-11 items-center text-muted underline hover:text-fg">
            Accessibility
          </Link>
          <Link to="/terms" className="inline-flex min-h-11 items-center text-muted underline hover:text-fg">
            Terms of Service
          </Link>
        </nav>
      </footer>
      {!signedIn ? (
        <DeferredModal name={REGISTER_MODAL} title="Create Your Account">
          <RegisterModal />
        </DeferredModal>
      ) : (
        <Suspense fallback={null}>
          <MemberRewards />
        </Suspense>
      )}
    </div>
  );
}
