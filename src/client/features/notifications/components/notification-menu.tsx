import { Bell } from 'lucide-react';
import clsx from 'clsx';
import { formatDistanceToNow } from 'date-fns';
import { MESSAGES } from '#shared/constants';
import { Dropdown, DropdownLink, DropdownSeparator } from '#client/components/ui/dropdown.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { notificationHref, useLiveNotifications, useRecentNotifications, type Area } from '../api/notifications.ts';

/** Strip tags for a toast: notification bodies are server-sanitised HTML. */
const plain = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';

/** The header notification menu, normal or mentorship (docs/product/notifications.md), live over the user channel. */
export function NotificationMenu({ area = 'main' }: { area?: Area }) {
  const recent = useRecentNotifications(area);
  useLiveNotifications(area, (n) => toast(plain(n.body), 'success'));
  const unread = recent.data?.unread_count ?? 0;
  const items = recent.data?.data ?? [];
  const all = area === 'mentorship' ? '/mentorship/notifications' : '/notifications';
  return (
    <Dropdown
      label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
      className="w-[min(24rem,calc(100vw-1rem))]"
      trigger={
        <span className="relative">
          <Bell aria-hidden className="size-6" />
          {unread > 0 ? (
            <span
              data-testid="unread-badge"
              aria-hidden
              className="absolute -right-2 -top-2 grid min-w-5 place-items-center rounded-full bg-accent px-1 text-xs font-bold text-accent-fg tabular"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </span>
      }
    >
      <div className="px-3 pb-1 pt-2 text-sm font-semibold text-muted">Notifications</div>
      {recent.isPending ? (
        <div className="grid place-items-center p-4">
          <Spinner />
        </div>
      ) : items.length === 0 ? (
        <p className="px-3 py-4 text-muted">{MESSAGES.notificationsEmpty}</p>
      ) : (
        items.map((n) => (
          <DropdownLink key={n.id} href={notificationHref(area, n.id)}>
            <span
              className={clsx(
                'mt-1 size-2.5 shrink-0 self-start rounded-full',
                n.unread ? 'bg-accent' : 'bg-transparent',
              )}
              aria-hidden
            />
            <span className="flex flex-col py-2">
              {/* body is HTML sanitised on the server (strict allow-list) */}
              <span className="user-html line-clamp-2" dangerouslySetInnerHTML={{ __html: n.body }} />
              <span className="text-sm text-muted">
                {formatDistanceToNow(new Date(n.created_at), { addSuffix: true })}
              </span>
            </span>
          </DropdownLink>
        ))
      )}
      <DropdownSeparator />
      <DropdownLink href={all}>
        <span className="w-full text-center font-semibold text-accent-strong">See all notifications</span>
      </DropdownLink>
    </Dropdown>
  );
}
