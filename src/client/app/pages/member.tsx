import { useParams, useSearchParams } from 'react-router';
import { BookOpen, Gauge, MessagesSquare, NotebookPen } from 'lucide-react';
import { pageConfig } from '#client/lib/page-config.ts';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { ChangePasswordForm } from '#client/features/auth/components/password-forms.tsx';
import { ChangeEmailForm } from '#client/features/auth/components/email-form.tsx';
import { usePageConfig } from '#client/lib/use-page-config.ts';
import { NotificationDetail, NotificationList } from '#client/features/notifications/components/notification-list.tsx';
import { ContinueCard, MyPractice } from '#client/features/learning/components/views.tsx';
import { PracticeStats } from '#client/features/journal/components/practice-stats.tsx';
import { usePracticeStats } from '#client/features/journal/api/journal.ts';
import { useContinueLesson, useMyPractice } from '#client/features/learning/api/learning.ts';
import { FriendsView, ProfileView } from '#client/features/profile/components/profile-view.tsx';
import { PROFILE_IMAGE_MODAL, ProfileImageModal } from '#client/features/profile/components/profile-image-modal.tsx';
import { useProfile } from '#client/features/profile/api/profile.ts';
import { ProfileWall } from '#client/features/wall/components/profile-wall.tsx';
import { openModal } from '#client/components/ui/modal.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { REVIEW_MODAL, ReviewModal } from '#client/features/reviews/components/review-modal.tsx';
import { Card, PageTitle, PartsLoading } from './common.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

const TILES = [
  { href: '/courses', icon: BookOpen, title: 'Courses', text: 'Pick up your next lesson.' },
  { href: '/metronome', icon: Gauge, title: 'Metronome', text: 'Speed and internal rhythm training.' },
  { href: '/journal', icon: NotebookPen, title: 'Practice Journal', text: 'Log today’s tempos.' },
  { href: '/forums', icon: MessagesSquare, title: 'Forums', text: 'Ask and share with drummers.' },
];

export function DashboardPage() {
  const config = pageConfig();
  const member = config.admin || config.entitlements.includes('membership');
  // the lesson to continue, the practice figures and the saved lessons are read separately, and each
  // changes the height of what sits under it: shown together once all three are in (PartsLoading)
  const loading = [useContinueLesson(), usePracticeStats(), useMyPractice()].some((query) => query.isPending);
  return (
    <>
      <PageTitle
        title={
          <>
            Welcome back, <UserText>{config.authName?.split(' ')[0] ?? 'drummer'}</UserText>
          </>
        }
        subtitle="Here is your practice at a glance."
      >
        <div className="flex flex-wrap gap-2">
          <a href="/placement" className={buttonClass('secondary')}>
            Find your stage
          </a>
          <Button variant="secondary" onClick={() => openModal(REVIEW_MODAL)}>
            Leave a review
          </Button>
        </div>
      </PageTitle>
      <ReviewModal />
      {!member ? (
        <Card className="mb-6 border-accent/40 bg-accent-soft">
          <h2 className="text-lg font-bold">You are on the free plan</h2>
          <p className="mt-1 text-muted">
            The Welcome course and the practice tools are yours. Membership opens every course, the forums and live
            shows.
          </p>
          <a href="/join" className={`${buttonClass('primary')} mt-4`}>
            See membership plans
          </a>
        </Card>
      ) : null}
      {loading ? (
        <PartsLoading />
      ) : (
        <>
          <div className="mb-6 grid gap-6 xl:grid-cols-[1fr_24rem]">
            <div className="flex flex-col gap-6">
              <ContinueCard />
              <PracticeStats />
            </div>
            <MyPractice />
          </div>
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {TILES.map((t) => (
              <a
                key={t.href}
                href={t.href}
                className="group flex flex-col gap-3 rounded-2xl border border-line bg-surface p-5 hover:border-accent"
              >
                <span className="grid size-12 place-items-center rounded-xl bg-accent-soft text-accent-strong">
                  <t.icon aria-hidden className="size-6" />
                </span>
                <span className="text-lg font-bold group-hover:text-accent-strong">{t.title}</span>
                <span className="text-muted">{t.text}</span>
              </a>
            ))}
          </div>
        </>
      )}
    </>
  );
}

