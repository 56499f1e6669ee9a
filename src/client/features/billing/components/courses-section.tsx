import { BookOpen } from 'lucide-react';
import { longDate, type BillingCourse } from '#shared/billing';
import { formatMoney } from '#shared/money';
import { Link } from '#client/components/ui/link.tsx';
import { Section } from './section.tsx';

/** Courses the member owns: the tier and price paid (or granted), and the way to the lessons. */
export function CoursesSection({ courses }: { courses: BillingCourse[] }) {
  if (courses.length === 0) return null;
  return (
    <Section title="Courses you own" testId="billing-courses">
      <ul className="flex flex-col divide-y divide-line">
        {courses.map((c) => (
          <li
            key={c.key}
            className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="flex min-w-0 items-start gap-3">
              <BookOpen aria-hidden className="mt-1 size-5 shrink-0 text-muted" />
              <div className="min-w-0">
                <p className="font-semibold wrap-anywhere">
                  {c.title}
                  {c.level ? <span className="font-normal text-muted"> ({c.level})</span> : null}
                </p>
                <p className="text-sm text-muted">
                  {c.source === 'bought' && c.price !== null
                    ? `Bought for ${formatMoney(c.price, c.currency)} on ${longDate(c.since)}`
                    : `Granted on ${longDate(c.since)}`}
                </p>
              </div>
            </div>
            {c.url ? (
              <Link
                to={c.url}
                aria-label={`Open course: ${c.title}`}
                className="shrink-0 font-semibold text-accent-strong underline underline-offset-4 sm:ml-4"
              >
                Open course
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
