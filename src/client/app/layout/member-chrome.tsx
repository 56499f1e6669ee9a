import { useEffect, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Menu, X } from 'lucide-react';
import clsx from 'clsx';
import { AccountMenu } from '#client/features/auth/components/account-menu.tsx';
import { NotificationMenu } from '#client/features/notifications/components/notification-menu.tsx';
import { RewardListener } from '#client/features/achievements/components/rewards.tsx';
import { PostsModal } from '#client/features/discussion/components/posts-modal.tsx';
import { WithQuery } from '../query.tsx';
import { LG_QUERY, useMediaQuery } from '#client/lib/use-media-query.ts';
import { SideMenu } from './side-menu.tsx';

/*
 * The signed-in parts of the page frame (menus, notifications, side menu, rewards): their own chunk,
 * loaded by AppLayout only for a member, so a visitor's page does not pay for them.
 */

interface Props {
  mentorship: boolean;
  admin: boolean;
  pathname: string;
}

/** The side menu as a drawer on phones; closes when the address changes. */
export function MemberDrawer({ mentorship, admin, pathname }: Props) {
  const [drawer, setDrawer] = useState(false);
  useEffect(() => setDrawer(false), [pathname]);
  return (
    <Dialog.Root open={drawer} onOpenChange={setDrawer}>
      <Dialog.Trigger
        aria-label="Open menu"
        className="grid size-11 place-items-center rounded-full hover:bg-surface-2 lg:hidden"
      >
        <Menu aria-hidden className="size-6" />
      </Dialog.Trigger>
      {drawer ? (
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-[950] bg-black/50 lg:hidden" />
          <Dialog.Content
            className={clsx(
              'fixed inset-y-0 left-0 z-[951] w-[min(20rem,85vw)] overflow-y-auto border-r border-line bg-surface p-4 text-fg shadow-2xl lg:hidden',
              mentorship && 'theme-dark',
            )}
          >
            <div className="mb-4 flex items-center justify-between">
              <Dialog.Title className="text-lg font-bold">Menu</Dialog.Title>
              <Dialog.Description className="sr-only">Site navigation</Dialog.Description>
              <Dialog.Close
                aria-label="Close menu"
                className="grid size-11 place-items-center rounded-full hover:bg-surface-2"
              >
                <X aria-hidden className="size-5" />
              </Dialog.Close>
            </div>
            <SideMenu mentorship={mentorship} admin={admin} pathname={pathname} />
          </Dialog.Content>
        </Dialog.Portal>
      ) : null}
    </Dialog.Root>
  );
}

export const MemberMenus = ({ mentorship }: { mentorship: boolean }) => (
  <WithQuery>
    <NotificationMenu area={mentorship ? 'mentorship' : 'main'} />
    <AccountMenu mentorship={mentorship} />
  </WithQuery>
);

/**
 * The side menu beside the page from the `lg` width up. Below it (phones, where the drawer holds the menu)
 * the aside is not mounted at all: hidden, its accordion would still measure its open section on mount,
 * forcing the whole page's style and layout inside the first render's script (a long task on a
 * phone-speed CPU).
 */
export function MemberAside({ mentorship, admin, pathname }: Props) {
  const wide = useMediaQuery(LG_QUERY);
  if (!wide) return null;
  return (
    <aside className="sticky top-16 h-[calc(100dvh-4rem)] w-64 shrink-0 overflow-y-auto py-6">
      <SideMenu mentorship={mentorship} admin={admin} pathname={pathname} />
    </aside>
  );
}

/**
 * Listeners of every signed-in page: rewards, and the posts modal (its page-wide event may come from
 * any page a member is on).
 */
export const MemberRewards = () => (
  <WithQuery>
    <RewardListener />
    <PostsModal />
  </WithQuery>
);
