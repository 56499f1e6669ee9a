import { format, formatDistanceToNow } from 'date-fns';

/** A date as the console's lists show it: "23 Nov 2026"; no date is "—". */
export const day = (iso: string | null) => (iso ? format(new Date(iso), 'd MMM yyyy') : '—');

/** How long ago, e.g. "3 days ago", in a <time> element that carries the exact time. */
export function TimeAgo({ iso, className, title }: { iso: string; className?: string; title?: string }) {
  return (
    <time dateTime={iso} className={className} title={title}>
      {formatDistanceToNow(new Date(iso), { addSuffix: true })}
    </time>
  );
}
