import { useEffect, useState, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import * as Dialog from '@radix-ui/react-dialog';
import { Menu, X } from 'lucide-react';
import clsx from 'clsx';
import { pageConfig } from '#client/lib/page-config.ts';
import { reportTimezoneDaily } from '#client/lib/timezone.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { openModal } from '#client/components/ui/modal.tsx';
import { AccountMenu } from '#client/features/auth/components/account-menu.tsx';
import { REGISTER_MODAL, RegisterModal } from '#client/features/auth/components/register-modal.tsx';
import { NotificationMenu } from '#client/features/notifications/components/notification-menu.tsx';
import { SideMenu } from './side-menu.tsx';
import { RewardListener } from '#client/features/achievements/components/rewards.tsx';
import { ErrorPage } from '../pages/error.tsx';

export function Logo({ mentorship = false }: { mentorship?: boolean }) {
  return (
    <a href={mentorship ? '/mentorship' : pageConfig().authId ? '/dashboard' : '/'} className="flex min-h-11 items-center gap-2 text-xl font-extrabold tracking-tight">
      <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
      <span>
        Backbeat{mentorship ? <span className="ml-1.5 hidden text-sm font-semibold uppercase tracking-widest text-accent sm:inline">Mentorship</span> : null}
      </span>
    </a>
  );
}

/** Page frame: header with menus, side menu (a drawer on phones), content. */
export function AppLayout({ mentorship = false, admin = false }: { mentorship?: boolean; admin?: boolean }) {
  const config = pageConfig();
  const signedIn = config.authId !== null;
  const { pathname } = useLocation();
  const [drawer, setDrawer] = useState(false);
  useEffect(() => setDrawer(false), [pathname]);
  useEffect(reportTimezoneDaily, []);
  useEffect(() => {
    document.documentElement.classList.toggle('theme-dark', mentorship);
    document.body.classList.toggle('theme-dark', mentorship);
  }, [mentorship]);

  const content: ReactNode = config.error ? <ErrorPage status={config.error.status} message={config.error.message} /> : <Outlet />;
  return (
    <div className={clsx('min-h-dvh bg-bg text-fg', mentorship && 'theme-dark')}>
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-[2000] focus:rounded-lg focus:bg-surface focus:px-4 focus:py-2">
        Skip to content
      </a>
      <header className="sticky top-0 z-50 border-b border-line bg-surface/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-3 sm:px-6">
          {signedIn ? (
            <Dialog.Root open={drawer} onOpenChange={setDrawer}>
              <Dialog.Trigger aria-label="Open menu" className="grid size-11 place-items-center rounded-full hover:bg-surface-2 lg:hidden">
                <Menu aria-hidden className="size-6" />
              </Dialog.Trigger>
              <Dialog.Portal>
                <Dialog.Overlay className="fixed inset-0 z-[950] bg-black/50 lg:hidden" />
                <Dialog.Content className={clsx('fixed inset-y-0 left-0 z-[951] w-[min(20rem,85vw)] overflow-y-auto border-r border-line bg-surface p-4 text-fg shadow-2xl lg:hidden', mentorship && 'theme-dark')}>
                  <div className="mb-4 flex items-center justify-between">
                    <Dialog.Title className="text-lg font-bold">Menu</Dialog.Title>
                    <Dialog.Description className="sr-only">Site navigation</Dialog.Description>
                    <Dialog.Close aria-label="Close menu" className="grid size-11 place-items-center rounded-full hover:bg-surface-2">
                      <X aria-hidden className="size-5" />
                    </Dialog.Close>
                  </div>
                  <SideMenu mentorship={mentorship} admin={admin} pathname={pathname} />
                </Dialog.Content>
              </Dialog.Portal>
            </Dialog.Root>
          ) : null}
          <Logo mentorship={mentorship} />
          <div className="ml-auto flex items-center gap-1 sm:gap-2">
            {signedIn ? (
              <>
                <NotificationMenu area={mentorship ? 'mentorship' : 'main'} />
                <AccountMenu mentorship={mentorship} />
              </>
            ) : (
              <>
                <a href="/login" className={buttonClass('ghost')}>
                  Sign in
                </a>
                <Button onClick={() => openModal(REGISTER_MODAL)}>Join</Button>
              </>
            )}
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-3 sm:px-6">
        {signedIn ? (
          <aside className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-64 shrink-0 overflow-y-auto py-6 lg:block">
            <SideMenu mentorship={mentorship} admin={admin} pathname={pathname} />
          </aside>
        ) : null}
        <main id="main" className="min-w-0 flex-1 py-6 sm:py-10">
          {content}
        </main>
      </div>
      {!signedIn ? <RegisterModal /> : <RewardListener />}
    </div>
  );
}