export function AccountProfilePage({ mentorship = false }: { mentorship?: boolean }) {
  // follows a change of address made on this page (updatePageConfig)
  const config = usePageConfig();
  return (
    <>
      <PageTitle title="Account" subtitle={mentorship ? 'Your mentorship account.' : 'Your details and password.'} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <div className="flex items-center gap-4">
            <Avatar src={config.authAvatarUrl} name={config.authName ?? ''} size={64} />
            <div className="min-w-0">
              <p className="text-xl font-bold wrap-anywhere">{config.authName}</p>
              <p className="text-muted wrap-anywhere">{config.authEmail}</p>
            </div>
          </div>
          <div className="mt-6 flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => openModal(PROFILE_IMAGE_MODAL)}>
              Change profile image
            </Button>
            {config.authProfileUrl ? (
              <a href={config.authProfileUrl} className={buttonClass('secondary')}>
                View my profile
              </a>
            ) : null}
          </div>
          <ProfileImageModal />
        </Card>
        <Card>
          <h2 className="text-xl font-bold">Notifications</h2>
          <p className="mt-2 text-muted">Choose what reaches you in the bell and by e-mail, and the weekly digest.</p>
          <a href="/account/notifications" className={`${buttonClass('secondary')} mt-4`}>
            Notification settings
          </a>
        </Card>
        <Card>
          <h2 className="mb-4 text-xl font-bold">Change password</h2>
          <ChangePasswordForm />
        </Card>
        <Card>
          <h2 className="mb-4 text-xl font-bold">Change e-mail address</h2>
          <ChangeEmailForm current={config.authEmail ?? ''} />
        </Card>
      </div>
    </>
  );
}

export function NotificationsPage({ mentorship = false }: { mentorship?: boolean }) {
  const [params] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  return (
    <>
      <PageTitle title="Notifications" />
      <NotificationList area={mentorship ? 'mentorship' : 'main'} page={page} />
    </>
  );
}

export function NotificationPage({ mentorship = false }: { mentorship?: boolean }) {
  const { id = '' } = useParams();
  return (
    <>
      <PageTitle title="Notification" />
      <NotificationDetail id={Number(id)} area={mentorship ? 'mentorship' : 'main'} />
    </>
  );
}

export function ProfilePage() {
  const { slug = '' } = useParams();
  // the same query as ProfileView (one request): the wall needs the owner's id to post to it
  const profile = useProfile(slug);
  return (
    <div className="flex flex-col gap-8">
      <ProfileView slug={slug} />
      {profile.data ? <ProfileWall key={slug} slug={slug} ownerId={profile.data.id} /> : null}
    </div>
  );
}

export const FriendsPage = () => (
  <>
    <PageTitle title="Friends" subtitle="Drummers you practise and talk with." />
    <FriendsView />
  </>
);

export const TermsPage = () => (
  <article className="prose mx-auto max-w-2xl">
    <PageTitle title="Terms of Service" />
    <div className="flex flex-col gap-4 text-lg text-muted">
      <p>
        Backbeat gives members access to lessons, practice tools, forums and live shows for personal, non-commercial
        use.
      </p>
      <p>
        Memberships renew until cancelled; you can cancel or pause from the Billing page at any time, and keep access
        until the end of the paid period.
      </p>
      <p>Be kind in the community. We remove posts that harass, spam or share other people’s paid content.</p>
    </div>
  </article>
);

export const MentorshipNotificationsPage = () => <NotificationsPage mentorship />;
export const MentorshipNotificationPage = () => <NotificationPage mentorship />;
