import { format } from 'date-fns';
import clsx from 'clsx';
import { MESSAGES } from '#shared/constants';
import { siteAddress } from '#shared/redirect';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import {
  notificationHref,
  useMarkAllRead,
  useNotification,
  useNotificationPage,
  type Area,
} from '../api/notifications.ts';

export function NotificationList({ area, page }: { area: Area; page: number }) {
  const list = useNotificationPage(area, page);
  const markAll = useMarkAllRead(area);
  const base = area === 'mentorship' ? '/mentorship/notifications' : '/notifications';
  if (list.isPending) return <Spinner />;
  if (list.isError) return <p className="text-danger">{MESSAGES.requestFailed}</p>;
  const { data, pages, unread_count } = list.data;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <p className="text-muted">{unread_count ? `${unread_count} unread` : 'All caught up'}</p>
        {unread_count ? (
          <Button variant="secondary" onClick={() => markAll.mutate()} disabled={markAll.isPending}>
            Mark all as read
          </Button>
        ) : null}
      </div>
      {data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line p-8 text-center text-muted">
          {MESSAGES.notificationsEmpty}
        </p>
      ) : (
        <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface">
          {data.map((n) => (
            <li key={n.id}>
              <a
                href={notificationHref(area, n.id)}
                className={clsx('flex gap-3 px-4 py-4 hover:bg-surface-2', n.unread && 'font-medium')}
              >
                <span
                  aria-hidden
                  className={clsx('mt-2 size-2.5 shrink-0 rounded-full', n.unread ? 'bg-accent' : 'bg-line')}
                />
                <span className="flex flex-col gap-1">
                  <span className="user-html" dangerouslySetInnerHTML={{ __html: n.body }} />
                  <span className="text-sm font-normal text-muted">{format(new Date(n.created_at), 'PPp')}</span>
                </span>
                {n.unread ? <span className="sr-only">(unread)</span> : null}
              </a>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages" className="flex items-center justify-center gap-3">
          {page > 1 ? (
            <a className={buttonClass('secondary')} href={`${base}?page=${page - 1}`}>
              Newer
            </a>
          ) : null}
          <span className="tabular text-muted">
            Page {page} of {pages}
          </span>
          {page < pages ? (
            <a className={buttonClass('secondary')} href={`${base}?page=${page + 1}`}>
              Older
            </a>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

export function NotificationDetail({ id, area }: { id: number; area: Area }) {
  const one = useNotification(id);
  const back = area === 'mentorship' ? '/mentorship/notifications' : '/notifications';
  if (one.isPending) return <Spinner />;
  if (one.isError) return <p className="text-muted">This notification does not exist or is not yours.</p>;
  const n = one.data.data;
  // a link stored before links were checked on the way in is shown only if it stays on the site
  const open = siteAddress(n.url);
  return (
    <article className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-6">
      <p className="text-sm text-muted">{format(new Date(n.created_at), 'PPPp')}</p>
      <div className="user-html text-lg" dangerouslySetInnerHTML={{ __html: n.body }} />
      <div className="flex flex-wrap gap-3">
        {open ? (
          <a className={buttonClass('primary')} href={open}>
            Open
          </a>
        ) : null}
        <a className={buttonClass('secondary')} href={back}>
          All notifications
        </a>
      </div>
    </article>
  );
}
