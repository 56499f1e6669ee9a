import { AlertTriangle, BookOpen, CalendarCheck, Link2, ListMusic, UserRound, Users, Video } from 'lucide-react';
import { MENTORSHIP_AREA_TEXT, type MentorOverview, type StudentOverview } from '#shared/mentorship';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { pageConfig } from '#client/lib/page-config.ts';
import { useOverview } from '../api/mentorship.ts';
import { Failed, Loading, paymentSummary, percentOf, Tile } from './widgets.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

const firstName = (name: string | null) => (name ?? '').trim().split(/\s+/)[0] || 'drummer';

/** The /mentorship dashboard: a student's progress, or a mentor's students summary. */
export function MentorshipDashboard() {
  const overview = useOverview();
  const name = firstName(pageConfig().authName);
  if (overview.isPending) return <Loading />;
  if (overview.isError) return <Failed what="your mentorship overview" />;
  const o = overview.data;
  return (
    <div className="flex flex-col gap-6 sm:gap-8">
      <div>
        <p className="text-sm font-semibold uppercase tracking-widest text-accent">Mentorship</p>
        <h1 className="mt-1 text-3xl font-extrabold tracking-tight sm:text-4xl">
          Welcome back, <UserText>{name}</UserText>
        </h1>
        <p className="mt-2 max-w-2xl text-lg text-muted">
          {o.role === 'admin'
            ? 'Your students, their plans and the videos waiting for your feedback.'
            : 'Your plan, your lessons and everything you share with your mentor, in one place.'}
        </p>
      </div>
      {o.role === 'student' ? <StudentDashboard o={o} /> : <MentorDashboard o={o} />}
    </div>
  );
}

export function PastDueBanner() {
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-2xl border border-warning/50 bg-warning-soft p-5 sm:flex-row sm:items-center"
    >
      <AlertTriangle aria-hidden className="size-6 shrink-0 text-warning" />
      <p className="flex-1 text-base font-semibold">{MENTORSHIP_AREA_TEXT.pastDue}</p>
      <a href="/mentorship/account" className={buttonClass('secondary')}>
        Review my account
      </a>
    </div>
  );
}

function StudentDashboard({ o }: { o: StudentOverview }) {
  const week = o.plan.currentWeek;
  const pay = paymentSummary(o.payment);
  return (
    <>
      {o.pastDue ? <PastDueBanner /> : null}
      <div className="grid gap-4 lg:grid-cols-3">
        <section
          aria-label="Your mentor"
          className="flex items-center gap-4 rounded-2xl border border-line bg-surface p-5 lg:col-span-2"
          data-testid="mentor-card"
        >
          {o.mentor ? (
            <>
              <Avatar src={o.mentor.avatarUrl} name={o.mentor.name} size={64} />
              <div className="min-w-0 flex-1">
                <p className="text-sm font-semibold uppercase tracking-widest text-muted">Your mentor</p>
                <p className="truncate text-2xl font-bold" title={o.mentor.name}>
                  {o.mentor.name}
                </p>
              </div>
              <a href={o.mentor.profileUrl} className={buttonClass('secondary')}>
                Profile
              </a>
            </>
          ) : (
            <>
              <span className="grid size-16 shrink-0 place-items-center rounded-full bg-surface-2">
                <UserRound aria-hidden className="size-8 text-muted" />
              </span>
              <p className="text-base text-muted">{MENTORSHIP_AREA_TEXT.noMentor}</p>
            </>
          )}
        </section>
        <section
          aria-label="Payment"
          className="flex flex-col justify-center gap-1 rounded-2xl border border-line bg-surface p-5"
        >
          <p className="text-sm font-semibold uppercase tracking-widest text-muted">Payment</p>
          <p className="text-xl font-bold">{pay.headline}</p>
          {pay.detail ? <p className="text-sm text-muted">{pay.detail}</p> : null}
        </section>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <Tile
          href="/mentorship/practice-plan"
          icon={CalendarCheck}
          title="Practice plan"
          testId="tile-plan"
          value={o.plan.daysTotal ? `${o.plan.daysComplete}/${o.plan.daysTotal}` : '—'}
          detail={
            o.plan.daysTotal === 0
              ? 'Your mentor is building your plan.'
              : week
                ? `Now: phase ${week.phase}, week ${week.week} (${week.daysComplete} of ${week.daysTotal} days)`
                : 'Every day complete. Great work!'
          }
          percent={percentOf(o.plan.daysComplete, o.plan.daysTotal)}
        />
        <Tile
          href="/mentorship/lessons"
          icon={BookOpen}
          title="Lessons"
          testId="tile-lessons"
          value={`${o.lessons.complete}/${o.lessons.total}`}
          detail="lessons complete"
          percent={percentOf(o.lessons.complete, o.lessons.total)}
        />
        <Tile
          href="/mentorship/accountability"
          icon={Link2}
          title="Accountability links"
          testId="tile-links"
          value={o.links}
          detail={o.links === 1 ? 'link shared' : 'links shared'}
        />
        <Tile
          href="/mentorship/videos"
          icon={Video}
          title="Videos"
          testId="tile-videos"
          value={o.videos.total}
          detail={
            o.videos.awaitingFeedback
              ? `${o.videos.awaitingFeedback} waiting for feedback`
              : o.videos.total
                ? 'All have feedback'
                : 'Send your mentor a practice video'
          }
        />
        <Tile
          href="/mentorship/songmapper"
          icon={ListMusic}
          title="Song mapper"
          testId="tile-songmapper"
          value="Map a song"
          detail="Plan a song's sections, bars and feel."
        />
      </div>
    </>
  );
}

function MentorDashboard({ o }: { o: MentorOverview }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <Tile
          href="/mentorship/students?mine=1"
          icon={Users}
          title="My students"
          testId="tile-my-students"
          value={o.myStudents}
          detail={
            o.myVideosAwaitingFeedback
              ? `${o.myVideosAwaitingFeedback} videos waiting for your feedback`
              : 'No videos waiting for you'
          }
        />
        <Tile
          href="/mentorship/students?mine=0"
          icon={Users}
          title="All students"
          testId="tile-all-students"
          value={o.allStudents}
          detail={`${o.videosAwaitingFeedback} videos waiting for feedback in all`}
        />
        <Tile
          href="/mentorship/practice-plan-days"
          icon={CalendarCheck}
          title="Saved days"
          value="Plan days"
          detail="Reusable days to insert into any student's plan."
        />
      </div>
      <div>
        <a href="/mentorship/students" className={buttonClass('primary')}>
          Open my students
        </a>
      </div>
    </>
  );
}
