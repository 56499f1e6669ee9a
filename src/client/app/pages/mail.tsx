import { useParams } from 'react-router';
import { NotificationSettings } from '#client/features/mail/components/notification-settings.tsx';
import { Unsubscribe } from '#client/features/mail/components/unsubscribe.tsx';
import { AuthCard, PageTitle } from './common.tsx';

export function NotificationSettingsPage() {
  return (
    <>
      <PageTitle title="Notification settings" subtitle="Choose what reaches you in the bell and by e-mail." />
      <NotificationSettings />
    </>
  );
}

export function UnsubscribePage() {
  const { token = '' } = useParams();
  return (
    <AuthCard title="Unsubscribe">
      <Unsubscribe token={token} />
    </AuthCard>
  );
}
