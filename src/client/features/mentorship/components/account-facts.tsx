import { UserRound } from 'lucide-react';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { ApiError } from '#client/lib/api.ts';
import { useOverview } from '../api/mentorship.ts';
import { PastDueBanner } from './dashboard.tsx';
import { Loading, paymentSummary, StatusBadge } from './widgets.tsx';

/** /mentorship/account: the mentorship facts under the account details (mentor, payment plan state). */
export function MentorshipAccountFacts() {
  const overview = useOverview();
  if (overview.isPending) return <Loading />;
  if (overview.isError) {
    // a member without the mentorship can open the account page: invite them instead
    if (overview.error instanceof ApiError && overview.error.status === 403) {
      return (
        <section className="flex flex-col items-start gap-3 rounded-2xl border border-line bg-surface p-5 sm:p-6">
          <h2 className="text-xl font-bold">Mentorship</h2>
          <p className="text-muted">You are not enrolled in the mentorship programme yet.</p>
          <a href="/mentorship/checkout" className={buttonClass('primary')}>
            See the mentorship
          </a>
        </section>
      );
    }
    return null;
  }
  const o = overview.data;
  if (o.role === 'admin') {
    return (
      <section className="flex flex-col items-start gap-3 rounded-2xl border border-line bg-surface p-5 sm:p-6">
        <h2 className="text-xl font-bold">Mentorship</h2>
        <p className="text-muted">
          You mentor {o.myStudents} {o.myStudents === 1 ? 'student' : 'students'} ({o.allStudents} in the programme).
        </p>
        <a href="/mentorship/students" className={buttonClass('secondary')}>
          Open my students
        </a>
      </section>
    );
  }
  const pay = paymentSummary(o.payment);
  return (
    <div className="flex flex-col gap-4" data-testid="mentorship-facts">
      {o.pastDue ? <PastDueBanner /> : null}
      <section className="grid gap-5 rounded-2xl border border-line bg-surface p-5 sm:grid-cols-2 sm:p-6">
        <h2 className="text-xl font-bold sm:col-span-2">Mentorship</h2>
        <div className="flex items-center gap-4">
          {o.mentor ? (
            <Avatar src={o.mentor.avatarUrl} name="" size={56} />
          ) : (
            <UserRound aria-hidden className="size-14 rounded-full bg-surface-2 p-3 text-muted" />
          )}
          <div>
            <p className="text-sm font-semibold uppercase tracking-widest text-muted">Mentor</p>
            <p className="text-lg font-bold">{o.mentor ? o.mentor.name : 'Being assigned'}</p>
          </div>
        </div>
        <div>
          <p className="text-sm font-semibold uppercase tracking-widest text-muted">Payment plan</p>
          <p className="text-lg font-bold">{pay.headline}</p>
          {pay.detail ? <p className="text-sm text-muted">{pay.detail}</p> : null}
          <p className="mt-2">
            <StatusBadge status={o.status} />
          </p>
        </div>
        <div className="flex flex-wrap gap-3 sm:col-span-2">
          <a href="/account/billing" className={buttonClass('secondary')}>
            Billing and payment methods
          </a>
        </div>
      </section>
    </div>
  );
}
